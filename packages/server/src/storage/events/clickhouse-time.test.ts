import { describe, expect, it } from 'vitest'
import { fromClickHouseTime, toClickHouseTime } from './clickhouse-time.js'

describe('ClickHouse time', () => {
  it('writes ISO text and epoch milliseconds alike, and reads them back', () => {
    const iso = '2026-11-22T10:00:00.123Z'
    expect(toClickHouseTime(iso)).toBe('2026-11-22 10:00:00.123')
    expect(toClickHouseTime(Date.parse(iso))).toBe('2026-11-22 10:00:00.123')
    expect(fromClickHouseTime(toClickHouseTime(iso))).toBe(iso)
  })
})
