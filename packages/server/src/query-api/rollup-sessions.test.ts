/**
 * The Query API's visit dimensions from the session rollups (migration 018's `first_country` and
 * `first_utm_*`), through the real app over imported events: sessions that change country and UTM
 * values after their first event, sessions crossing midnight, a session of one id with events on
 * three days (an import may do that), sessions crossing the range's edges, folded sessions and
 * sessions pending after a later import. Each answer, from the rollups (the route) and from raw events
 * (`rollups: false`), equals a count in plain code over the generated events: a session's visit value
 * is its first event's, and it counts in every bucket it has an event in.
 */
import crypto from 'node:crypto'
import { queryApiBody } from '@pathlight/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { eventRow } from '../storage/events/event-row.fixture.js'
import { foldSessions } from '../storage/events/fold-sessions.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { buildReportQuery } from './build-report-query.js'
import { planQuery } from './plan.js'
import { dayOf, midnightIn } from './query-api-events.fixture.js'
import { runQueryApi } from './run-query-api.js'

interface Generated {
  eventId: string
  at: number
  sessionId: string
  userId: string
  country: string
  utmSource: string
  utmMedium: string
  utmCampaign: string
}

const COUNTRIES = ['DE', 'US', 'FR', '']
const SOURCES = ['', 'newsletter', 'twitter']
const MEDIUMS = ['', 'email', 'social']
const CAMPAIGNS = ['', 'spring', 'launch']

/** mulberry32, so the events are the same in every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const START = Date.parse('2026-03-01T00:00:00Z')
const HOUR = 3_600_000

/**
 * `sessions` sessions over ten days, 1 to 5 events each 1 to 40 minutes apart (some cross an hour or
 * midnight), every event's visit values drawn anew (so a session's later events differ from its first).
 */
function generate(seed: number, sessions: number, offset: number): Generated[] {
  const next = seeded(seed)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T
  const out: Generated[] = []
  for (let s = 0; s < sessions; s++) {
    const sessionId = crypto.randomUUID()
    const userId = `visitor-${Math.floor(next() * 60)}`
    let at = START + offset + Math.floor(next() * 10 * 24 * 60) * 60_000 + Math.floor(next() * 59_000)
    const count = 1 + Math.floor(next() * 5)
    for (let e = 0; e < count; e++) {
      out.push({
        eventId: crypto.randomUUID(),
        at,
        sessionId,
        userId,
        country: pick(COUNTRIES),
        utmSource: pick(SOURCES),
        utmMedium: pick(MEDIUMS),
        utmCampaign: pick(CAMPAIGNS),
      })
      at += (1 + Math.floor(next() * 40)) * 60_000 + 137
    }
  }
  return out
}

/** One session of one id with events on three days, days apart (a gap the tracker would split). */
function spreadSession(): Generated[] {
  const sessionId = crypto.randomUUID()
  return [2, 4, 6].map((day, i) => ({
    eventId: crypto.randomUUID(),
    at: START + day * 86_400_000 + 15 * HOUR + i * 1000,
    sessionId,
    userId: 'visitor-spread',
    country: ['FR', 'DE', 'US'][i] as string,
    utmSource: ['twitter', 'newsletter', ''][i] as string,
    utmMedium: 'social',
    utmCampaign: 'launch',
  }))
}

const line = (e: Generated) =>
  JSON.stringify({
    eventId: e.eventId,
    timestamp: new Date(e.at).toISOString(),
    type: 'pageview',
    sessionId: e.sessionId,
    userId: e.userId,
    hostname: 'example.com',
    pathname: '/',
    querystring: '',
    pageTitle: '',
    referrer: '',
    referrerDomain: '',
    channel: 'Direct',
    utmSource: e.utmSource,
    utmMedium: e.utmMedium,
    utmCampaign: e.utmCampaign,
    utmTerm: '',
    utmContent: '',
    browser: 'Chrome',
    browserVersion: '1',
    operatingSystem: 'Windows',
    operatingSystemVersion: '1',
    deviceType: 'desktop',
    screenWidth: 1200,
    screenHeight: 800,
    language: 'en',
    country: e.country,
    region: '',
    city: '',
    lat: null,
    lon: null,
    eventName: '',
    properties: {},
    lcp: null,
    cls: null,
    inp: null,
    fcp: null,
    ttfb: null,
    errorMessage: '',
    errorStack: '',
    errorFile: '',
    errorLine: 0,
    errorColumn: 0,
  })

