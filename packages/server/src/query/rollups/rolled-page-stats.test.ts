/**
 * The v1 pages report from the rollups against the raw query on the same events (real chDB): before
 * the sessions are folded, after the fold and the months' seal, over ranges cutting sessions in three
 * time zones, every sort and a second page, after a late event into a folded session and its refold,
 * after migration 010's backfill; and against a count in plain code over the generated events.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventRow } from '../../storage/events/event-row.fixture.js'
import type { EventRow } from '../../storage/events/event-row.js'
import type { EventsStore } from '../../storage/events/events-store.js'
import { foldSessions } from '../../storage/events/fold-sessions.js'
import { backfillSessionPageTimes } from '../../storage/events/migrations/010-session-page-times.js'
import { sealPageMonths } from '../../storage/events/seal-page-months.js'
import { copyEventsTemplate } from '../../testing/events-template.js'
import { openTestEventsStore } from '../../testing/test-events-store.js'
import {
  compilePageStats,
  type PageSortField,
  type PageStatsQueries,
  pageSortFields,
  queryPageStats,
} from '../page-stats.js'
import { parseQueryParams } from '../params.js'
import type { ReportScope } from '../report-scope.js'
import { mergeRolledPageStats } from './rolled-page-stats.js'

const SITE = 41
const MINUTE = 60_000
const PATHS = ['/', '/pricing', '/docs', '/blog/a', '/blog/b', '/signup']

function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * 500 sessions of 120 visitors from 2026-03-25 over 9 days (across the end of March, so a month gets
 * sealed), 1 to 7 events 1 to 50 minutes apart (sessions cross hours, days and the ranges' edges);
 * pageviews, custom events and outbound clicks; distinct timestamps.
 */
function visits(): EventRow[] {
  const random = seeded(SITE)
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T
  const rows: EventRow[] = []
  const start = Date.parse('2026-03-25T00:00:00Z')
  for (let s = 0; s < 500; s++) {
    let at = start + Math.floor(random() * 9 * 24 * 60) * MINUTE + s
    const count = 1 + Math.floor(random() * 7)
    for (let e = 0; e < count; e++) {
      const type: EventRow['type'] =
        e === 0 ? 'pageview' : pick(['pageview', 'pageview', 'pageview', 'custom_event', 'outbound'] as const)
      rows.push(
        eventRow({
          site_id: SITE,
          session_id: `session-${s}`,
          user_id: `visitor-${Math.floor(random() * 120)}`,
          timestamp: new Date(at).toISOString(),
          type,
          pathname: pick(PATHS),
          event_name: type === 'custom_event' ? 'signup' : '',
        }),
      )
      at += (1 + Math.floor(random() * 50)) * MINUTE
    }
  }
  return rows
}

const scopeOf = (query: Record<string, string>): ReportScope => ({
  siteId: SITE,
  params: parseQueryParams({ start_date: '2026-03-27', end_date: '2026-04-01', limit: '100', ...query }, 0),
})
const raw = (scope: ReportScope): ReportScope => ({ ...scope, rollups: false })
/** The SQL of every query the report runs. */
const sqlOf = (queries: PageStatsQueries): string =>
  'raw' in queries
    ? queries.raw.sql
    : Object.values(queries.rolled)
        .map((query) => query.sql)
        .join('\n')

/** The report with time on page to 9 digits (the two sum the same milliseconds in another order). */
async function pages(
  events: EventsStore,
  scope: ReportScope,
  sort?: { field: PageSortField; order: 'asc' | 'desc' },
) {
  const { data, total } = await queryPageStats(events, scope, sort)
  return {
    total,
    data: data.map((row) => ({
      ...row,
      time_on_page: row.time_on_page === null ? null : Number(row.time_on_page.toFixed(9)),
    })),
  }
}

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York']

let dir: string
let events: EventsStore
const rows = visits()

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-rolled-page-stats-'))
  copyEventsTemplate(dir)
  events = await openTestEventsStore(dir)
  // Three inserts in shuffled order: a session's events spread over several parts.
  const random = seeded(3)
  const chunks: EventRow[][] = [[], [], []]
  for (const row of rows) chunks[Math.floor(random() * chunks.length)]?.push(row)
  for (const chunk of chunks) await events.insert(chunk)
})

