import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { channels } from '../../ingest/enrich/channel.js'
import { fromClickHouseTime, toClickHouseTime } from '../../storage/events/clickhouse-time.js'
import { eventRow } from '../../storage/events/event-row.fixture.js'
import type { EventRow } from '../../storage/events/event-row.js'
import type { EventsStore } from '../../storage/events/events-store.js'
import { foldSessions } from '../../storage/events/fold-sessions.js'
import { backfillRollups, rollupTables } from '../../storage/events/migrations/003-rollups.js'
import { backfillSessionDimensionHours } from '../../storage/events/migrations/004-session-dimension-hours.js'
import { migrateEvents } from '../../storage/events/migrations/index.js'
import { refillByMonth } from '../../storage/events/migrations/refill-by-month.js'
import { CODED_CHANNELS } from '../../storage/events/rollup-schema/coded-channels.js'
import {
  EVERY_ROLLUP_TABLE,
  PAGE_ROLLUP_TABLES,
  PATHNAME_MONTHS,
  REFERRER_DOMAIN_DAYS,
  ROLLUP_TABLES,
  rollupInserts,
} from '../../storage/events/rollup-tables.js'
import { sealPageMonths } from '../../storage/events/seal-page-months.js'
import { copyEventsTemplate } from '../../testing/events-template.js'
import { openTestEventsStore } from '../../testing/test-events-store.js'
import { type BreakdownName, compileBreakdown, queryBreakdown } from '../breakdown.js'
import { compileCustomEventCount, queryCustomEventCount } from '../custom-event-count.js'
import { compileEventNames, queryEventNames } from '../event-names.js'
import { deleteExpiredEvents } from '../expired-events.js'
import { compileOverview, queryOverview } from '../overview.js'
import { parseQueryParams } from '../params.js'
import type { ReportScope } from '../report-scope.js'
import { deleteSiteEvents } from '../site-events.js'
import { queryStatsReport } from '../stats-report.js'
import { compileTimeseries, queryTimeseries } from '../timeseries.js'

const SITE = 31
const OTHER_SITE = 32
const MINUTE = 60_000

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

/** A channel and the referrer domain that goes with it (no draw of its own: the visits stay the same). */
const referrerOf = (channel: 'Direct' | 'Organic Search' | 'Referral' | 'Email') => ({
  channel,
  referrer_domain: {
    Direct: '',
    'Organic Search': 'google.com',
    Referral: 'news.example',
    Email: 'mail.example',
  }[channel],
})

/**
 * 400 sessions of 150 visitors over `days` days from `from` (by default 2026-03-26 to 2026-04-01;
 * Europe/Berlin changes to summer time on 2026-03-29), 1 to 8 events 1 to 40 minutes apart, so that
 * many sessions cross hours, days and the ranges' edges; every event type; distinct timestamps (ties
 * are `query/event-order.test.ts`'s).
 */
function visits(siteId: number, from = '2026-03-26T00:00:00Z', days = 6): EventRow[] {
  const random = seeded(siteId)
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T
  const rows: EventRow[] = []
  const start = Date.parse(from)
  for (let s = 0; s < 400; s++) {
    const visitor = `visitor-${siteId}-${Math.floor(random() * 150)}`
    const session = `session-${siteId}-${s}`
    let at = start + Math.floor(random() * days * 24 * 60) * MINUTE + s
    const count = 1 + Math.floor(random() * 8)
    const browser = pick(['Chrome', 'Firefox', 'Safari'])
    const country = pick(['DE', 'US', 'FR', ''])
    for (let e = 0; e < count; e++) {
      const type: EventRow['type'] =
        e === 0
          ? 'pageview'
          : pick(['pageview', 'pageview', 'custom_event', 'outbound', 'error', 'performance'] as const)
      rows.push(
        eventRow({
          site_id: siteId,
          session_id: session,
          user_id: visitor,
          timestamp: new Date(at).toISOString(),
          type,
          pathname: pick(['/', '/pricing', '/blog/a', '/blog/b']),
          event_name: type === 'custom_event' ? pick(['signup', 'play']) : '',
          browser,
          country,
          region: country === 'DE' ? 'Berlin' : '',
          // The city changes within some sessions (a visitor on the move), and with it the row.
          city: country === 'DE' ? pick(['Berlin', 'Potsdam']) : '',
          operating_system: pick(['Linux', 'macOS']),
          device_type: pick(['desktop', 'mobile']),
          language: pick(['de-DE', 'en-US']),
          // Per event, so that only a session's first event in the range names its channel.
          ...referrerOf(pick(['Direct', 'Organic Search', 'Referral', 'Email'] as const)),
          utm_source: e === 0 ? pick(['', 'newsletter']) : '',
          utm_medium: e === 0 ? pick(['', 'email']) : '',
          utm_campaign: e === 0 ? pick(['', 'spring']) : '',
        }),
      )
      at += (1 + Math.floor(random() * 40)) * MINUTE
    }
  }
  return rows
}

