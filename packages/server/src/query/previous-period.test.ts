import { describe, expect, it } from 'vitest'
import { parseQueryParams } from './params.js'
import { comparedPeriod, comparisonAsked, previousPeriod, relativeChange } from './previous-period.js'

describe('previousPeriod', () => {
  it('is the range of equal length just before, in calendar days of the zone', () => {
    const params = parseQueryParams({ start_date: '2026-03-01', end_date: '2026-03-31' }, 0)
    expect(previousPeriod(params)).toEqual({
      ...params,
      startDate: '2026-01-29',
      endDate: '2026-02-28',
      from: Date.parse('2026-01-29T00:00:00.000Z'),
      to: Date.parse('2026-03-01T00:00:00.000Z'),
    })
  })

  it('follows the wall clock across a DST change', () => {
    // Berlin moved to summer time on 2026-03-29: the day before 03-30 is 23 hours long.
    const params = parseQueryParams(
      { start_date: '2026-03-30', end_date: '2026-03-30', time_zone: 'Europe/Berlin' },
      0,
    )
    const previous = previousPeriod(params)
    expect(previous).toMatchObject({ startDate: '2026-03-29', endDate: '2026-03-29' })
    expect(previous.to - previous.from).toBe(23 * 3_600_000)
  })
})

describe('comparedPeriod', () => {
  it('is the previous period by default, and the request names the comparison', () => {
    const plain = parseQueryParams({ start_date: '2026-03-01', end_date: '2026-03-31' }, 0)
    expect(comparedPeriod(plain)).toEqual(previousPeriod(plain))
    expect(comparisonAsked(plain)).toBe(false)
    const none = parseQueryParams({ start_date: '2026-03-01', end_date: '2026-03-31', compare: 'none' }, 0)
    expect(comparedPeriod(none)).toBeNull()
    expect(comparisonAsked(none)).toBe(false)
  })

  it("turns the compared days into instants of the request's zone, across a DST change", () => {
    // A year before Berlin's 2025-03-30 (summer time from 02:00) is 2024-03-30, a 24-hour day; the
    // day after it, 2024-03-31, was the change that year (23 hours).
    const params = parseQueryParams(
      {
        start_date: '2025-03-30',
        end_date: '2025-03-31',
        time_zone: 'Europe/Berlin',
        compare: 'previous_year',
      },
      0,
    )
    expect(comparisonAsked(params)).toBe(true)
    const compared = comparedPeriod(params)
    expect(compared).toMatchObject({
      startDate: '2024-03-30',
      endDate: '2024-03-31',
      from: Date.parse('2024-03-29T23:00:00.000Z'),
      to: Date.parse('2024-03-31T22:00:00.000Z'),
      timeZone: 'Europe/Berlin',
    })
  })
})

describe('relativeChange', () => {
  it('divides the difference by the previous value, null when that is 0', () => {
    expect(relativeChange({ a: 15, b: 3, c: 0 }, { a: 10, b: 0, c: 4 })).toEqual({ a: 0.5, b: null, c: -1 })
  })
})
