import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestEventsStore, testEventsOnServer } from '../../testing/test-events-store.js'
import { eventRow } from './event-row.fixture.js'
import type { EventsStore } from './events-store.js'
import { timeEventsStore } from './timed-events-store.js'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-timed-'))
const inserts: { seconds: number; rows: number }[] = []
const queries: { label: string; seconds: number }[] = []
let store: EventsStore

beforeAll(async () => {
  store = timeEventsStore(await openTestEventsStore(dir), {
    insert: (seconds, rows) => inserts.push({ seconds, rows }),
    query: (label, seconds) => queries.push({ label, seconds }),
  })
})
afterAll(async () => {
  await store.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('timeEventsStore', () => {
  it('times each insert, forwarding the rows', async () => {
    await store.insert([eventRow({ site_id: 42 }), eventRow({ site_id: 42 })])
    expect(inserts).toEqual([{ seconds: expect.any(Number), rows: 2 }])
    expect(inserts[0]?.seconds).toBeGreaterThan(0)
    const [row] = await store.query<{ c: number }>(
      'SELECT count() AS c FROM events WHERE site_id = {s:UInt32}',
      {
        s: 42,
      },
    )
    expect(row?.c).toBe(2)
  })

  it('times labelled queries only, failed ones included, and passes errors through', async () => {
    queries.length = 0
    expect(await store.query<{ one: number }>('SELECT 1 AS one', {}, { label: 'overview' })).toEqual([
      { one: 1 },
    ])
    await store.query('SELECT 1')
    await expect(store.query('SELECT nonsense(', {}, { label: 'breakdown' })).rejects.toThrow()
    expect(queries.map((q) => q.label)).toEqual(['overview', 'breakdown'])
    expect(store.kind).toBe(testEventsOnServer() ? 'clickhouse' : 'chdb')
  })
})
