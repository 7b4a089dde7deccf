/**
 * Layout of a journeys Sankey chart: one column per step, one node per (step, pathname), nodes of a
 * column stacked largest first, heights and link widths proportional to sessions (one scale for the
 * whole chart), links stacked on each node in the order of the nodes they lead to or come from.
 * A node's sessions are those of the journeys that reach it (so a step-1 node's sessions may exceed
 * its outgoing links: the rest ended there). Units: SVG user units.
 */
import type { JourneyLink, JourneyPath } from '@pathlight/protocol'

export interface SankeyNode {
  /** `${step}:${pathname}`. */
  id: string
  step: number
  pathname: string
  sessions: number
  x: number
  y: number
  height: number
}

export interface SankeyBand {
  from: SankeyNode
  to: SankeyNode
  sessions: number
  /** The band's SVG path (a filled ribbon between the two nodes). */
  d: string
  /** Its vertical thickness. */
  width: number
}

export interface SankeyLayout {
  nodes: SankeyNode[]
  bands: SankeyBand[]
  /** Columns (steps) drawn. */
  steps: number
}

export interface SankeySize {
  width: number
  height: number
  nodeWidth: number
  /** Vertical gap between nodes of a column. */
  gap: number
}

const nodeId = (step: number, pathname: string) => `${step}:${pathname}`

/** Lay out `paths` and their `links` (`GET .../journeys`) in a box of `size`. */
export function sankeyLayout(
  paths: readonly JourneyPath[],
  links: readonly JourneyLink[],
  size: SankeySize,
): SankeyLayout {
  const byId = new Map<string, SankeyNode>()
  for (const { path, sessions } of paths) {
    path.forEach((pathname, i) => {
      const id = nodeId(i + 1, pathname)
      const node = byId.get(id)
      if (node) node.sessions += sessions
      else byId.set(id, { id, step: i + 1, pathname, sessions, x: 0, y: 0, height: 0 })
    })
  }
  const steps = Math.max(0, ...paths.map((p) => p.path.length))
  const columns = Array.from({ length: steps }, (_, i) =>
    [...byId.values()]
      .filter((n) => n.step === i + 1)
      .sort((a, b) => b.sessions - a.sessions || (a.pathname < b.pathname ? -1 : 1)),
  )
  const scale = Math.min(
    ...columns.map((column) => {
      const total = column.reduce((sum, n) => sum + n.sessions, 0)
      return (size.height - size.gap * (column.length - 1)) / Math.max(total, 1)
    }),
  )
  const spacing = steps > 1 ? (size.width - size.nodeWidth) / (steps - 1) : 0
  for (const [i, column] of columns.entries()) {
    let y = 0
    for (const node of column) {
      node.x = i * spacing
      node.y = y
      node.height = Math.max(node.sessions * scale, 1)
      y += node.height + size.gap
    }
  }

  const placed = links.flatMap((link) => {
    const from = byId.get(nodeId(link.from.step, link.from.pathname))
    const to = byId.get(nodeId(link.to.step, link.to.pathname))
    return from && to
      ? [{ from, to, sessions: link.sessions, width: link.sessions * scale, y0: 0, y1: 0 }]
      : []
  })
  // Each node stacks its outgoing bands in the order of their targets, incoming in that of sources.
  const stack = (key: (b: (typeof placed)[number]) => SankeyNode, other: typeof key, set: 'y0' | 'y1') => {
    const offsets = new Map<string, number>()
    for (const band of [...placed].sort((a, b) => key(a).y - key(b).y || other(a).y - other(b).y)) {
      const node = key(band)
      const offset = offsets.get(node.id) ?? 0
      band[set] = node.y + offset
      offsets.set(node.id, offset + band.width)
    }
  }
  stack(
    (b) => b.from,
    (b) => b.to,
    'y0',
  )
  stack(
    (b) => b.to,
    (b) => b.from,
    'y1',
  )
  const bands = placed.map(({ from, to, sessions, width, y0, y1 }) => ({
    from,
    to,
    sessions,
    width,
    d: ribbon(from.x + size.nodeWidth, y0, to.x, y1, width),
  }))
  return { nodes: columns.flat(), bands, steps }
}

/** A ribbon of thickness `w` from (x0, y0) to (x1, y1) (top edges), as a cubic-curved closed path. */
function ribbon(x0: number, y0: number, x1: number, y1: number, w: number): string {
  const xm = (x0 + x1) / 2
  const r = (n: number) => Math.round(n * 10) / 10
  return [
    `M${r(x0)},${r(y0)}`,
    `C${r(xm)},${r(y0)} ${r(xm)},${r(y1)} ${r(x1)},${r(y1)}`,
    `L${r(x1)},${r(y1 + w)}`,
    `C${r(xm)},${r(y1 + w)} ${r(xm)},${r(y0 + w)} ${r(x0)},${r(y0 + w)}`,
    'Z',
  ].join(' ')
}
