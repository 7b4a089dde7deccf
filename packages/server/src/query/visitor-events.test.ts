import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventRow } from '../storage/events/event-row.fixture.js'
import type { EventRow } from '../storage/events/event-row.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { foldSessions } from '../storage/events/fold-sessions.js'
import type { ReplayRow } from '../storage/events/replay-row.js'
import { sealPageMonths } from '../storage/events/seal-page-months.js'
import { copyEventsTemplate } from '../testing/events-template.js'
import { openTestEventsStore } from '../testing/test-events-store.js'
import { queryBreakdown } from './breakdown.js'
import { queryCustomEventCount } from './custom-event-count.js'
import { queryEventNames } from './event-names.js'
import { queryOverview } from './overview.js'
import { parseQueryParams } from './params.js'
import type { ReportScope } from './report-scope.js'
import { queryStatsReport } from './stats-report.js'
import { queryTimeseries } from './timeseries.js'
import { eraseVisitorEvents, visitorEventsPage } from './visitor-events.js'

const SITE = 41
const OTHER_SITE = 42
const MINUTE = 60_000
/** The visitor erased, with sessions across hours, days and the change of month. */
const ERASED = 'ada@example.com'
/** The visitor whose erasure a failure cuts off. */
const CUT_OFF = 'bob@example.com'

/** mulberry32, so the generated visits are the same in every run. */
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
 * 300 sessions of 60 visitors (every tenth session the erased visitor's) from 2026-02-24 over 10 days,
 * 1 to 8 events 1 to 40 minutes apart, every event type; distinct timestamps; one path only the erased
 * visitor views.
 */
function visits(siteId: number): EventRow[] {
  const random = seeded(siteId)
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T
  const rows: EventRow[] = []
  const start = Date.parse('2026-02-24T00:00:00Z')
  for (let s = 0; s < 300; s++) {
    const visitor =
      s % 10 === 3 ? ERASED : s % 10 === 7 ? CUT_OFF : `visitor-${siteId}-${Math.floor(random() * 60)}`
    const session = `session-${siteId}-${s}`
    let at = start + Math.floor(random() * 10 * 24 * 60) * MINUTE + s
    const count = 1 + Math.floor(random() * 8)
    const browser = pick(['Chrome', 'Firefox', 'Safari'])
    const country = pick(['DE', 'US', 'FR'])
    for (let e = 0; e < count; e++) {
      const type: EventRow['type'] =
        e === 0 ? 'pageview' : pick(['pageview', 'pageview', 'custom_event', 'outbound', 'error'] as const)
      const referred = pick([false, true])
      const pathname = pick(['/', '/pricing', '/blog/a', '/blog/b', `/only-${s % 7}`])
      rows.push(
        eventRow({
          site_id: siteId,
          session_id: session,
          user_id: visitor,
          timestamp: new Date(at).toISOString(),
          type,
          // The erased visitor's first pageviews are the only ones on their path.
          pathname: visitor === ERASED && e === 0 ? '/erased-only' : pathname,
          event_name: type === 'custom_event' ? pick(['signup', 'play']) : '',
          browser,
          country,
          city: country === 'DE' ? 'Berlin' : '',
          channel: referred ? 'Referral' : 'Direct',
          referrer_domain: referred ? pick(['news.example', `blog-${s % 5}.example`]) : '',
          utm_source: e === 0 ? pick(['', 'newsletter']) : '',
        }),
      )
      at += (1 + Math.floor(random() * 40)) * MINUTE
    }
  }
  return rows
}

const replayOf = (siteId: number, sessionId: string, sequence: number): ReplayRow => {
  const payload = Buffer.from(JSON.stringify({ site_id: siteId, sequence, events: [{ timestamp: 1000 }] }))
  return {
    site_id: siteId,
    session_id: sessionId,
    sequence,
    timestamp: '2026-02-28T10:00:00.000Z',
    received_at: new Date().toISOString(),
    expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    bytes: payload.length,
    encoding: 'json',
    payload,
  }
}

const scopeOf = (query: Record<string, string>, siteId = SITE): ReportScope => ({
  siteId,
  params: parseQueryParams({ start_date: '2026-02-24', end_date: '2026-03-06', limit: '100', ...query }, 0),
})
const raw = (scope: ReportScope): ReportScope => ({ ...scope, rollups: false })

/** Every report the rollups serve (those that read `events` with them too), for one scope. */
async function reports(events: EventsStore, scope: ReportScope) {
  return {
    overview: await queryOverview(events, scope),
    custom: await queryCustomEventCount(events, scope),
    stats: (await queryStatsReport(events, scope)).data,
    eventNames: await queryEventNames(events, scope),
    hours: await queryTimeseries(events, scope, 'hour'),
    days: await queryTimeseries(events, scope, 'day'),
    months: await queryTimeseries(events, scope, 'month'),
    breakdowns: await Promise.all(
      (
        [
          'pages',
          'channels',
          'referrers',
          'entry_pages',
          'exit_pages',
          'countries',
          'browsers',
          'cities',
          'utm_source',
        ] as const
      ).map((name) => queryBreakdown(events, scope, name)),
    ),
  }
}

/** The scopes compared: whole range in three zones, one day, and one month (sealed before the erase). */
const scopes = () => [
  scopeOf({ time_zone: 'UTC' }),
  scopeOf({ time_zone: 'Europe/Berlin' }),
  scopeOf({ time_zone: 'America/New_York' }),
  scopeOf({ start_date: '2026-02-28', end_date: '2026-02-28' }),
  scopeOf({ start_date: '2026-02-01', end_date: '2026-02-28' }),
]

let dir: string
let events: EventsStore
const rows = [...visits(SITE), ...visits(OTHER_SITE)]
const erasedSessions = new Set(
  rows.filter((row) => row.site_id === SITE && row.user_id === ERASED).map((row) => row.session_id),
)
/** What the erasure must remove, counted over the generated input. */
const expectedErased = rows.filter(
  (row) => row.site_id === SITE && (row.user_id === ERASED || erasedSessions.has(row.session_id)),
)

/** Rows of the site in the per-session rollups that belong to `sessions` (default: the erased ones). */
async function erasedSessionRows(sessions: ReadonlySet<string> = erasedSessions): Promise<number> {
  const counts = ['session_hours', 'session_dimension_hours', 'session_summaries', 'session_page_times'].map(
    (table) =>
      `(SELECT count() FROM ${table} WHERE site_id = {site:UInt32} AND session_key IN (SELECT cityHash64(arrayJoin({sessions:Array(String)}))))`,
  )
  const [row] = await events.query<{ n: number }>(`SELECT ${counts.join(' + ')} AS n`, {
    site: SITE,
    sessions: [...sessions],
  })
  return Number(row?.n)
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-erase-'))
  copyEventsTemplate(dir)
  events = await openTestEventsStore(dir)
  // Three inserts in shuffled order: a session's hour spread over unmerged parts.
  const random = seeded(5)
  const chunks: EventRow[][] = [[], [], []]
  for (const row of rows) chunks[Math.floor(random() * chunks.length)]?.push(row)
  for (const chunk of chunks) await events.insert(chunk)
  const someErased = [...erasedSessions].slice(0, 2)
  await events.insertReplay([
    ...someErased.flatMap((session) => [replayOf(SITE, session, 0), replayOf(SITE, session, 1)]),
    replayOf(SITE, 'session-41-0', 0),
    replayOf(OTHER_SITE, someErased[0] ?? '', 0),
  ])
  // Every session folded and every month sealed: the erasure must correct summaries and months too.
  await foldSessions(events, { closedBefore: Date.parse('2026-03-10T00:00:00Z'), settleMs: 0 })
  await sealPageMonths(events, { settleMs: 0 })
})

