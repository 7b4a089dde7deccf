/**
 * The event list's cursor paging on real chDB: 10,000 events, many sharing a millisecond, each
 * returned exactly once, newest first, with type and name filters and a pinned SQL.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventRow } from '../storage/events/event-row.fixture.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { copyEventsTemplate } from '../testing/events-template.js'
import { openTestEventsStore } from '../testing/test-events-store.js'
import { compileEventList, decodeCursor, encodeCursor, queryEventList } from './event-list.js'
import { parseQueryParams } from './params.js'

let events: EventsStore
let dir: string
const site = 7
const start = Date.parse('2026-05-01T00:00:00.000Z')
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-event-list-'))
  copyEventsTemplate(dir)
  events = await openTestEventsStore(dir)
  const rows = Array.from({ length: 10_000 }, (_, i) =>
    eventRow({
      site_id: site,
      // 2,500 distinct instants, four events each: the cursor must break ties on event_id.
      timestamp: new Date(start + Math.floor(i / 4) * 1000).toISOString(),
      type: i % 10 === 0 ? 'custom_event' : 'pageview',
      event_name: i % 10 === 0 ? (i % 20 === 0 ? 'signup' : 'click') : '',
      pathname: `/p${i % 7}`,
    }),
  )
  for (let i = 0; i < rows.length; i += 2500) await events.insert(rows.slice(i, i + 2500))
})
afterAll(async () => {
  await events.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const params = (query: Record<string, string> = {}) =>
  parseQueryParams({ start_date: '2026-05-01', end_date: '2026-05-02', ...query }, start)

describe('event list', () => {
  it('pages through 10,000 events with a cursor: each exactly once, newest first', async () => {
    const seen: string[] = []
    let cursor: string | undefined
    let previous = Number.POSITIVE_INFINITY
    do {
      const page = await queryEventList(events, { siteId: site, params: params() }, { limit: 333, cursor })
      for (const event of page.data) {
        const at = Date.parse(event.timestamp)
        expect(at).toBeLessThanOrEqual(previous)
        previous = at
        seen.push(event.eventId)
      }
      cursor = page.nextCursor ?? undefined
    } while (cursor)
    expect(seen).toHaveLength(10_000)
    expect(new Set(seen).size).toBe(10_000)
  })

  it('filters by type and event name', async () => {
    const signups = await queryEventList(
      events,
      { siteId: site, params: params() },
      { types: ['custom_event'], eventName: 'signup', limit: 1000 },
    )
    expect(signups.data).toHaveLength(500)
    expect(signups.nextCursor).toBeNull()
    const filtered = await queryEventList(
      events,
      {
        siteId: site,
        params: params({
          filters: JSON.stringify([{ parameter: 'pathname', type: 'equals', value: ['/p0'] }]),
        }),
      },
      { types: ['custom_event'], limit: 1000 },
    )
    expect(filtered.data.every((e) => e.pathname === '/p0' && e.type === 'custom_event')).toBe(true)
    expect(filtered.data).toHaveLength(143)
  })

  it('pins its SQL with every value bound', () => {
    const cursor = encodeCursor({
      timestamp: '2026-05-01 00:10:00.000',
      eventId: '00000000-0000-4000-8000-000000000000',
    })
    const compiled = compileEventList(
      { siteId: site, params: params() },
      { types: ['pageview'], cursor, limit: 50 },
    )
    expect(compiled.sql).toContain(
      "(timestamp, toString(event_id)) < ({cursor_ts:DateTime64(3, 'UTC')}, {cursor_id:String})",
    )
    expect(compiled.sql).toContain('ORDER BY timestamp DESC, toString(event_id) DESC')
    expect(compiled.params).toMatchObject({
      site,
      limit: 51,
      types: ['pageview'],
      cursor_ts: '2026-05-01 00:10:00.000',
      cursor_id: '00000000-0000-4000-8000-000000000000',
    })
  })

  it('rejects a cursor it did not issue', () => {
    expect(() => decodeCursor('bm90IGEgY3Vyc29y')).toThrow(/cursor/)
  })
})
