import { describe, expect, it } from 'vitest'
import { impossiblePostgresTimestamp, parsePostgresTimestamp } from './postgres-timestamp.js'

describe('parsePostgresTimestamp', () => {
  it('reads timestamptz text with its offset, to UTC with milliseconds', () => {
    expect(parsePostgresTimestamp('2024-03-01 10:00:00.123+00')).toBe('2024-03-01T10:00:00.123Z')
    expect(parsePostgresTimestamp('2024-03-01 10:00:00.123456+00')).toBe('2024-03-01T10:00:00.123Z')
    expect(parsePostgresTimestamp('2024-03-01 10:00:00+05:30')).toBe('2024-03-01T04:30:00.000Z')
    expect(parsePostgresTimestamp('2024-03-01 00:30:00-02')).toBe('2024-03-01T02:30:00.000Z')
    expect(parsePostgresTimestamp('2024-03-01T10:00:00Z')).toBe('2024-03-01T10:00:00.000Z')
    expect(parsePostgresTimestamp('2024-03-01 10:00:00')).toBe('2024-03-01T10:00:00.000Z')
  })

  it('refuses other text and dates that do not exist', () => {
    for (const text of [
      '',
      '2024-03-01',
      '01/03/2024 10:00',
      '2024-02-30 10:00:00+00',
      '2024-03-01 25:00:00',
      '2026-02-30 00:00:00+00',
      '2026-04-31 12:00:00+00',
      '2025-02-29 12:00:00',
      '2026-03-01 24:00:00+00',
      '2026-03-01 10:60:00+00',
      '2026-03-01 10:00:60+00',
      '2026-03-01 10:00:00+25',
      '2026-03-01 10:00:00+05:60',
      ' 2024-03-01 10:00:00',
    ]) {
      expect(parsePostgresTimestamp(text), text).toBeNull()
    }
  })

  it('says which part of a timestamp does not exist', () => {
    expect(impossiblePostgresTimestamp('2026-02-30 00:00:00+00')).toBe(
      '2026-02-30 is not a date (February 2026 has 28 days)',
    )
    expect(impossiblePostgresTimestamp('2026-03-01 24:00:00')).toBe('hour 24 does not exist (00-23)')
    expect(impossiblePostgresTimestamp('2026-03-01 10:00:00+25')).toBe('offset +25 does not exist')
    expect(impossiblePostgresTimestamp('2026-03-01 10:00:00+00')).toBeUndefined()
    expect(impossiblePostgresTimestamp('yesterday')).toBeUndefined()
  })
})
