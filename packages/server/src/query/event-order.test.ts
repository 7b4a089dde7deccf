/**
 * One order for a session's events (`EVENT_ORDER` in `metrics.ts`: timestamp, then event id as its
 * text sorts), through the real app (SQLite + chDB): events with second-precision timestamps, most of a
 * session's events sharing their second with another, imported in shuffled order into one site, then
 * exported and the export imported into a second site. Entry and exit pages, entry channels and
 * referrers, time on page, journeys, funnels and a session's event list must be the same
 * - from the rollups (unfiltered), from raw events (a no-op filter), and after the sessions are folded;
 * - on both sites;
 * - as counted here in plain TypeScript over the generated events sorted by (timestamp, event id).
 * Raw lines without ids (an access log) keep their order within a second: the importer's ids do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { eventRow } from '../storage/events/event-row.fixture.js'
import type { EventRow } from '../storage/events/event-row.js'
import { foldSessions } from '../storage/events/fold-sessions.js'
import { ROLLED_EVENT_ORDER_KEY } from '../storage/events/rollup-schema/session-hours.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { toExportedEvent } from '../transfer/exported-event.js'
import { type BreakdownName, queryBreakdown } from './breakdown.js'
import { queryFunnelReport } from './funnel-report.js'
import { queryJourneys } from './journeys.js'
import { EVENT_ORDER_KEY } from './metrics.js'
import { queryOverview } from './overview.js'
import { queryPageStats } from './page-stats.js'
import { parseQueryParams } from './params.js'
import type { ReportScope } from './report-scope.js'
import { querySessionEvents } from './session-events.js'
import { querySessionList } from './session-list.js'

/** mulberry32, so the generated events are the same in every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const PAGES = ['/', '/pricing', '/blog/a', '/blog/b', '/docs'] as const
const REFERRALS = [
  { channel: 'Direct', referrer: '', referrer_domain: '' },
  { channel: 'Organic Search', referrer: 'https://www.google.com/', referrer_domain: 'google.com' },
  { channel: 'Referral', referrer: 'https://news.example/a', referrer_domain: 'news.example' },
  { channel: 'Email', referrer: 'https://mail.example/', referrer_domain: 'mail.example' },
] as const
const START = Date.parse('2026-03-02T00:00:00Z')
const SECOND = 1000

/**
 * 300 sessions of 90 visitors on 2026-03-02 and 03 (UTC), 2 to 9 events each at whole seconds, each
 * event on the same second as the one before it with probability 0.6; some sessions start a few seconds
 * before a full hour, so that their events fall into two hours. Event ids drawn from the seed.
 */
