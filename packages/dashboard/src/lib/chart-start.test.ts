import { describe, expect, it } from 'vitest'
import { fromSiteStart } from './chart-start'

const days = (values: number[]) =>
  values.map((value, i) => ({ time: `2026-11-${String(20 + i).padStart(2, '0')}T00:00:00.000Z`, value }))

describe('fromSiteStart', () => {
  it('starts a new site’s chart at the bucket of its creation', () => {
    const points = days([0, 0, 0, 0, 1, 3])
    expect(fromSiteStart(points, Date.parse('2026-11-23T15:00:00Z'), '2026-11-25', 'UTC')).toEqual(
      points.slice(3),
    )
    // In Berlin the creation falls on the 24th; the buckets are Berlin days then.
    const berlin = days([0, 0, 0, 0, 1]).map((p, i) => ({
      ...p,
      time: `2026-11-${19 + i}T23:00:00.000Z`,
    }))
    expect(fromSiteStart(berlin, Date.parse('2026-11-23T23:30:00Z'), '2026-11-24', 'Europe/Berlin')).toEqual(
      berlin.slice(4),
    )
  })

  it('keeps every point when the site is older than the range, or has data from before its creation', () => {
    const points = days([0, 2, 0, 0, 1])
    expect(fromSiteStart(points, Date.parse('2026-11-01T00:00:00Z'), '2026-11-24', 'UTC')).toEqual(points)
    expect(fromSiteStart(points, Date.parse('2026-11-23T10:00:00Z'), '2026-11-24', 'UTC')).toEqual(points)
    expect(fromSiteStart(points, Date.parse('2026-11-20T10:00:00Z'), '2026-11-24', 'UTC')).toEqual(points)
  })

  it('keeps every point of a range that ends before the site was created', () => {
    const points = days([0, 0, 0])
    expect(fromSiteStart(points, Date.parse('2026-11-28T10:00:00Z'), '2026-11-22', 'UTC')).toEqual(points)
  })
})