afterAll(async () => {
  await events?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

// The erasure tests compare every rolled report with the raw one over five scopes: hundreds of queries.
describe("a visitor's events", { timeout: 120_000 }, () => {
  it('are exported exactly, oldest first, a page at a time', async () => {
    const own = rows
      .filter((row) => row.site_id === SITE && row.user_id === ERASED)
      .sort((a, b) => a.timestamp.localeCompare(b.timestamp))
    expect(own.length).toBeGreaterThan(30)
    const read: EventRow[] = []
    let after = null
    for (;;) {
      const page = await visitorEventsPage(events, SITE, ERASED, after, 7)
      read.push(...page)
      if (page.length < 7) break
      const last = page[page.length - 1] as EventRow
      after = { timestamp: last.timestamp, eventId: last.event_id }
    }
    expect(read.map((row) => row.event_id)).toEqual(own.map((row) => row.event_id))
    expect(read[0]).toEqual(own[0])
    expect(await visitorEventsPage(events, SITE, 'nobody', null)).toEqual([])
  })

  it('are erased with their sessions and recordings, every rolled report equal to the raw one after', async () => {
    expect(erasedSessions.size).toBe(30)
    expect(await erasedSessionRows()).toBeGreaterThan(0)
    const otherSiteBefore = await reports(events, scopeOf({}, OTHER_SITE))
    // Some of the erased sessions share their sessions' hours with other visitors: those are rolled again.
    const { sessionIds, ...erased } = await eraseVisitorEvents(events, SITE, ERASED)
    expect(erased).toEqual({ deleted: expectedErased.length, sessions: 30, replayBatches: 4 })
    expect(sessionIds.sort()).toEqual([...erasedSessions].sort())

    const [left] = await events.query<{ site: number; visitor: number; sessions: number }>(
      `SELECT countIf(site_id = {site:UInt32}) AS site, countIf(user_id = {user:String} AND site_id = {site:UInt32}) AS visitor,
         countIf(site_id = {site:UInt32} AND session_id IN {sessions:Array(String)}) AS sessions FROM events`,
      { site: SITE, user: ERASED, sessions: [...erasedSessions] },
    )
    const siteRows = rows.filter((row) => row.site_id === SITE).length
    expect(left).toEqual({ site: siteRows - expectedErased.length, visitor: 0, sessions: 0 })
    const replays = await events.query<{ site_id: number; session_id: string }>(
      'SELECT site_id, session_id FROM replay ORDER BY site_id, session_id',
    )
    expect(replays.map((row) => `${row.site_id} ${row.session_id}`)).toEqual([
      `${SITE} session-41-0`,
      `${OTHER_SITE} ${[...erasedSessions][0]}`,
    ])
    expect(await erasedSessionRows()).toBe(0)

    for (const scope of scopes()) {
      expect(await reports(events, scope)).toEqual(await reports(events, raw(scope)))
    }
    // Then folded and sealed again: still equal.
    await foldSessions(events, { closedBefore: Date.parse('2026-03-10T00:00:00Z'), settleMs: 0 })
    await sealPageMonths(events, { settleMs: 0 })
    for (const scope of scopes()) {
      expect(await reports(events, scope)).toEqual(await reports(events, raw(scope)))
    }
    // Pages only the erased sessions viewed are gone from the rolled breakdown.
    const pages = await queryBreakdown(events, scopeOf({}), 'pages')
    const remaining = new Set(
      rows
        .filter(
          (row) => row.site_id === SITE && row.type === 'pageview' && !erasedSessions.has(row.session_id),
        )
        .map((row) => row.pathname),
    )
    expect(new Set(pages.rows.map((row) => row.value))).toEqual(remaining)
    // And from the pathnames the entry and exit pages are looked up in (some only they had viewed).
    const viewed = rows.filter((row) => row.site_id === SITE && row.type === 'pageview')
    expect(new Set(viewed.map((row) => row.pathname)).size).toBeGreaterThan(remaining.size)
    const [listed] = await events.query<{ names: string[] }>(
      'SELECT groupUniqArray(pathname) AS names FROM pathname_months WHERE site_id = {site:UInt32}',
      { site: SITE },
    )
    expect(new Set(listed?.names)).toEqual(remaining)
    // The other site is untouched.
    expect(await reports(events, scopeOf({}, OTHER_SITE))).toEqual(otherSiteBefore)
  })

  it('are erased once: a second erasure and an unknown visitor change nothing', async () => {
    const [before] = await events.query<{ n: number }>('SELECT count() AS n FROM events')
    const nothing = { deleted: 0, sessions: 0, replayBatches: 0, sessionIds: [] }
    expect(await eraseVisitorEvents(events, SITE, ERASED)).toEqual(nothing)
    expect(await eraseVisitorEvents(events, SITE, 'nobody')).toEqual(nothing)
    const [after] = await events.query<{ n: number }>('SELECT count() AS n FROM events')
    expect(after).toEqual(before)
  })
  it('finish an erasure a failure cut off when erased again', async () => {
    const sessions = new Set(
      rows.filter((row) => row.site_id === SITE && row.user_id === CUT_OFF).map((row) => row.session_id),
    )
    // The store fails at the per-session rollups: the events, and some hours' rollups, are gone by then.
    let failed = false
    const failing: EventsStore = {
      ...events,
      command: async (sql, params) => {
        if (!failed && sql.startsWith('DELETE FROM session_hours')) {
          failed = true
          throw new Error('store unavailable')
        }
        return events.command(sql, params)
      },
    }
    await expect(eraseVisitorEvents(failing, SITE, CUT_OFF)).rejects.toThrow('store unavailable')
    const [left] = await events.query<{ n: number }>(
      'SELECT count() AS n FROM events WHERE site_id = {site:UInt32} AND user_id = {user:String}',
      { site: SITE, user: CUT_OFF },
    )
    expect(Number(left?.n)).toBe(0)
    expect(await erasedSessionRows(sessions)).toBeGreaterThan(0)
    expect(await reports(events, scopeOf({}))).not.toEqual(await reports(events, raw(scopeOf({}))))

    expect(await eraseVisitorEvents(events, SITE, CUT_OFF)).toEqual({
      deleted: 0,
      sessions: 0,
      replayBatches: 0,
      sessionIds: [],
    })
    expect(await erasedSessionRows(sessions)).toBe(0)
    for (const scope of scopes()) {
      expect(await reports(events, scope)).toEqual(await reports(events, raw(scope)))
    }
  })
})
