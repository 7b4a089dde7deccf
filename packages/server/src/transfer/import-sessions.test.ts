import { describe, expect, it } from 'vitest'
import { createImportSessions } from './import-sessions.js'

const MIN = 60_000

describe('createImportSessions', () => {
  it('ends a session after 30 minutes without an event, per visitor', () => {
    const sessions = createImportSessions()
    const a1 = sessions.assign('a', 0)
    expect(sessions.assign('a', 29 * MIN)).toBe(a1)
    expect(sessions.assign('a', 58 * MIN)).toBe(a1)
    const a2 = sessions.assign('a', 89 * MIN)
    expect(a2).not.toBe(a1)
    const b1 = sessions.assign('b', 1 * MIN)
    expect(b1).not.toBe(a1)
    expect(sessions.assign('b', 2 * MIN)).toBe(b1)
  })

  it('puts an event that arrives late into the session it falls in or near', () => {
    const sessions = createImportSessions()
    const first = sessions.assign('a', 0)
    const second = sessions.assign('a', 120 * MIN)
    expect(sessions.assign('a', 10 * MIN)).toBe(first)
    expect(sessions.assign('a', 100 * MIN)).toBe(second)
    expect(sessions.assign('a', 60 * MIN)).not.toBe(first)
  })

  it('counts the 30 minutes as live tracking does: 29:59 and 30:00 join, 30:01 starts a new session', () => {
    const SEC = 1000
    for (const [gap, joins] of [
      [29 * MIN + 59 * SEC, true],
      [30 * MIN, true],
      [30 * MIN + 1, false],
      [30 * MIN + 1 * SEC, false],
    ] as const) {
      const sessions = createImportSessions()
      const first = sessions.assign('a', 1_000 * MIN)
      expect({ gap, joins: sessions.assign('a', 1_000 * MIN + gap) === first }).toEqual({ gap, joins })
      // An event that arrives late, the same gap before the session's start.
      const before = createImportSessions()
      const late = before.assign('a', 1_000 * MIN)
      expect({ gap, joins: before.assign('a', 1_000 * MIN - gap) === late }).toEqual({ gap, joins })
    }
  })
})
