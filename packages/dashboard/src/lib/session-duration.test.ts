import { describe, expect, it } from 'vitest'
import { sessionDurationSeconds } from './session-duration'

describe('sessionDurationSeconds', () => {
  it('counts whole seconds rounded down, as the reports do', () => {
    expect(sessionDurationSeconds('2026-03-10T10:00:00.000Z', '2026-03-10T10:00:11.600Z')).toBe(11)
    expect(sessionDurationSeconds('2026-03-10T10:00:00.000Z', '2026-03-10T10:00:11.999Z')).toBe(11)
    expect(sessionDurationSeconds('2026-03-10T10:00:00.500Z', '2026-03-10T10:00:12.000Z')).toBe(11)
    expect(sessionDurationSeconds('2026-03-10T10:00:00.000Z', '2026-03-10T10:02:00.000Z')).toBe(120)
  })

  it('is 0 for one event, times out of order, or a time that does not parse', () => {
    expect(sessionDurationSeconds('2026-03-10T10:00:00.000Z', '2026-03-10T10:00:00.000Z')).toBe(0)
    expect(sessionDurationSeconds('2026-03-10T10:00:05.000Z', '2026-03-10T10:00:00.000Z')).toBe(0)
    expect(sessionDurationSeconds('nope', '2026-03-10T10:00:00.000Z')).toBe(0)
  })
})
