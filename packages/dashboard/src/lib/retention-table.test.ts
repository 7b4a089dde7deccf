import { describe, expect, it } from 'vitest'
import {
  averageShares,
  defaultRetentionPeriod,
  fromFirstVisitors,
  retentionPeriodsFor,
  shareOf,
} from './retention-table'

describe('retention table', () => {
  it('offers at most 256 periods, and picks a period by the range', () => {
    expect(retentionPeriodsFor(256)).toEqual(['day', 'week', 'month'])
    expect(retentionPeriodsFor(257)).toEqual(['week', 'month'])
    // 1,786 days from a Sunday meet 1 + 255 = 256 weeks; one more day, 257.
    expect(retentionPeriodsFor(1786)).toEqual(['week', 'month'])
    expect(retentionPeriodsFor(1787)).toEqual(['month'])
    expect([7, 14, 15, 90, 183, 184].map(defaultRetentionPeriod)).toEqual([
      'day',
      'day',
      'week',
      'week',
      'week',
      'month',
    ])
  })

  it('weights the average by visitors, over the cohorts that reach each column', () => {
    const cohorts = [
      { cohort: '2026-03-16', visitors: 4, retained: [4, 2, 1] },
      { cohort: '2026-03-23', visitors: 0, retained: [0, 0] },
      { cohort: '2026-03-30', visitors: 1, retained: [1] },
    ]
    expect(averageShares(cohorts)).toEqual([1, 0.5, 0.25])
    expect(averageShares([{ cohort: '2026-03-16', visitors: 0, retained: [0, 0] }])).toEqual([null, null])
    expect(averageShares([])).toEqual([])
    expect(shareOf(1, 3)).toBeCloseTo(1 / 3)
    expect(shareOf(0, 0)).toBeNull()
  })

  it('leaves out the cohorts before the first one with visitors, not the empty ones after it', () => {
    const cohorts = [
      { cohort: '2026-03-02', visitors: 0, retained: [0, 0, 0, 0] },
      { cohort: '2026-03-09', visitors: 0, retained: [0, 0, 0] },
      { cohort: '2026-03-16', visitors: 2, retained: [2, 0] },
      { cohort: '2026-03-23', visitors: 0, retained: [0] },
    ]
    expect(fromFirstVisitors(cohorts)).toEqual(cohorts.slice(2))
    expect(fromFirstVisitors(cohorts.slice(0, 2))).toEqual([])
    expect(fromFirstVisitors([])).toEqual([])
  })
})