/**
 * The breakdowns the rollups hold: `event_hours` pages, `session_hours` the session ones,
 * `session_dimension_hours` the other event ones.
 */
const eventBreakdowns: BreakdownName[] = ['pages']
const sessionBreakdowns: BreakdownName[] = ['channels', 'referrers', 'entry_pages', 'exit_pages']
const dimensionBreakdowns: BreakdownName[] = [
  'countries',
  'browsers',
  'operating_systems',
  'device_types',
  'regions',
  'cities',
  'languages',
]
/**
 * The UTM breakdowns are the sessions' landing pages' tags, which no rollup keeps (a session's first
 * event's tags): they read the raw events, and are compared here all the same.
 */
const landingBreakdowns: BreakdownName[] = ['utm_source', 'utm_medium', 'utm_campaign']
const rolledBreakdowns: BreakdownName[] = [
  ...eventBreakdowns,
  ...sessionBreakdowns,
  ...dimensionBreakdowns,
  ...landingBreakdowns,
]

const scopeOf = (query: Record<string, string>, siteId = SITE): ReportScope => ({
  siteId,
  params: parseQueryParams({ start_date: '2026-03-27', end_date: '2026-03-30', limit: '100', ...query }, 0),
})
const raw = (scope: ReportScope): ReportScope => ({ ...scope, rollups: false })

/** Every report the rollups serve, for one scope. */
async function reports(events: EventsStore, scope: ReportScope) {
  return {
    overview: await queryOverview(events, scope),
    custom: await queryCustomEventCount(events, scope),
    // The range and the one before it, read together from the rollups (sessions cross the split).
    stats: (await queryStatsReport(events, scope)).data,
    eventNames: await queryEventNames(events, scope),
    hours: await queryTimeseries(events, scope, 'hour'),
    days: await queryTimeseries(events, scope, 'day'),
    weeks: await queryTimeseries(events, scope, 'week'),
    months: await queryTimeseries(events, scope, 'month'),
    breakdowns: await Promise.all(rolledBreakdowns.map((name) => queryBreakdown(events, scope, name))),
  }
}

let dir: string
let events: EventsStore

/** The site's summaries, distinct sessions among them, and pending sessions (rows in changed hours). */
async function summaryCounts(siteId: number) {
  const [row] = await events.query<{ summaries: number; sessions: number; pending: number }>(
    `SELECT (SELECT count() FROM session_summaries WHERE site_id = {site:UInt32}) AS summaries,
       (SELECT uniqExact(session_key) FROM session_summaries WHERE site_id = {site:UInt32}) AS sessions,
       (SELECT uniqExact(session_key) FROM session_hours WHERE site_id = {site:UInt32} AND hour IN (
         SELECT hour FROM session_changes WHERE site_id = {site:UInt32}
         GROUP BY hour HAVING max(changed_at) > max(folded_at))) AS pending`,
    { site: siteId },
  )
  return { summaries: Number(row?.summaries), sessions: Number(row?.sessions), pending: Number(row?.pending) }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-rollups-'))
  copyEventsTemplate(dir)
  events = await openTestEventsStore(dir)
  // Five inserts in shuffled order: one session's hour is spread over several unmerged parts.
  const rows = [...visits(SITE), ...visits(OTHER_SITE)]
  const random = seeded(7)
  const chunks: EventRow[][] = [[], [], [], [], []]
  for (const row of rows) chunks[Math.floor(random() * chunks.length)]?.push(row)
  for (const chunk of chunks) await events.insert(chunk)
})

