/**
 * The journaled write buffer and crash recovery on a real journal directory and real chDB.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeEventRow } from '../storage/events/encode-event-row.js'
import { eventRow } from '../storage/events/event-row.fixture.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { openTestEventsStore } from '../testing/test-events-store.js'
import { openJournal, readLeftoverSegments } from './journal.js'
import { createJournaledWriteBuffer } from './journaled-write-buffer.js'
import { recoverJournal } from './recover-journal.js'

let events: EventsStore
let root: string
let nextSite = 1
beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-journal-'))
  events = await openTestEventsStore(path.join(root, 'events'))
})
afterAll(async () => {
  await events.close()
  fs.rmSync(root, { recursive: true, force: true })
})

const count = async (site: number) =>
  Number(
    (
      await events.query<{ c: number }>('SELECT count() AS c FROM events WHERE site_id = {s:UInt32}', {
        s: site,
      })
    )[0]?.c,
  )

describe('journaled write buffer', () => {
  it('acknowledges once journaled, then commits to the store and deletes the segment', async () => {
    const site = nextSite++
    const dir = path.join(root, `j${site}`)
    const buffer = createJournaledWriteBuffer(
      await openJournal(dir),
      (lines) => events.insertEncoded(lines),
      {
        maxRows: 1000,
        maxDelayMs: 60_000,
      },
    )
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => buffer.add(eventRow({ site_id: site, pathname: `/${i}` }))),
    )
    expect(buffer.stats()).toMatchObject({ acknowledgedRows: 100, committedRows: 0, pendingRows: 100 })
    expect(readLeftoverSegments(dir).flatMap((s) => s.rows)).toHaveLength(100)
    expect(await count(site)).toBe(0)
    await buffer.flush()
    expect(await count(site)).toBe(100)
    expect(buffer.stats()).toMatchObject({ committedRows: 100, pendingRows: 0 })
    await buffer.close()
    expect(readLeftoverSegments(dir)).toEqual([])
  })

  it('inserts on its own at maxRows and on the timer', async () => {
    const site = nextSite++
    const buffer = createJournaledWriteBuffer(
      await openJournal(path.join(root, `j${site}`)),
      (lines) => events.insertEncoded(lines),
      { maxRows: 10, maxDelayMs: 20 },
    )
    await Promise.all(Array.from({ length: 25 }, () => buffer.add(eventRow({ site_id: site }))))
    await expect.poll(() => count(site)).toBe(25)
    await buffer.close()
  })

  it('keeps rows whose insert failed and commits them on a later try, once', async () => {
    const site = nextSite++
    let failures = 1
    const insert = async (lines: readonly string[]) => {
      if (failures-- > 0) throw new Error('events store unavailable')
      await events.insertEncoded(lines)
    }
    const buffer = createJournaledWriteBuffer(await openJournal(path.join(root, `j${site}`)), insert, {
      maxRows: 1000,
      maxDelayMs: 60_000,
    })
    await Promise.all(Array.from({ length: 5 }, () => buffer.add(eventRow({ site_id: site }))))
    expect(buffer.lastInsertFailed()).toBe(false)
    await expect(buffer.flush()).rejects.toThrow('events store unavailable')
    expect(buffer.lastInsertFailed()).toBe(true)
    await buffer.flush()
    expect(buffer.lastInsertFailed()).toBe(false)
    expect(await count(site)).toBe(5)
    await buffer.close()
  })

  it('reports the age of the oldest uncommitted row, growing while inserts fail, 0 once committed', async () => {
    const site = nextSite++
    let failures = 1
    const insert = async (lines: readonly string[]) => {
      if (failures-- > 0) throw new Error('events store unavailable')
      await events.insertEncoded(lines)
    }
    const buffer = createJournaledWriteBuffer(await openJournal(path.join(root, `j${site}`)), insert, {
      maxRows: 1000,
      maxDelayMs: 60_000,
    })
    expect(buffer.oldestPendingAgeMs()).toBe(0)
    await Promise.all(Array.from({ length: 3 }, () => buffer.add(eventRow({ site_id: site }))))
    const journaled = buffer.oldestPendingAgeMs()
    expect(journaled).toBeGreaterThan(0)
    await expect(buffer.flush()).rejects.toThrow('events store unavailable')
    expect(buffer.oldestPendingAgeMs()).toBeGreaterThan(journaled)
    await buffer.flush()
    expect(buffer.oldestPendingAgeMs()).toBe(0)
    await buffer.close()
  })

  it('refuses new rows with a clear error when the backlog is full', async () => {
    const site = nextSite++
    const buffer = createJournaledWriteBuffer(
      await openJournal(path.join(root, `j${site}`)),
      (lines) => events.insertEncoded(lines),
      { maxRows: 1000, maxDelayMs: 60_000, maxPendingRows: 3 },
    )
    await Promise.all(Array.from({ length: 3 }, () => buffer.add(eventRow({ site_id: site }))))
    await expect(buffer.add(eventRow({ site_id: site }))).rejects.toThrow('ingest backlog is full')
    await buffer.flush()
    await buffer.close()
  })
})

describe('recoverJournal', () => {
  it('inserts what leftover segments hold and the store lacks, skips torn lines, deletes the segments', async () => {
    const site = nextSite++
    const dir = path.join(root, `j${site}`)
    const rows = Array.from({ length: 50 }, (_, i) => eventRow({ site_id: site, pathname: `/${i}` }))
    const journal = await openJournal(dir)
    await journal.append(rows.slice(0, 30).map(encodeEventRow))
    await journal.rotate()
    await journal.append(rows.slice(30).map(encodeEventRow))
    // A crash: the first 10 rows reached the store, the process died before deleting anything.
    await events.insert(rows.slice(0, 10))
    fs.appendFileSync(readLeftoverSegments(dir).at(-1)?.path ?? '', '{"event_id":"torn')
    const report = await recoverJournal(dir, events)
    expect(report).toEqual({
      segments: 2,
      rows: 50,
      inserted: 40,
      alreadyStored: 10,
      tornLines: 1,
      deletedSites: 0,
    })
    expect(await count(site)).toBe(50)
    const ids = await events.query<{ n: number }>(
      'SELECT uniqExact(event_id) AS n FROM events WHERE site_id = {s:UInt32}',
      { s: site },
    )
    expect(ids[0]?.n).toBe(50)
    expect(readLeftoverSegments(dir)).toEqual([])
  })
})

describe('recoverJournal and journals of earlier versions', () => {
  it('inserts the object lines (one JSON object per row) that segments held before rows were encoded once', async () => {
    const site = nextSite++
    const dir = path.join(root, `j${site}`)
    fs.mkdirSync(dir, { recursive: true })
    const rows = Array.from({ length: 4 }, (_, i) => eventRow({ site_id: site, pathname: `/old/${i}` }))
    fs.writeFileSync(
      path.join(dir, '0000000001.jsonl'),
      rows.map((row) => `${JSON.stringify(row)}\n`).join(''),
    )
    const report = await recoverJournal(dir, events)
    expect(report).toMatchObject({ segments: 1, rows: 4, inserted: 4, tornLines: 0 })
    const stored = await events.query<{ pathname: string }>(
      'SELECT pathname FROM events WHERE site_id = {s:UInt32} ORDER BY pathname',
      { s: site },
    )
    expect(stored.map((row) => row.pathname)).toEqual(rows.map((row) => row.pathname))
  })
})

describe('recoverJournal and deleted sites', () => {
  it('drops the rows of sites that no longer exist', async () => {
    const kept = nextSite++
    const deleted = nextSite++
    const dir = path.join(root, `j${kept}-${deleted}`)
    const journal = await openJournal(dir)
    await journal.append(
      [eventRow({ site_id: kept }), eventRow({ site_id: deleted }), eventRow({ site_id: kept })].map(
        encodeEventRow,
      ),
    )
    const report = await recoverJournal(dir, events, { existingSites: async () => new Set([kept]) })
    expect(report).toMatchObject({ rows: 3, inserted: 2, deletedSites: 1 })
    expect(await count(kept)).toBe(2)
    expect(await count(deleted)).toBe(0)
  })
})
