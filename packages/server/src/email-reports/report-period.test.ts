import { describe, expect, it } from 'vitest'
import { lastFullPeriod, periodBefore } from './report-period.js'

describe('lastFullPeriod', () => {
  it('is the Monday to Sunday before the current week, in the zone', () => {
    // Wednesday 2026-03-11 in UTC.
    expect(lastFullPeriod('weekly', 'UTC', Date.parse('2026-03-11T12:00:00Z'))).toEqual({
      startDate: '2026-03-02',
      endDate: '2026-03-08',
    })
    // On a Monday the week that ended yesterday.
    expect(lastFullPeriod('weekly', 'UTC', Date.parse('2026-03-09T00:00:00Z'))).toEqual({
      startDate: '2026-03-02',
      endDate: '2026-03-08',
    })
    // Sunday 23:30 UTC is already Monday in Tokyo.
    const sundayNight = Date.parse('2026-03-08T23:30:00Z')
    expect(lastFullPeriod('weekly', 'UTC', sundayNight).endDate).toBe('2026-03-01')
    expect(lastFullPeriod('weekly', 'Asia/Tokyo', sundayNight).endDate).toBe('2026-03-08')
  })

  it('is the calendar month before the current one, across years and leap days', () => {
    expect(lastFullPeriod('monthly', 'UTC', Date.parse('2026-03-01T00:00:00Z'))).toEqual({
      startDate: '2026-02-01',
      endDate: '2026-02-28',
    })
    expect(lastFullPeriod('monthly', 'UTC', Date.parse('2028-03-15T00:00:00Z'))).toEqual({
      startDate: '2028-02-01',
      endDate: '2028-02-29',
    })
    expect(lastFullPeriod('monthly', 'UTC', Date.parse('2027-01-05T00:00:00Z'))).toEqual({
      startDate: '2026-12-01',
      endDate: '2026-12-31',
    })
    // 2026-01-31 23:00 UTC is February in Berlin.
    const lateJanuary = Date.parse('2026-01-31T23:30:00Z')
    expect(lastFullPeriod('monthly', 'UTC', lateJanuary).startDate).toBe('2025-12-01')
    expect(lastFullPeriod('monthly', 'Europe/Berlin', lateJanuary).startDate).toBe('2026-01-01')
  })

  it('compares a week with the week before, a month with the calendar month before', () => {
    expect(periodBefore('weekly', { startDate: '2026-03-02', endDate: '2026-03-08' })).toEqual({
      startDate: '2026-02-23',
      endDate: '2026-03-01',
    })
    expect(periodBefore('monthly', { startDate: '2026-03-01', endDate: '2026-03-31' })).toEqual({
      startDate: '2026-02-01',
      endDate: '2026-02-28',
    })
    expect(periodBefore('monthly', { startDate: '2026-01-01', endDate: '2026-01-31' })).toEqual({
      startDate: '2025-12-01',
      endDate: '2025-12-31',
    })
  })
})
