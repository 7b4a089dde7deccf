import { describe, expect, it } from 'vitest'
import { areaPath, labelIndexes, linePath, niceTicks, plotPoints } from './chart-scale'

describe('chart scale', () => {
  it('rounds the axis up to a readable top, with whole-number ticks only', () => {
    expect(niceTicks(0)).toEqual([0, 1])
    expect(niceTicks(2)).toEqual([0, 1, 2])
    expect(niceTicks(2.5)).toEqual([0, 1, 2, 3])
    expect(niceTicks(3.5)).toEqual([0, 1, 2, 3, 4])
    expect(niceTicks(5)).toEqual([0, 1, 2, 3, 4, 5])
    expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8])
    expect(niceTicks(9)).toEqual([0, 2, 4, 6, 8, 10])
    expect(niceTicks(90)).toEqual([0, 20, 40, 60, 80, 100])
    expect(niceTicks(170)).toEqual([0, 50, 100, 150, 200])
    expect(niceTicks(1234)).toEqual([0, 500, 1000, 1500])
    expect(niceTicks(7, 1)).toEqual([0, 10])
    for (let max = 0; max <= 300; max += 0.5) {
      const ticks = niceTicks(max)
      expect(ticks.every(Number.isInteger)).toBe(true)
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max)
    }
  })

  it('plots values and draws paths', () => {
    const points = plotPoints([0, 2, 4], 100, 50, 4)
    expect(points).toEqual([
      { x: 0, y: 50 },
      { x: 50, y: 25 },
      { x: 100, y: 0 },
    ])
    expect(linePath(points)).toBe('M0 50 L50 25 L100 0')
    expect(areaPath(points, 50)).toBe('M0 50 L50 25 L100 0 L100 50 L0 50 Z')
    expect(linePath([{ x: 1.26, y: 2.04 }])).toBe('M1.3 2')
    expect(plotPoints([3], 100, 50, 4)).toEqual([{ x: 50, y: 12.5 }])
    expect(plotPoints([0, 0], 100, 50, 0)).toEqual([
      { x: 0, y: 50 },
      { x: 100, y: 50 },
    ])
    expect(labelIndexes(3, 6)).toEqual([0, 1, 2])
    expect(labelIndexes(30, 4)).toEqual([0, 10, 19, 29])
  })
})
