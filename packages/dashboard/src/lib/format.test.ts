import { describe, expect, it } from 'vitest'
import { formatBytes, formatDuration, formatRelative } from './format'

describe('format', () => {
  const now = Date.parse('2026-11-22T12:00:00.000Z')
  it('says how long ago', () => {
    expect(formatRelative('2026-11-22T11:59:30.000Z', now)).toBe('just now')
    expect(formatRelative('2026-11-22T11:55:00.000Z', now)).toBe('5 minutes ago')
    expect(formatRelative('2026-11-22T09:00:00.000Z', now)).toBe('3 hours ago')
    expect(formatRelative('2026-11-21T12:00:00.000Z', now)).toBe('yesterday')
  })
  it('formats durations', () => {
    expect(formatDuration(85.4)).toBe('85 ms')
    expect(formatDuration(1234)).toBe('1.2 s')
  })
  it('formats sizes', () => {
    expect(formatBytes(850)).toBe('850 B')
    expect(formatBytes(12_345)).toBe('12.3 kB')
    expect(formatBytes(4_100_000)).toBe('4.1 MB')
  })
})
