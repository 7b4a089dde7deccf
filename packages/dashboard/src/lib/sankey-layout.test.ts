import { describe, expect, it } from 'vitest'
import { sankeyLayout } from './sankey-layout'

const size = { width: 212, height: 100, nodeWidth: 12, gap: 10 }
const link = (step: number, from: string, to: string, sessions: number) => ({
  from: { step, pathname: from },
  to: { step: step + 1, pathname: to },
  sessions,
})

describe('sankeyLayout', () => {
  const paths = [
    { path: ['/', '/a'], sessions: 6 },
    { path: ['/', '/b'], sessions: 2 },
    { path: ['/x', '/a'], sessions: 2 },
  ]
  const links = [link(1, '/', '/a', 6), link(1, '/', '/b', 2), link(1, '/x', '/a', 2)]
  const layout = sankeyLayout(paths, links, size)

  it('places one node per step and pathname, largest first, with one scale', () => {
    // Column 1: / (8) and /x (2); column 2: /a (8) and /b (2); scale (100 - 10) / 10 = 9.
    expect(layout.steps).toBe(2)
    expect(layout.nodes.map((n) => [n.id, n.sessions, n.x, n.y, n.height])).toEqual([
      ['1:/', 8, 0, 0, 72],
      ['1:/x', 2, 0, 82, 18],
      ['2:/a', 8, 200, 0, 72],
      ['2:/b', 2, 200, 82, 18],
    ])
  })

  it('stacks the bands on both ends', () => {
    expect(layout.bands.map((b) => [b.from.id, b.to.id, b.width, b.d])).toEqual([
      ['1:/', '2:/a', 54, 'M12,0 C106,0 106,0 200,0 L200,54 C106,54 106,54 12,54 Z'],
      ['1:/', '2:/b', 18, 'M12,54 C106,54 106,82 200,82 L200,100 C106,100 106,72 12,72 Z'],
      ['1:/x', '2:/a', 18, 'M12,82 C106,82 106,54 200,54 L200,72 C106,72 106,100 12,100 Z'],
    ])
  })

  it('is empty without journeys', () => {
    expect(sankeyLayout([], [], size)).toEqual({ nodes: [], bands: [], steps: 0 })
  })
})
