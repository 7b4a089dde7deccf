import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { isReplaySampled } from './is-replay-sampled.js'

describe('isReplaySampled', () => {
  it('records every session at 1 and none at 0', () => {
    expect(isReplaySampled('a', 1)).toBe(true)
    expect(isReplaySampled('a', 0)).toBe(false)
  })

  it('answers the same for a session every time, and keeps it when the rate rises', () => {
    const ids = Array.from({ length: 200 }, () => crypto.randomUUID())
    const at30 = ids.filter((id) => isReplaySampled(id, 0.3))
    expect(ids.filter((id) => isReplaySampled(id, 0.3))).toEqual(at30)
    for (const id of at30) expect(isReplaySampled(id, 0.6)).toBe(true)
  })

  it('records about the rate of sessions', () => {
    const ids = Array.from({ length: 4000 }, () => crypto.randomUUID())
    const share = ids.filter((id) => isReplaySampled(id, 0.25)).length / ids.length
    expect(share).toBeGreaterThan(0.2)
    expect(share).toBeLessThan(0.3)
  })
})
