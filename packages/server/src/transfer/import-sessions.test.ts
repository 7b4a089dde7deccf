import { describe, expect, it } from 'vitest'
import { createImportSessions } from './import-sessions.js'

const MIN = 60_000

describe('createImportSessions', () => {
  it('ends a session after 30 minutes without an event, per visitor', () => {
    const sessions = createImportSessions()
    const a1 = sessions.assign('a', 0)
    expect(sessions.assign('a', 29 * MIN)).toBe(a1)
    expect(sessions.assign('a', 58 * MIN)).toBe(a1)
    const a2 = sessions.assign('a', 88 * MIN)
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

  it('counts the 30 minutes as live tracking does: at 30 minutes sharp a new session starts', () => {
    const sessions = createImportSessions()
    const first = sessions.assign('a', 0)
    expect(sessions.assign('a', 30 * MIN)).not.toBe(first)
  })
})