afterAll(async () => {
  await events?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('the v1 pages report from the rollups', () => {
  it('reads the rollups for unfiltered whole-hour ranges, raw events otherwise', () => {
    expect(sqlOf(compilePageStats(scopeOf({})))).toContain('FROM session_page_times')
    expect(sqlOf(compilePageStats(raw(scopeOf({}))))).not.toContain('session_page_times')
    expect(
      sqlOf(
        compilePageStats(
          scopeOf({ filters: JSON.stringify([{ parameter: 'browser', type: 'equals', value: ['Chrome'] }]) }),
        ),
      ),
    ).not.toContain('session_page_times')
    expect(sqlOf(compilePageStats(scopeOf({ time_zone: 'Asia/Kolkata' })))).not.toContain(
      'session_page_times',
    )
  })

  it.each(ZONES)('equals the raw report before the sessions are folded (%s)', async (timeZone) => {
    const scope = scopeOf({ time_zone: timeZone })
    expect(await pages(events, scope)).toEqual(await pages(events, raw(scope)))
  })

  it('equals the raw report once folded and sealed, in every sort, page and zone', async () => {
    const fold = await foldSessions(events, { settleMs: 0 })
    expect(fold.hours).toBeGreaterThan(100)
    expect(await sealPageMonths(events, { settleMs: 0 })).toBeGreaterThan(0)
    const [stored] = await events.query<{ n: number }>(
      'SELECT count() AS n FROM session_page_times WHERE site_id = {site:UInt32}',
      { site: SITE },
    )
    expect(Number(stored?.n)).toBeGreaterThan(300)
    for (const timeZone of ZONES) {
      const scope = scopeOf({ time_zone: timeZone })
      const rolled = await pages(events, scope)
      expect(rolled).toEqual(await pages(events, raw(scope)))
      expect(rolled.data.every((row) => row.entries > 0 && row.time_on_page !== null)).toBe(true)
    }
    // Sorted by pageviews, the page's paths are ranked first and only theirs read; past the last
    // page, nothing.
    expect(sqlOf(compilePageStats(scopeOf({})))).toContain('value IN ranked.1')
    const beyond = scopeOf({ limit: '2', page: '999' })
    expect(await pages(events, beyond)).toEqual({ data: [], total: 0 })
    expect(await pages(events, raw(beyond))).toEqual({ data: [], total: 0 })
    for (const field of pageSortFields) {
      for (const order of ['asc', 'desc'] as const) {
        const scope = scopeOf({ limit: '2', page: '2', time_zone: 'Europe/Berlin' })
        expect(await pages(events, scope, { field, order })).toEqual(
          await pages(events, raw(scope), { field, order }),
        )
      }
    }
  })

  it('merges its three parts and sorts the paths as ClickHouse orders them', async () => {
    // Ties, a path with no session or time on page (null), bytes that order differently from UTF-16.
    const paths = ['/b', '/a', '/\u00e9', '/z', '/B', '/c', '/\u{1F600}', '/\uFF5E']
    const pages = paths.map((pathname, i) => ({
      pathname,
      hash: String(1000 + i),
      pageviews: [3, 3, 1, 2, 3, 1, 2, 2][i] ?? 0,
      visitors: [2, 3, 1, 2, 2, 1, 1, 1][i] ?? 0,
      total_pages: paths.length,
    }))
    const sessions = [
      { hash: '1000', entries: 2, exits: 1, bounces: 1 },
      { hash: '1001', entries: 4, exits: 0, bounces: 2 },
      { hash: '1003', entries: 1, exits: 1, bounces: 0 },
      { hash: '1006', entries: 2, exits: 2, bounces: 1 },
      { hash: '9999', entries: 5, exits: 5, bounces: 5 },
    ]
    const times = [
      { pathname: '/b', timed: 2, time_ms: 3000 },
      { pathname: '/z', timed: 1, time_ms: 1500 },
      { pathname: '/\u00e9', timed: 1, time_ms: 1500 },
      { pathname: '/\uFF5E', timed: 4, time_ms: 6000 },
    ]
    const all = mergeRolledPageStats(
      { pages, sessions, times },
      { field: 'visitors', order: 'asc' },
      {
        limit: 100,
        offset: 0,
      },
    )
    expect(all.total).toBe(paths.length)
    expect(all.data.find((row) => row.pathname === '/a')).toEqual({
      pathname: '/a',
      pageviews: 3,
      visitors: 3,
      entries: 4,
      exits: 0,
      bounce_rate: 0.5,
      time_on_page: null,
    })
    expect(all.data.find((row) => row.pathname === '/c')).toMatchObject({ entries: 0, bounce_rate: 0 })
    expect(all.data.find((row) => row.pathname === '/b')?.time_on_page).toBe(1.5)
    for (const field of pageSortFields.filter((name) => name !== 'pageviews')) {
      for (const order of ['asc', 'desc'] as const) {
        const merged = mergeRolledPageStats(
          { pages, sessions, times },
          { field, order },
          { limit: 3, offset: 2 },
        )
        const values = all.data.map((row) => row[field])
        const [expected] = await events.query<{ paths: string[] }>(
          `SELECT groupArray(p) AS paths FROM (
             SELECT t.1 AS p, if(t.3 = 1, NULL, t.2) AS v
             FROM (SELECT arrayJoin(arrayZip({paths:Array(String)}, {values:Array(Float64)}, {nulls:Array(UInt8)})) AS t)
             ORDER BY v ${order === 'asc' ? 'ASC' : 'DESC'}, p ASC LIMIT 3 OFFSET 2)`,
          {
            paths: all.data.map((row) => row.pathname),
            values: values.map((value) => value ?? 0),
            nulls: values.map((value) => (value === null ? 1 : 0)),
          },
        )
        expect(
          merged.data.map((row) => row.pathname),
          `${field} ${order}`,
        ).toEqual(expected?.paths)
        expect(merged.total).toBe(paths.length)
      }
    }
  })

  it('equals a count in plain code over the generated events', async () => {
    const scope = scopeOf({ start_date: '2026-03-20', end_date: '2026-04-10' })
    const rolled = await pages(events, scope)
    const expected = new Map<
      string,
      { pageviews: number; entries: number; exits: number; bounces: number; ms: number; timed: number }
    >()
    const bySession = new Map<string, EventRow[]>()
    for (const row of rows) bySession.set(row.session_id, [...(bySession.get(row.session_id) ?? []), row])
    const of = (pathname: string) => {
      const figures = expected.get(pathname) ?? {
        pageviews: 0,
        entries: 0,
        exits: 0,
        bounces: 0,
        ms: 0,
        timed: 0,
      }
      expected.set(pathname, figures)
      return figures
    }
    for (const session of bySession.values()) {
      const ordered = [...session].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp))
      const views = ordered.filter((row) => row.type === 'pageview')
      views.forEach((view, i) => {
        const figures = of(view.pathname)
        figures.pageviews++
        const next = views[i + 1]
        if (next) {
          figures.timed++
          figures.ms += Date.parse(next.timestamp) - Date.parse(view.timestamp)
        }
      })
      const entry = of(views[0]?.pathname ?? '')
      entry.entries++
      if (views.length === 1 && ordered.length === 1) entry.bounces++
      of(views.at(-1)?.pathname ?? '').exits++
    }
    expect(rolled.total).toBe(PATHS.length)
    for (const row of rolled.data) {
      const figures = expected.get(row.pathname)
      expect(row.pageviews).toBe(figures?.pageviews)
      expect(row.entries).toBe(figures?.entries)
      expect(row.exits).toBe(figures?.exits)
      expect(row.bounce_rate).toBeCloseTo((figures?.bounces ?? 0) / (figures?.entries ?? 1), 12)
      expect(row.time_on_page).toBeCloseTo((figures?.ms ?? 0) / (figures?.timed ?? 1) / 1000, 6)
    }
  })

  it("are rebuilt by 010's backfill as the fold wrote them", async () => {
    const read = () =>
      events.query<{ session_key: string; pathname: string; timed: number; ms: number }>(
        `SELECT toString(session_key) AS session_key, pathname, timed_pageviews AS timed, time_ms AS ms
         FROM session_page_times WHERE site_id = {site:UInt32} ORDER BY session_key, pathname`,
        { site: SITE },
      )
    const folded = await read()
    await backfillSessionPageTimes(events)
    expect(await read()).toEqual(folded)
    const scope = scopeOf({ time_zone: 'America/New_York' })
    expect(await pages(events, scope)).toEqual(await pages(events, raw(scope)))
  })

  it('reads a session from its events after a late event, and from its new sums once refolded', async () => {
    // A pageview 30 s after the last event of a folded session inside the range.
    const session = rows.filter((row) => row.session_id === 'session-7')
    const last = session.at(-1) as EventRow
    await events.insert([
      eventRow({
        ...last,
        event_id: crypto.randomUUID(),
        type: 'pageview',
        event_name: '',
        pathname: '/signup',
        timestamp: new Date(Date.parse(last.timestamp) + 30_000).toISOString(),
      }),
    ])
    const scope = scopeOf({ start_date: '2026-03-20', end_date: '2026-04-10', time_zone: 'Europe/Berlin' })
    expect(await pages(events, scope)).toEqual(await pages(events, raw(scope)))
    await foldSessions(events, { settleMs: 0 })
    expect(await pages(events, scope)).toEqual(await pages(events, raw(scope)))
    const [duplicates] = await events.query<{ n: number }>(
      `SELECT count() AS n FROM (SELECT session_key, pathname FROM session_page_times
       WHERE site_id = {site:UInt32} GROUP BY session_key, pathname HAVING count() > 1)`,
      { site: SITE },
    )
    expect(Number(duplicates?.n)).toBe(0)
  })
})
