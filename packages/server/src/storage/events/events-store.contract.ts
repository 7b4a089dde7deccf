/**
 * The events store contract: the store must pass these tests on each connection (`chdb-store.test.ts`;
 * `clickhouse-store.test.ts` when CLICKHOUSE_URL names a server).
 */
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventRow } from './event-row.fixture.js'
import type { EventsStore } from './events-store.js'
import { migrateEvents } from './migrations/index.js'

export function eventsStoreContract(name: string, open: () => Promise<EventsStore>) {
  describe(`events store contract: ${name}`, () => {
    let store: EventsStore
    // A site id per run, so a shared ClickHouse server never mixes runs.
    const site = 1_000_000 + Math.floor(Math.random() * 1_000_000)

    beforeAll(async () => {
      store = await open()
    })
    afterAll(async () => {
      await store.command('ALTER TABLE events DELETE WHERE site_id = {site:UInt32}', { site })
      await store.command('DELETE FROM replay WHERE site_id = {site:UInt32}', { site })
      await store.close()
    })

    it('migrations are idempotent', async () => {
      await migrateEvents(store)
      const applied = await store.query<{ name: string }>(
        'SELECT name FROM pathlight_migrations ORDER BY name',
      )
      expect(applied.map((r) => r.name)).toEqual([
        '001-events',
        '002-replay',
        '003-rollups',
        '004-session-dimension-hours',
        '005-session-summaries',
        '006-page-days',
        '007-referrer-domain-days',
        '008-event-order',
        '009-event-properties',
        '010-session-page-times',
        '011-pathname-months',
        '012-replay-json-bytes',
        '013-property-map-canonical',
        '014-ai-traffic',
        '015-engagement-columns',
        '016-imported-days',
        '017-heatmap-click-columns',
        '018-session-first-visit',
      ])
    })

    it('reads back an inserted row with every column and millisecond timestamps', async () => {
      const row = eventRow({
        site_id: site,
        type: 'performance',
        lcp: 1234.5,
        cls: 0.05,
        inp: null,
        properties: '{"a":1}',
        pathname: '/it\'s "quoted"',
      })
      await store.insert([row])
      const [back] = await store.query<Record<string, unknown>>(
        `SELECT *, formatDateTime(timestamp, '%Y-%m-%dT%H:%i:%S.%fZ') AS ts
         FROM events WHERE site_id = {site:UInt32} AND event_id = {id:UUID}`,
        { site, id: row.event_id },
      )
      expect(back).toMatchObject({
        site_id: site,
        type: 'performance',
        pathname: '/it\'s "quoted"',
        lcp: 1234.5,
        cls: 0.05,
        inp: null,
        country: 'US',
        screen_width: 1920,
        properties: '{"a":1}',
      })
      expect(String(back?.ts)).toMatch(/^2026-11-22T10:00:00\.123/)
    })

    it('stores a replay batch byte for byte (gzip bytes are not text) and its expiry', async () => {
      const payload = zlib.gzipSync(JSON.stringify({ events: [{ timestamp: 1 }] }))
      await store.insertReplay([
        {
          site_id: site,
          session_id: 'contract-session',
          sequence: 3,
          timestamp: '2026-11-22T10:00:00.123Z',
          received_at: '2026-11-22T10:00:01.000Z',
          expires_at: '2036-11-22T10:00:01.000Z',
          bytes: payload.length,
          encoding: 'gzip',
          payload,
        },
      ])
      const [back] = await store.query<Record<string, unknown>>(
        `SELECT sequence, timestamp, expires_at, bytes, encoding, base64Encode(payload) AS payload
         FROM replay WHERE site_id = {site:UInt32} AND session_id = {session:String}`,
        { site, session: 'contract-session' },
      )
      expect(back).toEqual({
        sequence: 3,
        timestamp: '2026-11-22 10:00:00.123',
        expires_at: '2036-11-22 10:00:01',
        bytes: payload.length,
        encoding: 'gzip',
        payload: payload.toString('base64'),
      })
    })

    it('binds parameters: a hostile value is data, not SQL', async () => {
      const rows = await store.query<{ c: number }>(
        'SELECT count() AS c FROM events WHERE site_id = {site:UInt32} AND pathname = {p:String}',
        { site, p: "x' OR 1=1 --" },
      )
      expect(rows).toEqual([{ c: 0 }])
    })

    it('aggregates many rows; UInt64 counts come back as numbers', async () => {
      const rows = Array.from({ length: 500 }, (_, i) =>
        eventRow({ site_id: site, session_id: `s${i % 50}`, user_id: `u${i % 20}`, pathname: `/p${i % 5}` }),
      )
      await store.insert(rows)
      const result = await store.query<{ pathname: string; pageviews: number; visitors: number }>(
        `SELECT pathname, count() AS pageviews, uniqExact(user_id) AS visitors FROM events
         WHERE site_id = {site:UInt32} AND type = 'pageview' AND pathname LIKE '/p%'
         GROUP BY pathname ORDER BY pathname`,
        { site },
      )
      expect(result).toHaveLength(5)
      expect(result[0]).toEqual({ pathname: '/p0', pageviews: 100, visitors: 4 })
    })

    it('stores strings with lone UTF-16 surrogates (U+FFFD in their place) with the rest of the batch', async () => {
      const odd = eventRow({
        site_id: site,
        pathname: '/a\uD800b',
        page_title: '\uDC00',
        referrer: '😀\uD83D',
      })
      const plain = eventRow({ site_id: site, pathname: '/plain-beside-odd' })
      await store.insert([odd, plain])
      const back = await store.query<{ pathname: string; page_title: string; referrer: string }>(
        `SELECT pathname, page_title, referrer FROM events
         WHERE site_id = {site:UInt32} AND event_id IN ({odd:UUID}, {plain:UUID}) ORDER BY pathname`,
        { site, odd: odd.event_id, plain: plain.event_id },
      )
      expect(back.map((row) => row.pathname)).toEqual(['/a\uFFFDb', '/plain-beside-odd'])
      expect(back[0]).toMatchObject({ page_title: '\uFFFD', referrer: '😀\uFFFD' })
    })

    it('rejects an insert that does not fit the schema', async () => {
      const bad = { ...eventRow({ site_id: site }), event_id: 'not-a-uuid' }
      await expect(store.insert([bad])).rejects.toThrow()
    })
  })
}