afterAll(async () => {
  await events?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

// Each test compares every rolled report with the raw one over several scopes: hundreds of queries.
describe('reports from the rollups', { timeout: 120_000 }, () => {
  it.each(['UTC', 'Europe/Berlin', 'America/New_York'])(
    'equal the raw reports over whole-hour time zones (%s)',
    async (timeZone) => {
      const scope = scopeOf({ time_zone: timeZone })
      expect(compileOverview(scope).sql).toContain('FROM session_hours')
      expect(compileTimeseries(scope, 'day').sql).toContain('FROM event_hours')
      expect(compileCustomEventCount(scope).sql).toContain('FROM event_hours')
      expect(compileEventNames(scope).sql).toContain('FROM event_hours')
      for (const name of eventBreakdowns)
        expect(compileBreakdown(scope, name).sql).toContain('FROM event_hours')
      for (const name of sessionBreakdowns)
        expect(compileBreakdown(scope, name).sql).toContain('FROM session_hours')
      // Hashes back to text through the range's days or months, not a scan of the range's events.
      expect(compileBreakdown(scope, 'referrers').sql).toContain('FROM referrer_domain_days')
      expect(compileBreakdown(scope, 'entry_pages').sql).toContain('FROM pathname_months')
      expect(compileBreakdown(scope, 'exit_pages').sql).toContain('FROM pathname_months')
      for (const name of sessionBreakdowns)
        expect(compileBreakdown(scope, name).sql).not.toContain('FROM events')
      for (const name of dimensionBreakdowns)
        expect(compileBreakdown(scope, name).sql).toContain('FROM session_dimension_hours')
      const rolled = await reports(events, scope)
      expect(rolled).toEqual(await reports(events, raw(scope)))
      expect(rolled.overview.sessions).toBeGreaterThan(100)
      expect(rolled.overview.visitors).toBeLessThan(rolled.overview.sessions)
    },
  )

  it('read the totals of a range and of the one before it in one query each', async () => {
    const queries: string[] = []
    const counting: EventsStore = {
      ...events,
      query: (sql, params, options) => {
        queries.push(sql)
        return events.query(sql, params, options)
      },
    }
    const scope = scopeOf({ time_zone: 'Europe/Berlin' })
    // Sessions with events on both sides of the split, each counted in both periods with its own.
    const [crossing] = await events.query<{ n: number }>(
      `SELECT count() AS n FROM (SELECT session_id FROM events WHERE site_id = {site:UInt32}
         GROUP BY session_id HAVING min(timestamp) < {split:DateTime64(3, 'UTC')}
           AND max(timestamp) >= {split:DateTime64(3, 'UTC')})`,
      { site: SITE, split: toClickHouseTime(scope.params.from) },
    )
    expect(Number(crossing?.n)).toBeGreaterThan(0)
    const stats = await queryStatsReport(counting, scope)
    expect(queries).toHaveLength(2)
    if (!('previous' in stats.data)) throw new Error('the stats answered without the previous period')
    expect(stats.data.previous.sessions).toBeGreaterThan(0)
    expect(stats).toEqual(await queryStatsReport(counting, raw(scope)))
    expect(queries).toHaveLength(6)
  })

  it('keep only the hours of a session inside the range, as raw reports keep its events', async () => {
    // One day: many sessions start before it or end after it.
    const scope = scopeOf({ start_date: '2026-03-29', end_date: '2026-03-29', time_zone: 'Europe/Berlin' })
    expect(await queryOverview(events, scope)).toEqual(await queryOverview(events, raw(scope)))
    // A session that began before the range enters it through its first event inside.
    for (const name of sessionBreakdowns) {
      expect(await queryBreakdown(events, scope, name)).toEqual(
        await queryBreakdown(events, raw(scope), name),
      )
    }
  })

  it('read the summaries of folded sessions and group the rest, with the same figures', async () => {
    const scopes = [
      ...['UTC', 'Europe/Berlin', 'America/New_York'].map((timeZone) => scopeOf({ time_zone: timeZone })),
      scopeOf({ start_date: '2026-03-29', end_date: '2026-03-29', time_zone: 'Europe/Berlin' }),
      scopeOf({ start_date: '2026-03-26', end_date: '2026-04-02' }),
    ]
    expect(compileOverview(scopes[0] as ReportScope).sql).toContain('FROM session_summaries')
    const expected = await Promise.all(scopes.map((scope) => reports(events, raw(scope))))
    // Nothing folded yet, then the sessions closed before a time inside the range, then all.
    for (const closedBefore of [null, '2026-03-29T12:00:00Z', '2026-04-03T00:00:00Z']) {
      if (closedBefore) await foldSessions(events, { closedBefore: Date.parse(closedBefore), settleMs: 0 })
      for (const [i, scope] of scopes.entries()) {
        expect(await reports(events, scope), `${closedBefore} ${i}`).toEqual(expected[i])
      }
    }
    expect(await summaryCounts(SITE)).toEqual({ summaries: 400, sessions: 400, pending: 0 })
  })

  it('refold a session when a late event changes it, its old summary unused meanwhile', async () => {
    const [session] = await events.query<{
      session_id: string
      user_id: string
      first: string
      last: string
    }>(
      `SELECT session_id, any(user_id) AS user_id, min(timestamp) AS first, max(timestamp) AS last
       FROM events WHERE site_id = {site:UInt32} GROUP BY session_id ORDER BY session_id LIMIT 1`,
      { site: SITE },
    )
    const late = (instant: number) =>
      eventRow({
        site_id: SITE,
        session_id: String(session?.session_id),
        user_id: String(session?.user_id),
        timestamp: new Date(instant).toISOString(),
        type: 'pageview',
        pathname: '/late',
        country: '',
        region: '',
        city: '',
      })
    const first = Date.parse(fromClickHouseTime(String(session?.first)))
    const last = Date.parse(fromClickHouseTime(String(session?.last)))
    // Earlier than its first hour and later than its last: the summary's start and end both move.
    await events.insert([late(first - 2 * 3_600_000), late(last + 2 * 3_600_000)])
    const scope = scopeOf({ start_date: '2026-03-25', end_date: '2026-04-02' })
    expect((await summaryCounts(SITE)).pending).toBeGreaterThan(0)
    expect(await reports(events, scope)).toEqual(await reports(events, raw(scope)))
    // Inserted just now: a default fold leaves the hours to settle; a settled fold refolds the session.
    expect(await foldSessions(events, { closedBefore: Date.parse('2026-04-03T00:00:00Z') })).toEqual({
      hours: 0,
      parts: 0,
    })
    await foldSessions(events, { closedBefore: Date.parse('2026-04-03T00:00:00Z'), settleMs: 0 })
    expect(await summaryCounts(SITE)).toEqual({ summaries: 400, sessions: 400, pending: 0 })
    expect(await reports(events, scope)).toEqual(await reports(events, raw(scope)))
  })

  it('read raw events for half-hour time zones, minute buckets, filters and breakdowns they do not hold', () => {
    const kolkata = scopeOf({ time_zone: 'Asia/Kolkata' })
    expect(compileOverview(kolkata).sql).toContain('FROM events')
    expect(compileBreakdown(kolkata, 'pages').sql).toContain('FROM events')
    expect(compileTimeseries(scopeOf({}), 'minute').sql).toContain('FROM events')
    const filtered = scopeOf({
      filters: JSON.stringify([{ parameter: 'browser', type: 'equals', value: ['Chrome'] }]),
    })
    expect(compileOverview(filtered).sql).toContain('FROM events')
    expect(compileBreakdown(filtered, 'countries').sql).toContain('FROM events')
    expect(compileBreakdown(filtered, 'browsers').sql).toContain('FROM session_dimension_hours')
    for (const name of sessionBreakdowns) {
      expect(compileBreakdown(filtered, name).sql).toContain('FROM events')
    }
    for (const name of dimensionBreakdowns) {
      expect(compileBreakdown(kolkata, name).sql).toContain('FROM events')
      if (name !== 'browsers') expect(compileBreakdown(filtered, name).sql).toContain('FROM events')
    }
  })

  it('page a breakdown ranked by pageviews as raw events do (the page picked first, then its uniques)', async () => {
    for (const page of ['1', '2', '3']) {
      const scope = scopeOf({ limit: '2', page, time_zone: 'Europe/Berlin' })
      const rolled = await queryBreakdown(events, scope, 'pages')
      expect(rolled).toEqual(await queryBreakdown(events, raw(scope), 'pages'))
      expect(rolled.total).toBe(page === '3' ? 0 : 4)
      expect(rolled.rows).toHaveLength(page === '3' ? 0 : 2)
    }
  })

  it('code every channel ingest assigns (a new channel needs a migration of session_hours)', () => {
    expect(CODED_CHANNELS).toEqual(channels)
  })

  it('count regions, cities and languages as raw events do, a session under each value it had, and UTM by landing page', async () => {
    const scope = scopeOf({})
    const cities = await queryBreakdown(events, scope, 'cities')
    expect(cities.rows.map((row) => row.value).sort()).toEqual(['', 'Berlin', 'Potsdam'])
    const berlin = cities.rows.find((row) => row.value === 'Berlin')
    const potsdam = cities.rows.find((row) => row.value === 'Potsdam')
    const region = (await queryBreakdown(events, scope, 'regions')).rows.find((row) => row.value === 'Berlin')
    // A session with events in both cities counts under both, as raw events count it.
    expect((berlin?.sessions ?? 0) + (potsdam?.sessions ?? 0)).toBeGreaterThan(region?.sessions ?? 0)
    expect((berlin?.pageviews ?? 0) + (potsdam?.pageviews ?? 0)).toBe(region?.pageviews)
    const utm = await queryBreakdown(events, scope, 'utm_source')
    expect(utm.rows.map((row) => row.value).sort()).toEqual(['', 'newsletter'])
    expect(utm).toEqual(await queryBreakdown(events, raw(scope), 'utm_source'))
  })

  it('answer a regions, cities, languages or UTM breakdown filtered on its own dimension', async () => {
    const scope = scopeOf({
      filters: JSON.stringify([{ parameter: 'language', type: 'equals', value: ['de-DE'] }]),
    })
    expect(compileBreakdown(scope, 'languages').sql).toContain('FROM session_dimension_hours')
    const rolled = await queryBreakdown(events, scope, 'languages')
    expect(rolled.rows.map((row) => row.value)).toEqual(['de-DE'])
    expect(rolled).toEqual(await queryBreakdown(events, raw(scope), 'languages'))
  })

  it('answer the counts asked for as the full answer has them, pages by pageviews merging no state', async () => {
    const scope = scopeOf({ time_zone: 'Europe/Berlin' })
    expect(compileBreakdown(scope, 'pages', ['pageviews']).sql).not.toContain('Merge')
    for (const name of rolledBreakdowns) {
      const rank = name === 'pages' ? 'pageviews' : 'visitors'
      for (const metrics of [['pageviews'], ['sessions'], ['visitors']] as const) {
        for (const each of [scope, raw(scope)]) {
          const full = await queryBreakdown(events, each, name)
          const keep = new Set<string>(['value', rank, ...metrics])
          const rows = full.rows.map((row) =>
            Object.fromEntries(Object.entries(row).filter(([key]) => keep.has(key))),
          )
          expect(await queryBreakdown(events, each, name, metrics), `${name} ${metrics}`).toEqual({
            rows,
            total: full.total,
          })
        }
      }
    }
  })

  it('answer a breakdown filtered on its own dimension', async () => {
    const scope = scopeOf({
      filters: JSON.stringify([
        { parameter: 'browser', type: 'not_equals', value: ['Safari'] },
        { parameter: 'browser', type: 'contains', value: ['f'] },
      ]),
    })
    const rolled = await queryBreakdown(events, scope, 'browsers')
    expect(rolled.rows.map((row) => row.value)).toEqual(['Firefox'])
    expect(rolled).toEqual(await queryBreakdown(events, raw(scope), 'browsers'))
  })

  it('are rebuilt from the stored events with the same figures (a refill can run twice)', async () => {
    const scope = scopeOf({ time_zone: 'Europe/Berlin' })
    const before = await reports(events, scope)
    // The statements retention uses to rebuild an hour, over every month: what the views wrote.
    // `event_hours`' inserts pass on to the pages' days and months through their views.
    await refillByMonth(events, [...ROLLUP_TABLES, ...PAGE_ROLLUP_TABLES], rollupInserts)
    await backfillSessionDimensionHours(events)
    expect(await reports(events, scope)).toEqual(before)
  })

  it('follow retention: hours before the cutoff deleted, the cutoff hour rebuilt', async () => {
    const cutoff = Date.parse('2026-03-28T09:25:00Z')
    await deleteExpiredEvents(events, OTHER_SITE, cutoff)
    for (const timeZone of ['UTC', 'Europe/Berlin']) {
      const scope = scopeOf({ time_zone: timeZone }, OTHER_SITE)
      const rolled = await reports(events, scope)
      expect(rolled).toEqual(await reports(events, raw(scope)))
      expect(
        rolled.hours.find((point) => point.time === '2026-03-28T09:00:00.000Z')?.pageviews,
      ).toBeGreaterThan(0)
    }
    // The referrer domains of the days before the cutoff's are gone; the cutoff's day keeps its list.
    const [days] = await events.query<{ first: string }>(
      `SELECT toString(min(day)) AS first FROM ${REFERRER_DOMAIN_DAYS} WHERE site_id = {site:UInt32}`,
      { site: OTHER_SITE },
    )
    expect(days?.first).toBe('2026-03-28 00:00:00')
    // The sessions retention cut are folded again from what is left of them.
    expect((await summaryCounts(OTHER_SITE)).pending).toBeGreaterThan(0)
    await foldSessions(events, { closedBefore: Date.parse('2026-04-03T00:00:00Z'), settleMs: 0 })
    const counts = await summaryCounts(OTHER_SITE)
    expect(counts).toEqual({ summaries: counts.sessions, sessions: counts.sessions, pending: 0 })
    const scope = scopeOf({ start_date: '2026-03-25', end_date: '2026-04-02' }, OTHER_SITE)
    expect(await reports(events, scope)).toEqual(await reports(events, raw(scope)))
  })

  it('forget a deleted site (rollup rows in a background mutation)', async () => {
    await deleteSiteEvents(events, OTHER_SITE)
    const rollupRows = async () => {
      const counts = EVERY_ROLLUP_TABLE.map((t) => `(SELECT count() FROM ${t} WHERE site_id = {site:UInt32})`)
      const [row] = await events.query<{ rows: number }>(`SELECT ${counts.join(' + ')} AS rows`, {
        site: OTHER_SITE,
      })
      return Number(row?.rows)
    }
    await expect.poll(rollupRows, { timeout: 10_000 }).toBe(0)
    const rolled = await reports(events, scopeOf({}, OTHER_SITE))
    expect(rolled.overview.sessions).toBe(0)
    expect(rolled.custom).toBe(0)
    expect(rolled.breakdowns.every((breakdown) => breakdown.rows.length === 0)).toBe(true)
  })
})

describe('the pages breakdown over months', { timeout: 120_000 }, () => {
  const MONTHS_SITE = 34
  /** Rows of the site in the pages' month rollup. */
  const monthRows = async () => {
    const [row] = await events.query<{ rows: number }>(
      'SELECT count() AS rows FROM page_months WHERE site_id = {site:UInt32}',
      { site: MONTHS_SITE },
    )
    return Number(row?.rows)
  }
  /** Pages of 3 rows, rolled, raw and by pageviews alone, over the range in the time zone. */
  const pagesOf = async (query: Record<string, string>) => {
    const pages = []
    for (const page of ['1', '2', '3']) {
      const scope = scopeOf({ limit: '3', page, ...query }, MONTHS_SITE)
      pages.push({
        rolled: await queryBreakdown(events, scope, 'pages'),
        raw: await queryBreakdown(events, raw(scope), 'pages'),
        pageviews: await queryBreakdown(events, scope, 'pages', ['pageviews']),
      })
    }
    return pages
  }
  /** Every page rolled equals raw, and ranks by the same pageviews as the pageviews-only answer. */
  const expectPagesAsRaw = async (query: Record<string, string>, label = '') => {
    for (const { rolled, raw: fromEvents, pageviews } of await pagesOf(query)) {
      expect(rolled, label).toEqual(fromEvents)
      expect(pageviews.rows.map((row) => [row.value, row.pageviews])).toEqual(
        rolled.rows.map((row) => [row.value, row.pageviews]),
      )
    }
  }
  const timeZones = ['UTC', 'Europe/Berlin', 'America/New_York']
  const range = { start_date: '2026-01-15', end_date: '2026-04-10' }

  beforeAll(async () => {
    // 400 sessions from 2026-01-10 to 2026-04-20, in two inserts.
    const rows = visits(MONTHS_SITE, '2026-01-10T00:00:00Z', 100)
    await events.insert(rows.slice(0, 200))
    await events.insert(rows.slice(200))
  })

  it('read months not sealed yet from their days', async () => {
    expect(await monthRows()).toBe(0)
    for (const timeZone of timeZones) await expectPagesAsRaw({ ...range, time_zone: timeZone }, timeZone)
  })

  it.each(timeZones)(
    'read sealed whole months, the days and the hours outside them, as the hours alone answer (%s)',
    async (timeZone) => {
      await sealPageMonths(events, { settleMs: 0 })
      expect(await monthRows()).toBeGreaterThan(0)
      const query = { ...range, time_zone: timeZone }
      expect(compileBreakdown(scopeOf(query), 'pages').sql).toMatch(
        /FROM page_months[\s\S]*FROM page_days[\s\S]*FROM event_hours/,
      )
      await expectPagesAsRaw(query)
      // A filter on the pathname reads the same rollups.
      const filtered = scopeOf(
        { ...query, filters: JSON.stringify([{ parameter: 'pathname', type: 'contains', value: ['blog'] }]) },
        MONTHS_SITE,
      )
      expect(compileBreakdown(filtered, 'pages').sql).toContain('FROM page_months')
      const rolled = await queryBreakdown(events, filtered, 'pages')
      expect(rolled.rows.map((row) => row.value).sort()).toEqual(['/blog/a', '/blog/b'])
      expect(rolled).toEqual(await queryBreakdown(events, raw(filtered), 'pages'))
    },
  )

  it('read a sealed month inserted into since from its days, until sealed again', async () => {
    await sealPageMonths(events, { settleMs: 0 })
    const late = eventRow({
      site_id: MONTHS_SITE,
      session_id: 'late-in-february',
      timestamp: '2026-02-11T10:00:00.000Z',
      pathname: '/late',
    })
    await events.insert([late, { ...late, event_id: crypto.randomUUID(), pathname: '/blog/a' }])
    const query = { ...range, time_zone: 'Europe/Berlin', limit: '10' }
    const withLate = await queryBreakdown(events, scopeOf(query, MONTHS_SITE), 'pages')
    expect(withLate.rows.map((row) => row.value)).toContain('/late')
    expect(withLate).toEqual(await queryBreakdown(events, raw(scopeOf(query, MONTHS_SITE)), 'pages'))
    // The seal waits until the month has had no insert for the settling time.
    expect(await sealPageMonths(events, { settleMs: 60_000 })).toBe(0)
    expect(await sealPageMonths(events, { settleMs: 0 })).toBe(1)
    expect(await queryBreakdown(events, scopeOf(query, MONTHS_SITE), 'pages')).toEqual(withLate)
  })

  it("follow retention into the middle of a month and to a month's start, then sealed again", async () => {
    const whole = { start_date: '2026-01-01', end_date: '2026-04-30' }
    for (const cutoff of ['2026-02-17T09:25:00Z', '2026-03-01T00:00:00Z']) {
      await deleteExpiredEvents(events, MONTHS_SITE, Date.parse(cutoff))
      // The pathnames of the months before the cutoff's are gone; the cutoff's month keeps its list.
      const [names] = await events.query<{ first: string }>(
        `SELECT toString(min(month)) AS first FROM ${PATHNAME_MONTHS} WHERE site_id = {site:UInt32}`,
        { site: MONTHS_SITE },
      )
      expect(names?.first).toBe(`${cutoff.slice(0, 7)}-01 00:00:00`)
      for (const name of ['entry_pages', 'exit_pages'] as const) {
        const scope = scopeOf({ ...whole, limit: '100' }, MONTHS_SITE)
        const rolled = await queryBreakdown(events, scope, name)
        expect(rolled.rows.length).toBeGreaterThan(0)
        expect(rolled).toEqual(await queryBreakdown(events, raw(scope), name))
      }
      for (const sealed of [false, true]) {
        if (sealed) await sealPageMonths(events, { settleMs: 0 })
        for (const timeZone of ['UTC', 'Europe/Berlin']) {
          await expectPagesAsRaw({ ...whole, time_zone: timeZone }, `${cutoff} ${timeZone} ${sealed}`)
        }
      }
    }
    expect((await pagesOf(whole))[0]?.rolled.rows.length).toBeGreaterThan(0)
    // Four retention passes and 16 comparisons: longer than the default timeout on a busy machine.
  }, 90_000)
})

describe('upgrading a data directory from before migrations 004 to 008 and 011', () => {
  it('backfills the new rollups from the stored events and moves the four dimensions out of event_hours', async () => {
    // The directory as the release with migration 003 only left it: event_hours with country,
    // browser, operating system and device type rows, its view writing them, and session_hours with
    // its packed columns as 003 made them (UInt128: ties broken by the text's hash); then a start.
    await events.command('DROP VIEW referrer_domain_days_view')
    await events.command(`DROP TABLE ${REFERRER_DOMAIN_DAYS}`)
    await events.command('DROP VIEW pathname_months_view')
    await events.command(`DROP TABLE ${PATHNAME_MONTHS}`)
    await events.command('DROP VIEW page_days_view')
    await events.command('DROP VIEW page_month_changes_view')
    for (const table of PAGE_ROLLUP_TABLES) await events.command(`DROP TABLE ${table}`)
    await events.command('DROP VIEW session_dimension_hours_view')
    await events.command('DROP TABLE session_dimension_hours')
    await events.command('DROP VIEW event_hours_view')
    await events.command('DROP VIEW session_changes_view')
    await events.command('DROP VIEW session_hours_view')
    await events.command('DROP TABLE session_hours')
    for (const name of [
      'CREATE TABLE IF NOT EXISTS session_hours',
      'session_hours_view',
      'event_hours_view',
    ]) {
      await events.command(String(rollupTables.statements.find((statement) => statement.includes(name))))
    }
    await backfillRollups(events)
    const packedType = async (table: string) => {
      const [row] = await events.query<{ type: string }>(
        `SELECT toTypeName(first_pageview) AS type FROM ${table} LIMIT 1`,
      )
      return String(row?.type)
    }
    expect(await packedType('session_hours')).toContain('UInt128')
    // And from before session_summaries (005).
    await events.command('DROP TABLE session_changes')
    await events.command('DROP TABLE session_summaries')
    await events.command(
      "DELETE FROM pathlight_migrations WHERE name IN ('004-session-dimension-hours', '005-session-summaries', '006-page-days', '007-referrer-domain-days', '008-event-order', '011-pathname-months')",
    )
    const movedRows = async () => {
      const [row] = await events.query<{ rows: number }>(
        "SELECT count() AS rows FROM event_hours WHERE dimension IN ('country', 'browser', 'operating_system', 'device_type')",
      )
      return Number(row?.rows)
    }
    expect(await movedRows()).toBeGreaterThan(0)
    await migrateEvents(events)
    expect(await movedRows()).toBe(0)
    // 008 rebuilt the session rollups with the event's order in front of the text's hash.
    expect(await packedType('session_hours')).toContain('UInt256')
    expect(await packedType('session_summaries')).toBe('UInt256')
    const scope = scopeOf({ time_zone: 'Europe/Berlin' })
    for (const name of dimensionBreakdowns) {
      const rolled = await queryBreakdown(events, scope, name)
      expect(rolled.rows.length).toBeGreaterThan(0)
      expect(rolled).toEqual(await queryBreakdown(events, raw(scope), name))
    }
    expect(await reports(events, scope)).toEqual(await reports(events, raw(scope)))
    // Every stored session closed an hour ago is summarised.
    expect(await summaryCounts(SITE)).toEqual({ summaries: 400, sessions: 400, pending: 0 })
    // New events no longer add those rows to event_hours.
    await events.insert(visits(33))
    expect(await movedRows()).toBe(0)
  })
})
