import { describe, expect, it } from 'vitest'
import { createImportEventIds } from './import-event-ids.js'

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('createImportEventIds', () => {
  it('gives UUIDv7 ids that sort by time, then by line within a millisecond', () => {
    const next = createImportEventIds()
    const at = Date.parse('2026-03-02T10:00:00.000Z')
    // Lines out of time order, many on one millisecond, and enough lines to carry past every field.
    const times = Array.from({ length: 70_000 }, (_, i) => at + (i % 7 === 0 ? 1 : 0))
    const ids = times.map((time) => next(time))
    expect(ids.filter((id) => !UUID_V7.test(id))).toEqual([])
    expect(ids[1]?.slice(0, 13)).toBe(
      `${at.toString(16).padStart(12, '0').slice(0, 8)}-${at.toString(16).slice(-4)}`,
    )
    const order = ids.map((id, line) => ({ id, line, time: times[line] as number }))
    const byTextOrder = [...order].sort((a, b) => (a.id < b.id ? -1 : 1))
    const byTimeThenLine = [...order].sort((a, b) => a.time - b.time || a.line - b.line)
    expect(byTextOrder.map((o) => o.line)).toEqual(byTimeThenLine.map((o) => o.line))
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('clamps times a UUIDv7 cannot hold', () => {
    const next = createImportEventIds()
    expect(next(-5)).toMatch(/^00000000-0000-7/)
    expect(next(2 ** 50)).toMatch(/^ffffffff-ffff-7/)
  })
})
