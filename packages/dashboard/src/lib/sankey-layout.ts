/**
 * Layout of a journeys Sankey chart with d3-sankey: one column per step, one node per (step, pathname),
 * nodes of a column stacked largest first, heights and link widths proportional to sessions (one scale
 * for the whole chart). A node's sessions are those of the journeys that reach it (so a step-1 node's
 * sessions may exceed its outgoing links: the rest ended there). Units: SVG user units.
 */
import type { JourneyLink, JourneyPath } from '@pathlight/protocol'
import { sankey, sankeyLinkHorizontal } from 'd3-sankey'

/** A placed node: `x`, `y` its top left corner. */
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

/** A placed link between two nodes. */
export interface SankeyBand {
  from: SankeyNode
  to: SankeyNode
  sessions: number
  /** The band's centre line, drawn as a stroke `width` thick. */
  d: string
  width: number
}

/** The nodes (column by column, top to bottom) and bands of a chart. */
export interface SankeyLayout {
  nodes: SankeyNode[]
  bands: SankeyBand[]
  /** Columns (steps) drawn. */
  steps: number
}

/** The box of a chart and its node sizes. */
export interface SankeySize {
  width: number
  height: number
  nodeWidth: number
  /** Vertical gap between nodes of a column. */
  gap: number
}

interface Node {
  id: string
  step: number
  pathname: string
  /** d3-sankey sizes a node by this instead of its links. */
  fixedValue: number
}

const nodeId = (step: number, pathname: string) => `${step}:${pathname}`

/** Lay out `paths` and their `links` (`GET .../journeys`) in a box of `size`. */
export function sankeyLayout(
  paths: readonly JourneyPath[],
  links: readonly JourneyLink[],
  size: SankeySize,
): SankeyLayout {
  const byId = new Map<string, Node>()
  for (const { path, sessions } of paths) {
    path.forEach((pathname, i) => {
      const id = nodeId(i + 1, pathname)
      const node = byId.get(id)
      if (node) node.fixedValue += sessions
      else byId.set(id, { id, step: i + 1, pathname, fixedValue: sessions })
    })
  }
  const steps = Math.max(0, ...paths.map((p) => p.path.length))
  if (steps === 0) return { nodes: [], bands: [], steps }
  const graph = sankey<Node, object>()
    .nodeId((n) => n.id)
    .nodeWidth(size.nodeWidth)
    .nodePadding(size.gap)
    .nodeAlign((n) => n.step - 1)
    .nodeSort((a, b) => (b.value ?? 0) - (a.value ?? 0) || (a.pathname < b.pathname ? -1 : 1))
    // Keep each column stacked in that order rather than relaxed towards its links.
    .iterations(0)
    .extent([
      [0, 0],
      [size.width, size.height],
    ])({
    nodes: [...byId.values()],
    links: links.flatMap((l) => {
      const source = nodeId(l.from.step, l.from.pathname)
      const target = nodeId(l.to.step, l.to.pathname)
      return byId.has(source) && byId.has(target) ? [{ source, target, value: l.sessions }] : []
    }),
  })
  const nodes = new Map(
    graph.nodes.map((n) => [
      n.id,
      {
        id: n.id,
        step: n.step,
        pathname: n.pathname,
        sessions: n.fixedValue,
        x: n.x0 ?? 0,
        y: n.y0 ?? 0,
        height: Math.max((n.y1 ?? 0) - (n.y0 ?? 0), 1),
      },
    ]),
  )
  const placed = (end: unknown) => nodes.get((end as Node).id) as SankeyNode
  const link = sankeyLinkHorizontal()
  return {
    nodes: [...nodes.values()].sort((a, b) => a.step - b.step || a.y - b.y),
    bands: graph.links.map((l) => ({
      from: placed(l.source),
      to: placed(l.target),
      sessions: l.value,
      d: link(l) ?? '',
      width: l.width ?? 0,
    })),
    steps,
  }
}
