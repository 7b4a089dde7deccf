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

  it('stacks the bands on both ends (each path is its centre line)', () => {
    expect(layout.bands.map((b) => [b.from.id, b.to.id, b.width, b.d])).toEqual([
      ['1:/', '2:/a', 54, 'M12,27C106,27,106,27,200,27'],
      ['1:/', '2:/b', 18, 'M12,63C106,63,106,91,200,91'],
      ['1:/x', '2:/a', 18, 'M12,91C106,91,106,63,200,63'],
    ])
  })

  it('puts a journey that ends early in its own step, sized by its sessions', () => {
    const short = sankeyLayout(
      [
        { path: ['/', '/a', '/b'], sessions: 4 },
        { path: ['/', '/c'], sessions: 4 },
      ],
      [link(1, '/', '/a', 4), link(1, '/', '/c', 4), link(2, '/a', '/b', 4)],
      size,
    )
    expect(short.steps).toBe(3)
    expect(short.nodes.map((n) => [n.id, n.step, n.x, n.sessions])).toEqual([
      ['1:/', 1, 0, 8],
      ['2:/a', 2, 100, 4],
      ['2:/c', 2, 100, 4],
      ['3:/b', 3, 200, 4],
    ])
  })

  it('is empty without journeys', () => {
    expect(sankeyLayout([], [], size)).toEqual({ nodes: [], bands: [], steps: 0 })
  })
})
