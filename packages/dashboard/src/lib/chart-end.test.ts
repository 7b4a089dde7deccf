import { describe, expect, it } from 'vitest'
import { elapsedBuckets } from './chart-end'

const hours = Array.from({ length: 24 }, (_, h) => `2026-12-02T${String(h).padStart(2, '0')}:00:00.000Z`)

describe('elapsedBuckets', () => {
  it('ends at the bucket holding now', () => {
    expect(elapsedBuckets(hours, Date.parse('2026-12-02T14:35:00.000Z'))).toBe(15)
    expect(elapsedBuckets(hours, Date.parse('2026-12-02T14:00:00.000Z'))).toBe(15)
    expect(elapsedBuckets(hours, Date.parse('2026-12-02T00:00:30.000Z'))).toBe(1)
  })

  it('keeps every bucket of a past range, and none of a future one', () => {
    expect(elapsedBuckets(hours, Date.parse('2026-12-03T08:00:00.000Z'))).toBe(24)
    expect(elapsedBuckets(hours, Date.parse('2026-12-01T23:59:59.999Z'))).toBe(0)
    expect(elapsedBuckets([], Date.parse('2026-12-02T12:00:00.000Z'))).toBe(0)
  })
})
