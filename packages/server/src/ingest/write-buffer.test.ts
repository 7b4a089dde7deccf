import { describe, expect, it } from 'vitest'
import { eventRow } from '../storage/events/event-row.fixture.js'
import type { EventRow } from '../storage/events/event-row.js'
import { createWriteBuffer } from './write-buffer.js'

/** A store stand-in that records batches; an in-memory array is the point of this unit test. */
function recordingInsert(options: { fail?: boolean; delayMs?: number } = {}) {
  const batches: EventRow[][] = []
  const insert = async (rows: readonly EventRow[]) => {
    await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 1))
    if (options.fail) throw new Error('store down')
    batches.push([...rows])
  }
  return { batches, insert }
}

describe('createWriteBuffer (group commit)', () => {
  it('resolves each add only after the batch holding its row is written', async () => {
    const { batches, insert } = recordingInsert({ delayMs: 5 })
    const buffer = createWriteBuffer(insert, { maxRows: 1000, maxDelayMs: 5 })
    let resolved = 0
    const adds = Array.from({ length: 10 }, (_, i) =>
      buffer.add(eventRow({ pathname: `/${i}` })).then(() => resolved++),
    )
    expect(resolved).toBe(0)
    await Promise.all(adds)
    expect(batches.flat()).toHaveLength(10)
    expect(batches).toHaveLength(1)
    expect(buffer.stats()).toEqual({ acknowledgedRows: 10, committedRows: 10, batches: 1, pendingRows: 0 })
  })

  it('flushes at maxRows without waiting for the delay, and batches rows that arrive during a write', async () => {
    const { batches, insert } = recordingInsert({ delayMs: 20 })
    const buffer = createWriteBuffer(insert, { maxRows: 3, maxDelayMs: 10_000, maxConcurrentWrites: 1 })
    const first = Array.from({ length: 3 }, () => buffer.add(eventRow()))
    const during = Array.from({ length: 5 }, () => buffer.add(eventRow()))
    await Promise.all([...first, ...during])
    expect(batches.map((b) => b.length)).toEqual([3, 5])
  })

  it('runs up to maxConcurrentWrites inserts at once', async () => {
    let inFlight = 0
    let peak = 0
    const insert = async () => {
      inFlight++
      peak = Math.max(peak, inFlight)
      await new Promise((resolve) => setTimeout(resolve, 10))
      inFlight--
    }
    const buffer = createWriteBuffer(insert, { maxRows: 2, maxDelayMs: 10_000, maxConcurrentWrites: 3 })
    await Promise.all(Array.from({ length: 20 }, () => buffer.add(eventRow())))
    expect(peak).toBe(3)
  })

  it('rejects every add of a failed batch, and recovers for the next one', async () => {
    const failing = recordingInsert({ fail: true })
    const buffer = createWriteBuffer(failing.insert, { maxRows: 100, maxDelayMs: 1 })
    const results = await Promise.allSettled([buffer.add(eventRow()), buffer.add(eventRow())])
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(buffer.stats().committedRows).toBe(0)
  })

  it('reports the age of the oldest uncommitted row, in flight included; 0 once committed', async () => {
    const { insert } = recordingInsert({ delayMs: 20 })
    const buffer = createWriteBuffer(insert, { maxRows: 1, maxDelayMs: 60_000 })
    expect(buffer.oldestPendingAgeMs()).toBe(0)
    const pending = buffer.add(eventRow())
    expect(buffer.stats().pendingRows).toBe(0) // already in flight (maxRows 1)
    const inFlight = buffer.oldestPendingAgeMs()
    expect(inFlight).toBeGreaterThanOrEqual(0)
    await new Promise((resolve) => setImmediate(resolve))
    expect(buffer.oldestPendingAgeMs()).toBeGreaterThan(inFlight)
    await pending
    expect(buffer.oldestPendingAgeMs()).toBe(0)
  })

  it('says whether the last insert failed with none succeeding since', async () => {
    let refuse = true
    const buffer = createWriteBuffer(
      async () => {
        if (refuse) throw new Error('events store unavailable')
      },
      { maxRows: 1, maxDelayMs: 60_000 },
    )
    expect(buffer.lastInsertFailed()).toBe(false)
    await expect(buffer.add(eventRow())).rejects.toThrow('events store unavailable')
    expect(buffer.lastInsertFailed()).toBe(true)
    refuse = false
    await buffer.add(eventRow())
    expect(buffer.lastInsertFailed()).toBe(false)
  })

  it('flush() writes what is pending immediately', async () => {
    const { batches, insert } = recordingInsert()
    const buffer = createWriteBuffer(insert, { maxRows: 1000, maxDelayMs: 60_000 })
    const pending = buffer.add(eventRow())
    await buffer.flush()
    await pending
    expect(batches.flat()).toHaveLength(1)
  })
})
