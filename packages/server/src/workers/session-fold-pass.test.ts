/** The fold pass on real chDB and real Redis: one process at a time, under the lock; the pass after an import. */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventRow } from '../storage/events/event-row.fixture.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { rollupBacklog } from '../storage/events/rollup-backlog.js'
import { copyEventsTemplate } from '../testing/events-template.js'
import { openTestEventsStore } from '../testing/test-events-store.js'
import { foldAfterImport, SESSION_FOLD_LOCK, sessionFoldPass } from './session-fold-pass.js'

const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', {
  keyPrefix: `test:fold:${process.pid}:${Date.now()}:`,
  lazyConnect: true,
})
let dir: string
let events: EventsStore

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-fold-pass-'))
  copyEventsTemplate(dir)
  events = await openTestEventsStore(dir)
  const at = Date.parse('2026-03-02T10:00:00Z')
  await events.insert(
    [0, 1, 2].map((i) =>
      eventRow({ site_id: 5, session_id: `s-${i}`, timestamp: new Date(at + i * 3_600_000).toISOString() }),
    ),
  )
})

afterAll(async () => {
  await redis.quit()
  await events?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const summaries = async () =>
  Number((await events.query<{ n: number }>('SELECT count() AS n FROM session_summaries'))[0]?.n)

describe('sessionFoldPass', () => {
  it('skips while another process holds the lock, then folds and releases it', async () => {
    const pass = sessionFoldPass(events, redis, { settleMs: 0 })
    await redis.set(SESSION_FOLD_LOCK, 'another process', 'PX', 60_000)
    expect(await pass()).toBeNull()
    expect(await summaries()).toBe(0)
    // Three closed hours and their month wait for a pass.
    expect(await rollupBacklog(events)).toEqual({ hoursToFold: 3, monthsToSeal: 1 })
    // The lock is someone else's: the pass left it.
    expect(await redis.get(SESSION_FOLD_LOCK)).toBe('another process')
    await redis.del(SESSION_FOLD_LOCK)
    // March is closed: its pages' month is sealed too.
    expect(await pass()).toEqual({ hours: 3, parts: 1, sealedMonths: 1 })
    expect(await summaries()).toBe(3)
    expect(
      Number((await events.query<{ n: number }>('SELECT count() AS n FROM page_months'))[0]?.n),
    ).toBeGreaterThan(0)
    expect(await redis.get(SESSION_FOLD_LOCK)).toBeNull()
    // Nothing pending: the next pass folds and seals nothing.
    expect(await pass()).toEqual({ hours: 0, parts: 0, sealedMonths: 0 })
    expect(await rollupBacklog(events)).toEqual({ hoursToFold: 0, monthsToSeal: 0 })
  })

  it('folds without Redis, leaving hours inserted less than 5 minutes ago by default', async () => {
    await events.insert([
      eventRow({ site_id: 5, session_id: 's-late', timestamp: '2026-03-03T10:00:00.000Z' }),
    ])
    expect(await sessionFoldPass(events)()).toEqual({ hours: 0, parts: 0, sealedMonths: 0 })
    // Behind from the insert on, though a pass waits for the hour to settle.
    expect(await rollupBacklog(events)).toEqual({ hoursToFold: 1, monthsToSeal: 1 })
    expect(await sessionFoldPass(events, undefined, { settleMs: 0 })()).toEqual({
      hours: 1,
      parts: 1,
      sealedMonths: 1,
    })
    expect(await summaries()).toBe(4)
  })
  it('queues two passes of one process: the second finds the sessions folded and the month sealed', async () => {
    await events.insert([
      eventRow({ site_id: 5, session_id: 's-twice', timestamp: '2026-03-04T10:00:00.000Z' }),
    ])
    const pass = sessionFoldPass(events, undefined, { settleMs: 0 })
    expect(await Promise.all([pass(), pass()])).toEqual([
      { hours: 1, parts: 1, sealedMonths: 1 },
      { hours: 0, parts: 0, sealedMonths: 0 },
    ])
    expect(await summaries()).toBe(5)
  })
})

describe('foldAfterImport', () => {
  it('folds at once with no settling time, waiting while another process holds the lock', async () => {
    await events.insert([
      eventRow({ site_id: 5, session_id: 's-imported', timestamp: '2026-03-05T10:00:00.000Z' }),
    ])
    await redis.set(SESSION_FOLD_LOCK, 'another process', 'PX', 60_000)
    const started = Date.now()
    const folded = foldAfterImport(events, redis)
    setTimeout(() => void redis.del(SESSION_FOLD_LOCK), 1500)
    expect(await folded).toEqual({ hours: 1, parts: 1, sealedMonths: 1 })
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500)
    expect(await rollupBacklog(events)).toEqual({ hoursToFold: 0, monthsToSeal: 0 })
    expect(await summaries()).toBe(6)
  })

  it('gives up after its wait when the lock stays taken, leaving the hours to the periodic pass', async () => {
    await events.insert([
      eventRow({ site_id: 5, session_id: 's-left', timestamp: '2026-03-06T10:00:00.000Z' }),
    ])
    await redis.set(SESSION_FOLD_LOCK, 'another process', 'PX', 60_000)
    expect(await foldAfterImport(events, redis, 1200)).toBeNull()
    expect(await rollupBacklog(events)).toEqual({ hoursToFold: 1, monthsToSeal: 1 })
    await redis.del(SESSION_FOLD_LOCK)
  })
})