const first = generate(44, 300, 0).concat(spreadSession())
/**
 * Inserted after the import's fold, straight into the store (so their hours are pending): new
 * sessions, and a later event in some folded sessions, in another country and campaign.
 */
const later = [
  ...generate(45, 40, 3 * HOUR),
  ...[...new Map(first.map((e) => [e.sessionId, e])).values()].slice(0, 30).map((last) => ({
    ...last,
    eventId: crypto.randomUUID(),
    at: last.at + 5 * 60_000,
    country: 'EE',
    utmCampaign: 'late',
  })),
]
const all = [...first, ...later]

let t: TestInstance
let site: Site
let userId: string
let key: string

beforeAll(async () => {
  t = await openTestInstance({ clock: () => Date.parse('2026-03-20T12:00:00Z') })
  const seed = await t.seed()
  site = seed.site
  userId = seed.userId
  key = seed.apiKey
  const importLines = async (events: Generated[]) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/import`,
      headers: { cookie: seed.cookie, 'content-type': 'application/x-ndjson' },
      payload: `${events.map(line).join('\n')}\n`,
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({ imported: events.length, rejectedCount: 0 })
  }
  // The import folds the sessions it wrote (`http/import.ts`); fold again in case it left any.
  await importLines(first)
  await foldSessions(t.services.events, { settleMs: 0, closedBefore: Date.parse('2026-03-20T00:00:00Z') })
  const [summaries] = await t.services.events.query<{ n: number }>(
    'SELECT count() AS n FROM session_summaries WHERE site_id = {site:UInt32}',
    { site: site.siteId },
  )
  expect(Number(summaries?.n)).toBeGreaterThan(200)
  await t.services.events.insert(
    later.map((e) =>
      eventRow({
        event_id: e.eventId,
        site_id: site.siteId,
        timestamp: new Date(e.at).toISOString(),
        session_id: e.sessionId,
        user_id: e.userId,
        country: e.country,
        utm_source: e.utmSource,
        utm_medium: e.utmMedium,
        utm_campaign: e.utmCampaign,
      }),
    ),
  )
}, 120_000)
afterAll(() => t.close())

/** The visit value of a generated event by the Query API's dimension, as Plausible names it. */
function visitValueOf(e: Generated, dimension: string): string {
  const raw = {
    'visit:country': e.country,
    'visit:utm_source': e.utmSource,
    'visit:utm_medium': e.utmMedium,
    'visit:utm_campaign': e.utmCampaign,
  }[dimension]
  if (raw === undefined) throw new Error(dimension)
  return raw === '' ? '(not set)' : raw
}

/** The hour label of an instant in a zone, `YYYY-MM-DD hh:00:00`. */
const hourOf = (at: number, timeZone: string) => {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
  }).formatToParts(new Date(at))
  const get = (type: string) => parts.find((p) => p.type === type)?.value
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:00:00`
}

/** The week bucket of a day (`YYYY-MM-DD`): its Monday, or the range's first day when later. */
const weekOf = (day: string, firstDay: string) => {
  const at = Date.parse(`${day}T00:00:00Z`)
  const monday = new Date(at - ((new Date(at).getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10)
  return monday < firstDay ? firstDay : monday
}

/**
 * Visitors and visits by `dimensions` over `[from, to)` (its first day `firstDay` in the zone): each
 * session's events inside the range, its visit values its first event's (by time, then id), counted
 * in the bucket of each of its events.
 */
function expected(dimensions: string[], from: number, to: number, timeZone: string, firstDay: string) {
  const bySession = new Map<string, Generated[]>()
  for (const e of all) {
    if (e.at < from || e.at >= to) continue
    bySession.set(e.sessionId, [...(bySession.get(e.sessionId) ?? []), e])
  }
  const groups = new Map<string, { visitors: Set<string>; visits: Set<string> }>()
  for (const events of bySession.values()) {
    const sorted = [...events].sort((a, b) => a.at - b.at || a.eventId.localeCompare(b.eventId))
    const head = sorted[0] as Generated
    for (const e of sorted) {
      const key = JSON.stringify(
        dimensions.map((d) =>
          d === 'time:day'
            ? dayOf(new Date(e.at).toISOString(), timeZone)
            : d === 'time:week'
              ? weekOf(dayOf(new Date(e.at).toISOString(), timeZone), firstDay)
              : d === 'time:hour'
                ? hourOf(e.at, timeZone)
                : visitValueOf(head, d),
        ),
      )
      const group = groups.get(key) ?? { visitors: new Set(), visits: new Set() }
      group.visitors.add(e.userId)
      group.visits.add(e.sessionId)
      groups.set(key, group)
    }
  }
  return [...groups.entries()]
    .map(([k, g]) => ({ dimensions: JSON.parse(k) as string[], metrics: [g.visitors.size, g.visits.size] }))
    .sort((a, b) => JSON.stringify(a.dimensions).localeCompare(JSON.stringify(b.dimensions)))
}

const sorted = (results: { dimensions: string[]; metrics: number[] }[]) =>
  [...results].sort((a, b) => JSON.stringify(a.dimensions).localeCompare(JSON.stringify(b.dimensions)))

/** The range `[first day, last day]` in a zone (the last day may be a clock change's). */
function zonedRange(firstDay: string, lastDay: string, timeZone: string): [number, number] {
  const dayAfter = new Date(Date.parse(`${lastDay}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
  return [midnightIn(firstDay, timeZone), midnightIn(dayAfter, timeZone)]
}

/** The dimensions of each case, and the last day of its range (from 2026-03-03). */
const CASES: [string[], string][] = [
  [['time:day', 'visit:country'], '2026-03-08'],
  [['visit:utm_source'], '2026-03-08'],
  [['time:hour', 'visit:utm_campaign'], '2026-03-08'],
  [['visit:country', 'visit:utm_medium'], '2026-03-08'],
  [['time:day'], '2026-03-08'],
  // 2026-03-03 is a Tuesday: a first week from the range's first day, then the week of Monday 9 March.
  [['time:week', 'visit:country'], '2026-03-10'],
]
const FIRST_DAY = '2026-03-03'

describe('Query API visit dimensions from the session rollups', () => {
  for (const timeZone of ['UTC', 'America/New_York']) {
    for (const [dimensions, lastDay] of CASES) {
      it(`${dimensions.join(' × ')} (${timeZone}) equals the count, rolled and raw`, async () => {
        const body = {
          site_id: site.siteId,
          metrics: ['visitors', 'visits'],
          // Some sessions cross the range's edges; in New York the 8th is the clock change's day.
          date_range: [FIRST_DAY, lastDay],
          dimensions,
          time_zone: timeZone,
        }
        const parsed = queryApiBody.parse(body)
        const query = await buildReportQuery(parsed, {
          db: t.services.metadata.db,
          siteId: site.siteId,
          viewer: { userId },
          nowMs: Date.now(),
          firstEventDay: async () => null,
        })
        const [main] = planQuery(query).current
        expect(main?.source).toBe('rollup')
        expect(main?.compile(query, query.range).sql).toContain('FROM session_summaries')
        const want = expected(dimensions, ...zonedRange(FIRST_DAY, lastDay, timeZone), timeZone, FIRST_DAY)
        expect(want.length).toBeGreaterThanOrEqual(3)
        const routed = await t.app.inject({
          method: 'POST',
          url: '/api/v2/query',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          payload: body,
        })
        expect(routed.statusCode, routed.body).toBe(200)
        expect(sorted(routed.json().results)).toEqual(want)
        const deps = { db: t.services.metadata.db, events: t.services.events, clock: () => Date.now() }
        const raw = await runQueryApi(deps, { userId }, parsed, { rollups: false })
        expect(sorted(raw.results as { dimensions: string[]; metrics: number[] }[])).toEqual(want)
      })
    }
  }
})