function generate(siteId: number): EventRow[] {
  const random = seeded(20260302)
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T
  const hex = (digits: number) =>
    Array.from({ length: digits }, () => Math.floor(random() * 16).toString(16)).join('')
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`
  const rows: EventRow[] = []
  for (let s = 0; s < 300; s++) {
    const visitor = `visitor-${Math.floor(random() * 90)}`
    const hour = Math.floor(random() * 47)
    let at =
      START +
      hour * 3_600_000 +
      (random() < 0.25 ? 3_600_000 - 3 * SECOND : Math.floor(random() * 3_500) * SECOND)
    const count = 2 + Math.floor(random() * 8)
    for (let e = 0; e < count; e++) {
      if (e > 0 && random() >= 0.6) at += (1 + Math.floor(random() * 90)) * SECOND
      const kind = random()
      const type = kind < 0.75 ? 'pageview' : kind < 0.9 ? 'custom_event' : 'outbound'
      rows.push(
        eventRow({
          event_id: uuid(),
          site_id: siteId,
          session_id: `session-${s}`,
          user_id: visitor,
          timestamp: new Date(at).toISOString(),
          type,
          pathname: pick(PAGES),
          event_name: type === 'custom_event' ? 'signup' : '',
          ...pick(REFERRALS),
          country: pick(['DE', 'US', 'FR']),
        }),
      )
    }
  }
  return rows
}

/** `EVENT_ORDER` in plain TypeScript: time, then the id's text. */
const byEventOrder = (a: EventRow, b: EventRow): number =>
  Date.parse(a.timestamp) - Date.parse(b.timestamp) ||
  (a.event_id < b.event_id ? -1 : a.event_id > b.event_id ? 1 : 0)

/** Each session's events in `EVENT_ORDER`, counted independently of the code under test. */
function sessionsOf(rows: readonly EventRow[]): EventRow[][] {
  const bySession = new Map<string, EventRow[]>()
  for (const row of rows) bySession.set(row.session_id, [...(bySession.get(row.session_id) ?? []), row])
  return [...bySession.values()].map((events) => [...events].sort(byEventOrder))
}

const countBy = (values: readonly string[]): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1
  return counts
}

/** What the reports must say, from the generated events alone. */
function expectedOf(rows: readonly EventRow[]) {
  const sessions = sessionsOf(rows)
  const pageviewsOf = (events: readonly EventRow[]) => events.filter((e) => e.type === 'pageview')
  const withPageviews = sessions.map(pageviewsOf).filter((pageviews) => pageviews.length > 0)
  const timeOnPage = new Map<string, number[]>()
  const journeys: string[] = []
  for (const pageviews of withPageviews) {
    for (let i = 0; i + 1 < pageviews.length; i++) {
      const [from, to] = [pageviews[i] as EventRow, pageviews[i + 1] as EventRow]
      const seconds = (Date.parse(to.timestamp) - Date.parse(from.timestamp)) / 1000
      timeOnPage.set(from.pathname, [...(timeOnPage.get(from.pathname) ?? []), seconds])
    }
    const sequence = pageviews
      .map((e) => e.pathname)
      .filter((pathname, i, all) => i === 0 || pathname !== all[i - 1])
      .slice(0, 4)
    if (sequence.length >= 2) journeys.push(JSON.stringify(sequence))
  }
  const entries = countBy(withPageviews.map((pageviews) => (pageviews[0] as EventRow).pathname))
  const exits = countBy(withPageviews.map((pageviews) => (pageviews.at(-1) as EventRow).pathname))
  // A funnel from '/' to '/pricing' (a '/pricing' pageview at or after the first '/'), by entry page.
  const funnel: Record<string, [number, number]> = {}
  for (const pageviews of withPageviews) {
    const home = pageviews.find((e) => e.pathname === '/')
    if (!home) continue
    const entry = (pageviews[0] as EventRow).pathname
    const reached = pageviews.some(
      (e) => e.pathname === '/pricing' && Date.parse(e.timestamp) >= Date.parse(home.timestamp),
    )
    const [one, two] = funnel[entry] ?? [0, 0]
    funnel[entry] = [one + 1, two + (reached ? 1 : 0)]
  }
  return {
    sessions: sessions.length,
    entries,
    exits,
    channels: countBy(sessions.map((events) => (events[0] as EventRow).channel)),
    referrers: countBy(
      sessions.map((events) => (events[0] as EventRow).referrer_domain).filter((domain) => domain !== ''),
    ),
    timeOnPage: Object.fromEntries(
      [...timeOnPage].map(([pathname, seconds]) => [
        pathname,
        seconds.reduce((sum, s) => sum + s, 0) / seconds.length,
      ]),
    ),
    journeys: countBy(journeys),
    funnel,
    /** The session with the most events on one second, in order. */
    tiedSession: sessions.reduce((best, events) => (tiesIn(events) > tiesIn(best) ? events : best)),
  }
}

const tiesIn = (events: readonly EventRow[]) =>
  events.filter((e, i) => i > 0 && e.timestamp === events[i - 1]?.timestamp).length

const sessionBreakdowns = ['entry_pages', 'exit_pages', 'channels', 'referrers'] as const

const scopeOf = (siteId: number, query: Record<string, string> = {}): ReportScope => ({
  siteId,
  params: parseQueryParams({ start_date: '2026-03-02', end_date: '2026-03-03', limit: '100', ...query }, 0),
})
/** A filter every event passes: the reports read raw events. */
const noOp = { filters: JSON.stringify([{ parameter: 'hostname', type: 'equals', value: ['example.com'] }]) }

/** Breakdown rows as value -> sessions. */
const sessionsByValue = (rows: readonly { value: string; sessions?: number }[]) =>
  Object.fromEntries(rows.map((row) => [row.value, row.sessions]))

describe('one order for a session events', () => {
  let t: TestInstance
  let owner: Awaited<ReturnType<TestInstance['seed']>>
  let copy: Site
  let exported: string[] = []
  const generated = generate(0)
  const expected = expectedOf(generated)

  const importInto = async (siteId: number, lines: readonly string[]) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${siteId}/import`,
      headers: { cookie: owner.cookie, 'content-type': 'application/x-ndjson' },
      payload: `${lines.join('\n')}\n`,
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({ imported: lines.length, rejectedCount: 0 })
  }

  beforeAll(async () => {
    t = await openTestInstance()
    owner = await t.seed()
    copy = await t.createSite(owner.cookie, owner.organizationId, 'copy.example.com')
    // Shuffled, in two requests: the store holds tied events in no particular order.
    const random = seeded(11)
    const lines = generated
      .map((row) => ({ line: JSON.stringify(toExportedEvent(row)), at: random() }))
      .sort((a, b) => a.at - b.at)
      .map(({ line }) => line)
    await importInto(owner.site.siteId, lines.slice(0, 600))
    await importInto(owner.site.siteId, lines.slice(600))
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${owner.site.siteId}/export`,
      headers: { cookie: owner.cookie },
    })
    expect(response.statusCode).toBe(200)
    exported = response.body.trimEnd().split('\n')
    await importInto(copy.siteId, exported)
  }, 60_000)
  afterAll(() => t?.close())

  it('generates many ties', () => {
    const tied = sessionsOf(generated).reduce((sum, events) => sum + tiesIn(events), 0)
    expect(tied).toBeGreaterThan(generated.length / 3)
    expect(tiesIn(expected.tiedSession)).toBeGreaterThanOrEqual(4)
  })

  it('keys the rollups by the order the raw reports use', () => {
    expect(ROLLED_EVENT_ORDER_KEY).toBe(EVENT_ORDER_KEY)
  })

  it('exports in (timestamp, event id) order, every id kept', () => {
    const ids = exported.map((line) => (JSON.parse(line) as { eventId: string }).eventId)
    expect(ids).toEqual([...generated].sort(byEventOrder).map((row) => row.event_id))
  })

  it('names the same entry and exit pages, channels and referrers rolled, raw, folded and on both sites', async () => {
    const events = t.services.events
    const check = async (label: string) => {
      for (const siteId of [owner.site.siteId, copy.siteId]) {
        const overview = await queryOverview(events, scopeOf(siteId))
        expect(overview.sessions).toBe(expected.sessions)
        expect(await queryOverview(events, scopeOf(siteId, noOp))).toEqual(overview)
        for (const name of sessionBreakdowns satisfies readonly BreakdownName[]) {
          const rolled = await queryBreakdown(events, scopeOf(siteId), name)
          const raw = await queryBreakdown(events, scopeOf(siteId, noOp), name)
          expect(raw, `${label} ${siteId} ${name}`).toEqual(rolled)
          const want = {
            entry_pages: expected.entries,
            exit_pages: expected.exits,
            channels: expected.channels,
            referrers: expected.referrers,
          }[name]
          expect(sessionsByValue(rolled.rows), `${label} ${siteId} ${name}`).toEqual(want)
        }
      }
    }
    await check('from the hours')
    await foldSessions(events, { closedBefore: Date.parse('2026-03-05T00:00:00Z'), settleMs: 0 })
    await check('folded')
  })

  it('counts entries, exits and time on page per path as the events order them, on both sites', async () => {
    const pages = async (siteId: number) => (await queryPageStats(t.services.events, scopeOf(siteId))).data
    const stats = await pages(owner.site.siteId)
    expect(await pages(copy.siteId)).toEqual(stats)
    for (const row of stats) {
      expect(row.entries, row.pathname).toBe(expected.entries[row.pathname] ?? 0)
      expect(row.exits, row.pathname).toBe(expected.exits[row.pathname] ?? 0)
      expect(row.time_on_page, row.pathname).toBeCloseTo(expected.timeOnPage[row.pathname] as number, 6)
    }
    expect(stats.map((row) => row.pathname).sort()).toEqual([...PAGES].sort())
  })

  it('follows the same journeys on both sites, filtered or not', async () => {
    const journeys = async (scope: ReportScope) =>
      Object.fromEntries(
        (await queryJourneys(t.services.events, scope, { steps: 4, limit: 200 })).data.map((row) => [
          JSON.stringify(row.path),
          row.sessions,
        ]),
      )
    for (const siteId of [owner.site.siteId, copy.siteId]) {
      expect(await journeys(scopeOf(siteId))).toEqual(expected.journeys)
      expect(await journeys(scopeOf(siteId, noOp))).toEqual(expected.journeys)
    }
  })

  it('breaks a funnel down by entry page, and filters it by one, alike on both sites', async () => {
    const steps = [
      { type: 'path', pathPattern: '/' },
      { type: 'path', pathPattern: '/pricing' },
    ] as const
    for (const siteId of [owner.site.siteId, copy.siteId]) {
      const report = await queryFunnelReport(t.services.events, scopeOf(siteId), steps, 'entry_page')
      const byEntry = Object.fromEntries(
        (report.breakdown?.values ?? []).map(({ value, steps }) => [
          value,
          steps.map((step) => step.sessions),
        ]),
      )
      expect(byEntry).toEqual(expected.funnel)
      for (const [entry, counts] of Object.entries(expected.funnel)) {
        const filtered = await queryFunnelReport(
          t.services.events,
          scopeOf(siteId, {
            filters: JSON.stringify([{ parameter: 'entry_page', type: 'equals', value: [entry] }]),
          }),
          steps,
        )
        expect(
          filtered.steps.map((step) => step.sessions),
          entry,
        ).toEqual(counts)
      }
    }
  })

  it('keeps the order of raw lines on one second, as an access log lists them', async () => {
    const log = await t.createSite(owner.cookie, owner.organizationId, 'log.example.com')
    const paths = ['/x1', '/x2', '/x3', '/x4', '/x5', '/x6', '/x7']
    const lines = paths.map((pathname, i) =>
      JSON.stringify({
        timestamp: `2026-03-04T09:00:0${i < 5 ? 0 : 1}Z`,
        pathname,
        hostname: 'log.example.com',
        user_id: 'one-visitor',
      }),
    )
    await importInto(log.siteId, lines)
    const scope = scopeOf(log.siteId, { start_date: '2026-03-04', end_date: '2026-03-04' })
    for (const query of [
      scope,
      scopeOf(log.siteId, {
        filters: JSON.stringify([{ parameter: 'hostname', type: 'equals', value: ['log.example.com'] }]),
        start_date: '2026-03-04',
        end_date: '2026-03-04',
      }),
    ]) {
      expect(
        (await queryBreakdown(t.services.events, query, 'entry_pages')).rows.map((r) => r.value),
      ).toEqual(['/x1'])
      expect((await queryBreakdown(t.services.events, query, 'exit_pages')).rows.map((r) => r.value)).toEqual(
        ['/x7'],
      )
    }
    expect((await queryJourneys(t.services.events, scope, { steps: 6, limit: 10 })).data).toEqual([
      { path: paths.slice(0, 6), sessions: 1 },
    ])
    const [session] = (await querySessionList(t.services.events, scope)).data
    const listed = await querySessionEvents(t.services.events, scope, String(session?.session_id))
    expect(listed.data.map((event) => event.pathname)).toEqual(paths)
  })

  it("lists a session's events in the same order on both sites", async () => {
    const session = expected.tiedSession
    for (const siteId of [owner.site.siteId, copy.siteId]) {
      const listed = await querySessionEvents(
        t.services.events,
        scopeOf(siteId),
        String(session[0]?.session_id),
      )
      expect(listed.data.map((event) => event.eventId)).toEqual(session.map((event) => event.event_id))
    }
  })
})
