import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { IDS_PER_QUERY, storedEventIds } from '../../query/stored-event-ids.js'
import { type ClickHouseServer, startClickHouseServer } from '../../testing/clickhouse-server.js'
import { openTestEventsStore } from '../../testing/test-events-store.js'
import { CLICKHOUSE_SERVER_ENV, TEST_EVENTS_ENV } from '../../testing/test-run-env.js'
import { MAX_URL_PARAM_BYTES, paramsForUrl } from './clickhouse-store.js'
import { eventRow } from './event-row.fixture.js'
import { eventsStoreContract } from './events-store.contract.js'
import type { EventsStore } from './events-store.js'

// The server pass's server, or one of this file's own in the chDB pass: this file tests the server
// adapter, so it runs on a server in both.
let own: ClickHouseServer | undefined
beforeAll(async () => {
  if (process.env[CLICKHOUSE_SERVER_ENV]) return
  own = await startClickHouseServer()
  process.env[CLICKHOUSE_SERVER_ENV] = own.url
  process.env[TEST_EVENTS_ENV] = 'clickhouse-server'
})
afterAll(async () => {
  if (!own) return
  delete process.env[CLICKHOUSE_SERVER_ENV]
  delete process.env[TEST_EVENTS_ENV]
  await own.stop()
})

eventsStoreContract('ClickHouse server', () => openTestEventsStore(''))

describe('ClickHouse server adapter', () => {
  let store: EventsStore
  const site = 2_000_000 + Math.floor(Math.random() * 1_000_000)
  beforeAll(async () => {
    store = await openTestEventsStore('')
  })
  afterAll(async () => {
    await store?.close()
  })

  it("finds journal recovery's stored ids, a whole query's worth (too big for a URL parameter)", async () => {
    const rows = Array.from({ length: IDS_PER_QUERY + 10 }, (_, i) =>
      eventRow({
        site_id: site,
        pathname: `/r${i}`,
        timestamp: `2026-11-22T10:${String(i % 60).padStart(2, '0')}:00.000Z`,
      }),
    )
    const stored = rows.filter((_, i) => i % 3 !== 0)
    await store.insert(stored)
    const found = await storedEventIds(store, rows)
    const expected = new Set(stored.map((row) => row.event_id))
    expect(found.size).toBe(expected.size)
    for (const id of found) expect(expected.has(id)).toBe(true)
  })

  it('binds a parameter of any size as data, in queries and statements', async () => {
    const hostile = `x' OR 1=1 -- \\' {p:String} \0 ${'é😀"'.repeat(8000)}`
    const row = eventRow({ site_id: site, pathname: hostile })
    await store.insert([row, eventRow({ site_id: site, pathname: '/other' })])
    const count = (p: string) =>
      store.query<{ n: number }>(
        'SELECT count() AS n FROM events WHERE site_id = {site:UInt32} AND pathname = {p:String}',
        { site, p },
      )
    expect(await count(hostile)).toEqual([{ n: 1 }])
    await store.command('DELETE FROM events WHERE site_id = {site:UInt32} AND pathname = {p:String}', {
      site,
      p: hostile,
    })
    expect(await count(hostile)).toEqual([{ n: 0 }])
    expect(await count('/other')).toEqual([{ n: 1 }])
  })

  it('throws a failed request to the caller and prints nothing of it on the console', async () => {
    const printed = [
      vi.spyOn(console, 'error'),
      vi.spyOn(console, 'warn'),
      vi.spyOn(console, 'info'),
      vi.spyOn(console, 'debug'),
    ]
    try {
      await expect(store.query('SELECT nonsense(')).rejects.toThrow(/Syntax error/)
      await expect(
        store.insert([{ ...eventRow({ site_id: site }), event_id: 'not-a-uuid' }]),
      ).rejects.toThrow(/UUID/)
      for (const spy of printed) expect(spy).not.toHaveBeenCalled()
    } finally {
      for (const spy of printed) spy.mockRestore()
    }
  })

  it('returns 64-bit integers as numbers', async () => {
    const [row] = await store.query<Record<string, unknown>>(
      'SELECT toUInt64(9007199254740991) AS big, toInt64(-5) AS negative, count() AS n FROM numbers(3)',
    )
    expect(row).toEqual({ big: 9007199254740991, negative: -5, n: 3 })
  })

  it('stops a read query at the time bound and answers the next', async () => {
    const timed = await openTestEventsStore('', { queryTimeoutSeconds: 1 })
    try {
      const started = performance.now()
      await expect(
        timed.query('SELECT count() AS n FROM numbers(100000000000) WHERE sipHash64(number) = 1'),
      ).rejects.toThrow(/TIMEOUT_EXCEEDED|Timeout exceeded/)
      expect(performance.now() - started).toBeLessThan(20_000)
      expect(await timed.query<{ i: number }>('SELECT {i:UInt8} AS i', { i: 4 })).toEqual([{ i: 4 }])
    } finally {
      await timed.close()
    }
  })
})

describe('paramsForUrl', () => {
  it('keeps small parameters bound, in the URL', () => {
    const params = { site: 7, path: "/it's" }
    expect(paramsForUrl('SELECT {site:UInt32}, {path:String}', params)).toEqual({
      sql: 'SELECT {site:UInt32}, {path:String}',
      params,
    })
  })

  it('writes parameters too big for a URL into the SQL as typed literals', () => {
    const ids = Array.from({ length: 200 }, () => crypto.randomUUID())
    expect(encodeURIComponent(JSON.stringify(ids)).length).toBeGreaterThan(MAX_URL_PARAM_BYTES)
    const { sql, params } = paramsForUrl('SELECT {site:UInt32} AS s WHERE x IN {ids:Array(UUID)}', {
      site: 7,
      ids,
    })
    expect(params).toEqual({})
    expect(sql).toBe(
      `SELECT CAST(7 AS UInt32) AS s WHERE x IN CAST([${ids.map((id) => `'${id}'`).join(', ')}] AS Array(UUID))`,
    )
  })
})
