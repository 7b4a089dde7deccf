import { describe, expect, it } from 'vitest'
import { effectiveRetentionDays, retentionCutoff } from './retention-period.js'

describe('retentionCutoff', () => {
  it('counts whole UTC days back from midnight of the current day', () => {
    const at = (iso: string, days: number) => new Date(retentionCutoff(Date.parse(iso), days)).toISOString()
    expect(at('2026-03-31T10:00:00.000Z', 30)).toBe('2026-03-01T00:00:00.000Z')
    expect(at('2026-03-31T00:00:00.000Z', 30)).toBe('2026-03-01T00:00:00.000Z')
    expect(at('2026-03-31T23:59:59.999Z', 30)).toBe('2026-03-01T00:00:00.000Z')
    expect(at('2028-03-01T12:00:00.000Z', 365)).toBe('2027-03-02T00:00:00.000Z')
  })
})

describe('effectiveRetentionDays', () => {
  it("prefers the site's own period, then the operator's default, else forever (null)", () => {
    expect(effectiveRetentionDays(90, 30)).toBe(90)
    expect(effectiveRetentionDays(null, 30)).toBe(30)
    expect(effectiveRetentionDays(null, null)).toBeNull()
  })
})
