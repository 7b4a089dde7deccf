import { describe, expect, it } from 'vitest'
import { daysInMonth, parseIsoTimestamp } from './calendar-time.js'

describe('parseIsoTimestamp', () => {
  it('reads date-times that exist, with Z or an offset, to epoch ms', () => {
    expect(parseIsoTimestamp('2024-02-29T10:00:00Z')).toEqual({ at: Date.parse('2024-02-29T10:00:00Z') })
    expect(parseIsoTimestamp('2000-02-29T23:59:59.999+01:00')).toEqual({
      at: Date.parse('2000-02-29T22:59:59.999Z'),
    })
    expect(parseIsoTimestamp('2026-12-31T00:00-0530')).toEqual({ at: Date.parse('2026-12-31T05:30:00Z') })
  })

  it('refuses dates and times that do not exist, saying which part', () => {
    const refused = (text: string) => {
      const result = parseIsoTimestamp(text)
      return 'error' in result ? result.error : `accepted ${result.at}`
    }
    expect(refused('2026-02-30T00:00:00Z')).toBe(
      'must be a date and time that exist: 2026-02-30 is not a date (February 2026 has 28 days)',
    )
    expect(refused('2026-04-31T00:00:00Z')).toMatch(/2026-04-31 is not a date \(April 2026 has 30 days\)/)
    expect(refused('2025-02-29T00:00:00Z')).toMatch(/2025-02-29 is not a date \(February 2025 has 28 days\)/)
    expect(refused('1900-02-29T00:00:00Z')).toMatch(/1900-02-29 is not a date/)
    expect(refused('2026-13-01T00:00:00Z')).toMatch(/month 13 does not exist/)
    expect(refused('2026-01-00T00:00:00Z')).toMatch(/2026-01-00 is not a date/)
    expect(refused('2026-01-01T24:00:00Z')).toMatch(/hour 24 does not exist/)
    expect(refused('2026-01-01T10:60:00Z')).toMatch(/minute 60 does not exist/)
    expect(refused('2026-01-01T10:00:60Z')).toMatch(/second 60 does not exist/)
    expect(refused('2026-01-01T10:00:00+24:00')).toMatch(/offset must lie within ±23:59/)
    expect(refused('2026-01-01T10:00:00+01:60')).toMatch(/offset must lie within ±23:59/)
    expect(refused('1969-12-31T23:59:59Z')).toBe('must not be before 1970')
    for (const text of ['2026-01-01', '2026-01-01T10:00:00', '01/01/2026 10:00Z', 7, null]) {
      expect(refused(text as string)).toBe('must be an ISO 8601 date-time with Z or an offset')
    }
  })

  it('counts leap years as the Gregorian calendar does', () => {
    expect([2024, 2025, 2000, 1900, 2100].map((year) => daysInMonth(year, 2))).toEqual([29, 28, 29, 28, 28])
    expect([1, 3, 4, 6, 9, 11, 12].map((month) => daysInMonth(2026, month))).toEqual([
      31, 31, 30, 30, 30, 30, 31,
    ])
  })
})
