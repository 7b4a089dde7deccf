import { describe, expect, it } from 'vitest'
import {
  addDays,
  addMonths,
  canonicalTimeZone,
  dayIn,
  daysBetween,
  isoWeekday,
  offsetAt,
  startOfDayIn,
} from './zoned-time.js'

const iso = (ms: number) => new Date(ms).toISOString()

describe('canonicalTimeZone', () => {
  it.each([
    ['UTC', 'UTC'],
    ['utc', 'UTC'],
    ['europe/berlin', 'Europe/Berlin'],
    ['US/Eastern', 'America/New_York'],
    // ICU keeps the older canonical name; ClickHouse knows both.
    ['Asia/Kolkata', 'Asia/Calcutta'],
  ])('%s -> %s', (input, canonical) => {
    expect(canonicalTimeZone(input)).toBe(canonical)
  })

  it.each(['', 'Mars/Olympus_Mons', '+01:00', 'Europe/Berlin; DROP TABLE events', 'x'.repeat(65)])(
    'rejects %j',
    (input) => {
      expect(canonicalTimeZone(input)).toBeNull()
    },
  )
})

describe('startOfDayIn', () => {
  it.each([
    ['2026-03-28', 'Europe/Berlin', '2026-03-27T23:00:00.000Z'],
    ['2026-03-29', 'Europe/Berlin', '2026-03-28T23:00:00.000Z'], // 23 hours long
    ['2026-03-30', 'Europe/Berlin', '2026-03-29T22:00:00.000Z'],
    ['2026-10-25', 'Europe/Berlin', '2026-10-24T22:00:00.000Z'], // 25 hours long
    ['2026-10-26', 'Europe/Berlin', '2026-10-25T23:00:00.000Z'],
    ['2026-03-08', 'America/New_York', '2026-03-08T05:00:00.000Z'],
    ['2026-03-09', 'America/New_York', '2026-03-09T04:00:00.000Z'],
    ['2026-03-10', 'Asia/Kolkata', '2026-03-09T18:30:00.000Z'],
    ['2026-03-10', 'UTC', '2026-03-10T00:00:00.000Z'],
    // Midnight skipped by DST: the day begins at the change (01:00 local).
    ['2026-09-06', 'America/Santiago', '2026-09-06T04:00:00.000Z'],
    ['2026-03-29', 'Asia/Beirut', '2026-03-28T22:00:00.000Z'],
    // A half-hour DST change.
    ['2026-10-04', 'Australia/Lord_Howe', '2026-10-03T13:30:00.000Z'],
  ])('%s in %s starts at %s', (day, zone, instant) => {
    expect(iso(startOfDayIn(day, zone))).toBe(instant)
  })
})

describe('calendar helpers', () => {
  it('offsetAt and dayIn read the zone at an instant', () => {
    expect(offsetAt(Date.parse('2026-03-29T00:59:59.999Z'), 'Europe/Berlin')).toBe(3_600_000)
    expect(offsetAt(Date.parse('2026-03-29T01:00:00.000Z'), 'Europe/Berlin')).toBe(7_200_000)
    const late = Date.parse('2026-03-29T23:30:00.000Z')
    expect(dayIn(late, 'UTC')).toBe('2026-03-29')
    expect(dayIn(late, 'Europe/Berlin')).toBe('2026-03-30')
    expect(dayIn(late, 'America/Los_Angeles')).toBe('2026-03-29')
  })

  it('adds days and months, counts days, names weekdays', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01')
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29')
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31')
    expect(addMonths('2026-12-01', 1)).toBe('2027-01-01')
    expect(daysBetween('2026-03-01', '2026-03-31')).toBe(30)
    expect(daysBetween('2026-03-31', '2026-03-01')).toBe(-30)
    expect(isoWeekday('2026-03-30')).toBe(1) // Monday
    expect(isoWeekday('2026-03-29')).toBe(7) // Sunday
  })
})
