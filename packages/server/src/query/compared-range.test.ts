import { describe, expect, it } from 'vitest'
import { comparedRange, onWeekdayOf, sameDayYearBefore } from './compared-range.js'
import { isoWeekday } from './zoned-time.js'

const range = (startDate: string, endDate: string) => ({ startDate, endDate })

describe('sameDayYearBefore', () => {
  it('keeps month and day, and maps 29 February to 28 February', () => {
    expect(sameDayYearBefore('2025-03-01')).toBe('2024-03-01')
    expect(sameDayYearBefore('2025-02-28')).toBe('2024-02-28')
    expect(sameDayYearBefore('2024-02-29')).toBe('2023-02-28')
    expect(sameDayYearBefore('2024-12-31')).toBe('2023-12-31')
    expect(sameDayYearBefore('1971-01-01')).toBe('1970-01-01')
  })
})

describe('comparedRange', () => {
  it('previous_period (also the default): the days of equal length just before', () => {
    expect(comparedRange(range('2026-03-01', '2026-03-31'))).toEqual(range('2026-01-29', '2026-02-28'))
    expect(
      comparedRange(range('2024-03-01', '2024-03-31'), { mode: 'previous_period', matchDayOfWeek: false }),
    ).toEqual(range('2024-01-30', '2024-02-29'))
    expect(comparedRange(range('2026-01-01', '2026-01-01'))).toEqual(range('2025-12-31', '2025-12-31'))
  })

  it('previous_year: a calendar year earlier, across a leap day either way', () => {
    const year = { mode: 'previous_year', matchDayOfWeek: false } as const
    // The compared February has a 29th: one day longer.
    expect(comparedRange(range('2025-02-27', '2025-03-02'), year)).toEqual(range('2024-02-27', '2024-03-02'))
    // The leap day itself maps to the 28th.
    expect(comparedRange(range('2024-02-29', '2024-02-29'), year)).toEqual(range('2023-02-28', '2023-02-28'))
    expect(comparedRange(range('2024-02-01', '2024-02-29'), year)).toEqual(range('2023-02-01', '2023-02-28'))
    // Month ends stay month ends (other than February's).
    expect(comparedRange(range('2026-04-30', '2026-05-31'), year)).toEqual(range('2025-04-30', '2025-05-31'))
    expect(comparedRange(range('2026-01-01', '2026-12-31'), year)).toEqual(range('2025-01-01', '2025-12-31'))
  })

  it('custom: the days named; none: nothing', () => {
    const custom = range('2025-11-01', '2025-11-03')
    expect(
      comparedRange(range('2026-01-01', '2026-01-31'), { mode: 'custom', custom, matchDayOfWeek: false }),
    ).toEqual(custom)
    expect(
      comparedRange(range('2026-01-01', '2026-01-31'), { mode: 'none', matchDayOfWeek: false }),
    ).toBeNull()
  })

  it('match_day_of_week: previous_period moves earlier, so it still ends before the range', () => {
    const match = { mode: 'previous_period', matchDayOfWeek: true } as const
    // 2026-03-01 is a Sunday; the 31 days before start on Wednesday 2026-01-29, moved back to Sunday 01-25.
    const compared = comparedRange(range('2026-03-01', '2026-03-31'), match)
    expect(compared).toEqual(range('2026-01-25', '2026-02-24'))
    expect(isoWeekday('2026-03-01')).toBe(7)
    expect(isoWeekday('2026-01-25')).toBe(7)
    // A whole number of weeks is already aligned.
    expect(comparedRange(range('2026-03-02', '2026-03-08'), match)).toEqual(range('2026-02-23', '2026-03-01'))
  })

  it('match_day_of_week: previous_year moves to the nearest same weekday', () => {
    const match = { mode: 'previous_year', matchDayOfWeek: true } as const
    // Monday 2025-03-03; 2024-03-03 is a Sunday: one day later, Monday 2024-03-04 (364 days before).
    expect(comparedRange(range('2025-03-03', '2025-03-09'), match)).toEqual(range('2024-03-04', '2024-03-10'))
    // Thursday 2024-02-29 -> 2023-02-28 (Tuesday) -> Thursday 2023-03-02.
    expect(comparedRange(range('2024-02-29', '2024-02-29'), match)).toEqual(range('2023-03-02', '2023-03-02'))
  })

  it('onWeekdayOf lands on the weekday for every offset, within the direction bounds', () => {
    for (let i = 0; i < 7; i++) {
      const day = `2026-06-0${i + 1}`
      const compared = range('2026-01-07', '2026-01-20')
      const earlier = onWeekdayOf(compared, day, 'earlier')
      const nearest = onWeekdayOf(compared, day, 'nearest')
      expect(isoWeekday(earlier.startDate)).toBe(isoWeekday(day))
      expect(isoWeekday(nearest.startDate)).toBe(isoWeekday(day))
      const shift = (d: string, from = compared.startDate) => (Date.parse(d) - Date.parse(from)) / 86_400_000
      expect(shift(earlier.startDate)).toBeGreaterThanOrEqual(-6)
      expect(shift(earlier.startDate)).toBeLessThanOrEqual(0)
      expect(Math.abs(shift(nearest.startDate))).toBeLessThanOrEqual(3)
      expect(shift(earlier.endDate, compared.endDate)).toBe(shift(earlier.startDate))
    }
  })
})
