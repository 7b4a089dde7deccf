/**
 * The Query API through the real app (`POST /api/v2/query` with an API key) over events imported as
 * NDJSON: every figure is compared with a count in plain code over the generated lines
 * (`query-api-events.fixture.ts`), in UTC and in America/New_York, with nested filters, a saved
 * segment and a comparison; the same figures as v1's stats where both define them; and the
 * combinations Plausible refuses, refused with a 400 naming the field.
 */

import { queryApiBody } from '@pathlight/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { queryApiClient } from './query-api-client.fixture.js'
import {
  dayOf,
  exportedLine,
  type FixtureEvent,
  type FixtureSession,
  fixtureEvents,
  midnightIn,
  sessionsIn,
} from './query-api-events.fixture.js'
import { runQueryApi } from './run-query-api.js'

let t: TestInstance
let site: Site
let key: string
let cookie: string
let userId: string
const now = Date.parse('2026-03-20T12:00:00.000Z')
const events = fixtureEvents({
  seed: 7,
  startMs: Date.parse('2026-03-01T00:00:00Z'),
  days: 14,
  sessions: 400,
  visitors: 120,
})

beforeAll(async () => {
  t = await openTestInstance({ clock: () => now })
  const seeded = await t.seed()
  site = seeded.site
  key = seeded.apiKey
  cookie = seeded.cookie
  userId = seeded.userId
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/sites/${site.siteId}/import`,
    headers: { cookie, 'content-type': 'application/x-ndjson' },
    payload: `${events.map(exportedLine).join('\n')}\n`,
  })
  expect(response.statusCode, response.body).toBe(200)
  expect(response.json()).toMatchObject({ imported: events.length, rejectedCount: 0 })
})
afterAll(() => t.close())

const { query, answer } = queryApiClient(() => ({ t, key, siteId: site.siteId }))

const PLAUSIBLE_OS: Record<string, string> = { 'Mac OS': 'Mac', Linux: 'GNU/Linux' }
const browserName = (b: string) => (b === 'Mobile Safari' ? 'Safari' : b)
const uniq = <T>(list: readonly T[]) => new Set(list).size
const round = (x: number, d = 0) => Math.round(x * 10 ** d) / 10 ** d

/** Headline figures over sessions, by the documented rules. */
function headline(sessions: readonly FixtureSession[]) {
  const visits = sessions.length
  const durations = sessions.map((s) => {
    const times = s.events.map((e) => Date.parse(e.timestamp))
    return Math.floor((Math.max(...times) - Math.min(...times)) / 1000)
  })
  const pageviews = sessions.flatMap((s) => s.events).filter((e) => e.type === 'pageview').length
  return {
    visitors: uniq(sessions.map((s) => s.first.userId)),
    visits,
    pageviews,
    events: sessions.flatMap((s) => s.events).length,
    bounce_rate: round((100 * sessions.filter((s) => s.events.length === 1).length) / visits),
    visit_duration: round(durations.reduce((a, b) => a + b, 0) / visits),
    views_per_visit: round(pageviews / visits, 2),
  }
}

const range = (first: string, last: string, timeZone: string): [number, number] => [
  midnightIn(first, timeZone),
  midnightIn(new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10), timeZone),
]

describe('POST /api/v2/query', () => {
  for (const timeZone of ['UTC', 'America/New_York']) {
    it(`headline metrics over a week equal the independent count (${timeZone})`, async () => {
      const body = await answer({
        metrics: [
          'visitors',
          'visits',
          'pageviews',
          'events',
          'bounce_rate',
          'visit_duration',
          'views_per_visit',
        ],
        date_range: ['2026-03-02', '2026-03-08'],
        time_zone: timeZone,
      })
      const expected = headline(sessionsIn(events, ...range('2026-03-02', '2026-03-08', timeZone)))
      expect(body.results).toEqual([{ dimensions: [], metrics: Object.values(expected) }])
      expect(body.query.date_range[0]).toBe(
        timeZone === 'UTC' ? '2026-03-02T00:00:00Z' : '2026-03-02T00:00:00-05:00',
      )
    })

    it(`visitors and pageviews by day and country under nested filters (${timeZone})`, async () => {
      // Germany, or a blog page seen in anything but Firefox, as Plausible nests them.
      const filters = [
        [
          'or',
          [
            ['is', 'visit:country', ['DE']],
            [
              'and',
              [
                ['contains', 'event:page', ['/BLOG'], { case_sensitive: false }],
                ['not', ['is', 'visit:browser', ['Firefox']]],
              ],
            ],
          ],
        ],
      ]
      const body = await answer({
        metrics: ['visitors', 'pageviews'],
        date_range: ['2026-03-02', '2026-03-08'],
        dimensions: ['time:day', 'visit:country'],
        filters,
        time_zone: timeZone,
        include: { time_labels: true, total_rows: true },
      })
      const sessions = sessionsIn(events, ...range('2026-03-02', '2026-03-08', timeZone))
      const passes = (s: FixtureSession, e: FixtureEvent) =>
        s.first.country === 'DE' ||
        (e.pathname.toLowerCase().includes('/blog') && browserName(s.first.browser) !== 'Firefox')
      const groups = new Map<string, { visitors: Set<string>; pageviews: number }>()
      for (const s of sessions) {
        for (const e of s.events) {
          if (!passes(s, e)) continue
          const k = JSON.stringify([dayOf(e.timestamp, timeZone), s.first.country])
          const g = groups.get(k) ?? { visitors: new Set(), pageviews: 0 }
          g.visitors.add(e.userId)
          if (e.type === 'pageview') g.pageviews++
          groups.set(k, g)
        }
      }
      const expected = [...groups.entries()]
        .map(([k, g]) => ({ dimensions: JSON.parse(k), metrics: [g.visitors.size, g.pageviews] }))
        .sort(
          (a, b) =>
            a.dimensions[0].localeCompare(b.dimensions[0]) || a.dimensions[1].localeCompare(b.dimensions[1]),
        )
      expect(expected.length).toBeGreaterThan(7)
      expect(body.results).toEqual(expected)
      expect(body.meta.total_rows).toBe(expected.length)
      expect(body.meta.time_labels).toEqual(
        ['02', '03', '04', '05', '06', '07', '08'].map((d) => `2026-03-${d}`),
      )
    })
  }

  it('compares with the previous period per device, and pages the rows', async () => {
    const timeZone = 'America/New_York'
    const body = await answer({
      metrics: ['visitors', 'bounce_rate'],
      date_range: ['2026-03-08', '2026-03-14'],
      dimensions: ['visit:device'],
      order_by: [['visit:device', 'asc']],
      include: { comparisons: { mode: 'previous_period' } },
      time_zone: timeZone,
    })
    const figures = (sessions: FixtureSession[], device: string) => {
      const mine = sessions.filter((s) => s.first.deviceType === device)
      return [
        uniq(mine.map((s) => s.first.userId)),
        round((100 * mine.filter((s) => s.events.length === 1).length) / mine.length),
      ]
    }
    const current = sessionsIn(events, ...range('2026-03-08', '2026-03-14', timeZone))
    const previous = sessionsIn(events, ...range('2026-03-01', '2026-03-07', timeZone))
    const expected = ['desktop', 'mobile'].map((device) => {
      const [v, b] = figures(current, device) as [number, number]
      const [pv, pb] = figures(previous, device) as [number, number]
      const name = device === 'desktop' ? 'Desktop' : 'Mobile'
      return {
        dimensions: [name],
        metrics: [v, b],
        comparison: {
          dimensions: [name],
          metrics: [pv, pb],
          change: [pv === 0 ? 100 : Math.round(((v - pv) / pv) * 100), b - pb],
        },
      }
    })
    expect(body.results).toEqual(expected)
    expect(body.meta.comparison_date_range).toEqual([
      '2026-03-01T00:00:00-05:00',
      '2026-03-07T23:59:59-05:00',
    ])

    const paged = await answer({
      metrics: ['visitors'],
      date_range: ['2026-03-08', '2026-03-14'],
      dimensions: ['visit:device'],
      order_by: [['visit:device', 'asc']],
      pagination: { limit: 1, offset: 1 },
      time_zone: timeZone,
    })
    expect(paged.results).toEqual([{ dimensions: ['Mobile'], metrics: [expected[1]?.metrics[0]] }])
  })

  it('by page: bounce rate of the sessions entering there, the share of visitors, names as Plausible', async () => {
    const body = await answer({
      metrics: ['visitors', 'bounce_rate', 'percentage'],
      date_range: ['2026-03-01', '2026-03-14'],
      dimensions: ['event:page'],
      order_by: [['event:page', 'asc']],
    })
    const sessions = sessionsIn(events, ...range('2026-03-01', '2026-03-14', 'UTC'))
    const total = uniq(sessions.map((s) => s.first.userId))
    const pages = [...new Set(events.filter((e) => e.type === 'pageview').map((e) => e.pathname))].sort()
    const expected = pages.map((page) => {
      const visitors = uniq(
        sessions
          .flatMap((s) => s.events)
          .filter((e) => e.pathname === page)
          .map((e) => e.userId),
      )
      const entered = sessions.filter((s) => s.entryPage === page)
      const bounce =
        entered.length === 0
          ? null
          : round((100 * entered.filter((s) => s.events.length === 1).length) / entered.length)
      return { dimensions: [page], metrics: [visitors, bounce, round((100 * visitors) / total, 1)] }
    })
    expect(body.results).toEqual(expected)

    const os = await answer({
      metrics: ['visits'],
      date_range: ['2026-03-01', '2026-03-14'],
      dimensions: ['visit:os', 'visit:source'],
    })
    const visits = new Map<string, number>()
    for (const s of sessions) {
      const k = JSON.stringify([
        PLAUSIBLE_OS[s.first.operatingSystem] ?? s.first.operatingSystem,
        s.first.referrerDomain || 'Direct / None',
      ])
      visits.set(k, (visits.get(k) ?? 0) + 1)
    }
    expect(
      Object.fromEntries(
        os.results.map((r: { dimensions: string[]; metrics: number[] }) => [
          JSON.stringify(r.dimensions),
          r.metrics[0],
        ]),
      ),
    ).toEqual(Object.fromEntries(visits))
  })

  it('time on page: the mean seconds to the next pageview of the session, by page', async () => {
    const body = await answer({
      metrics: ['time_on_page', 'pageviews'],
      date_range: ['2026-03-01', '2026-03-14'],
      dimensions: ['event:page'],
      order_by: [['time_on_page', 'desc']],
    })
    const gaps = new Map<string, number[]>()
    for (const s of sessionsIn(events, ...range('2026-03-01', '2026-03-14', 'UTC'))) {
      const views = s.events.filter((e) => e.type === 'pageview')
      views.forEach((view, i) => {
        const next = views[i + 1]
        if (!gaps.has(view.pathname)) gaps.set(view.pathname, [])
        if (next)
          gaps.get(view.pathname)?.push((Date.parse(next.timestamp) - Date.parse(view.timestamp)) / 1000)
      })
    }
    const pageviews = (page: string) =>
      events.filter((e) => e.type === 'pageview' && e.pathname === page).length
    const expected = [...gaps.entries()]
      .map(([page, list]) => ({
        dimensions: [page],
        metrics: [
          list.length === 0 ? null : Math.round(list.reduce((a, b) => a + b, 0) / list.length),
          pageviews(page),
        ],
      }))
      .sort((a, b) => (b.metrics[0] ?? -1) - (a.metrics[0] ?? -1))
    expect(body.results.map((r: { metrics: number[] }) => r.metrics[0])).toEqual(
      expected.map((r) => r.metrics[0]),
    )
    expect(new Set(body.results.map((r: unknown) => JSON.stringify(r)))).toEqual(
      new Set(expected.map((r) => JSON.stringify(r))),
    )
  })

  it('custom properties: (none) for a missing key, contains_not leaves those events out; a saved segment', async () => {
    const body = await answer({
      metrics: ['events'],
      date_range: ['2026-03-01', '2026-03-14'],
      dimensions: ['event:props:plan'],
      filters: [['is', 'event:name', ['signup']]],
      order_by: [['event:props:plan', 'asc']],
    })
    const signups = events.filter((e) => e.type === 'custom_event')
    const count = (plan?: string) => signups.filter((e) => e.properties.plan === plan).length
    expect(body.results).toEqual([
      { dimensions: ['(none)'], metrics: [count(undefined)] },
      { dimensions: ['free'], metrics: [count('free')] },
      { dimensions: ['pro'], metrics: [count('pro')] },
    ])
    const notPro = await answer({
      metrics: ['events'],
      date_range: ['2026-03-01', '2026-03-14'],
      filters: [['contains_not', 'event:props:plan', ['pro']]],
    })
    expect(notPro.results[0].metrics).toEqual([count('free')])

    const created = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/segments`,
      headers: { cookie, 'content-type': 'application/json' },
      payload: {
        name: 'Germans',
        visibility: 'site',
        filters: [{ parameter: 'country', type: 'equals', value: ['DE'] }],
      },
    })
    expect(created.statusCode, created.body).toBe(201)
    const segmentId = created.json().segmentId ?? created.json().data?.segmentId
    const segmented = await answer({
      metrics: ['visits'],
      date_range: ['2026-03-01', '2026-03-14'],
      filters: [['is', 'segment', [segmentId]]],
    })
    const sessions = sessionsIn(events, ...range('2026-03-01', '2026-03-14', 'UTC'))
    expect(segmented.results[0].metrics).toEqual([sessions.filter((s) => s.first.country === 'DE').length])
  })

  it('goals: conversions per goal, conversion rate per visitor, group conversion rate per country', async () => {
    for (const goal of [
      { name: 'Signup', goalType: 'event', config: { eventName: 'signup' } },
      { name: 'Visit /pricing', goalType: 'path', config: { pathPattern: '/pricing' } },
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/sites/${site.siteId}/goals`,
        headers: { cookie, 'content-type': 'application/json' },
        payload: goal,
      })
      expect(response.statusCode, response.body).toBe(201)
    }
    const [from, to] = range('2026-03-01', '2026-03-14', 'UTC')
    const inRange = events.filter((e) => Date.parse(e.timestamp) >= from && Date.parse(e.timestamp) < to)
    const all = uniq(inRange.map((e) => e.userId))
    const signups = inRange.filter((e) => e.type === 'custom_event' && e.eventName === 'signup')
    const pricing = inRange.filter((e) => e.type === 'pageview' && e.pathname === '/pricing')
    const figures = (list: FixtureEvent[]) => [
      uniq(list.map((e) => e.userId)),
      list.length,
      round((100 * uniq(list.map((e) => e.userId))) / all, 2),
    ]
    const body = await answer({
      metrics: ['visitors', 'events', 'conversion_rate'],
      date_range: ['2026-03-01', '2026-03-14'],
      dimensions: ['event:goal'],
      order_by: [['event:goal', 'asc']],
    })
    expect(body.results).toEqual([
      { dimensions: ['Signup'], metrics: figures(signups) },
      { dimensions: ['Visit /pricing'], metrics: figures(pricing) },
    ])

    const byCountry = await answer({
      metrics: ['visitors', 'group_conversion_rate'],
      date_range: ['2026-03-01', '2026-03-14'],
      dimensions: ['visit:country'],
      filters: [['is', 'event:goal', ['signup'], { case_sensitive: false }]],
      order_by: [['visit:country', 'asc']],
    })
    const sessions = sessionsIn(events, from, to)
    const countries = [...new Set(sessions.map((s) => s.first.country))].sort()
    const expected = countries.flatMap((country) => {
      const mine = sessions.filter((s) => s.first.country === country)
      const converted = uniq(
        mine.filter((s) => s.events.some((e) => e.eventName === 'signup')).map((s) => s.first.userId),
      )
      const visitors = uniq(mine.map((s) => s.first.userId))
      return converted === 0
        ? []
        : [{ dimensions: [country], metrics: [converted, round((100 * converted) / visitors, 2)] }]
    })
    expect(byCountry.results).toEqual(expected)
  })

  for (const timeZone of ['UTC', 'America/New_York']) {
    it(`daily visitors and visits by country, from the rollups, equal the count (${timeZone})`, async () => {
      const body = await answer({
        metrics: ['visitors', 'visits'],
        date_range: ['2026-03-02', '2026-03-12'],
        dimensions: ['time:day', 'visit:country_name'],
        time_zone: timeZone,
      })
      const sessions = sessionsIn(events, ...range('2026-03-02', '2026-03-12', timeZone))
      const names: Record<string, string> = {
        DE: 'Germany',
        US: 'United States',
        FR: 'France',
        EE: 'Estonia',
      }
      const groups = new Map<string, { visitors: Set<string>; visits: Set<string> }>()
      for (const s of sessions) {
        for (const e of s.events) {
          const k = JSON.stringify([dayOf(e.timestamp, timeZone), names[s.first.country]])
          const g = groups.get(k) ?? { visitors: new Set(), visits: new Set() }
          g.visitors.add(e.userId)
          g.visits.add(e.sessionId)
          groups.set(k, g)
        }
      }
      const expected = [...groups.entries()]
        .map(([k, g]) => ({ dimensions: JSON.parse(k), metrics: [g.visitors.size, g.visits.size] }))
        .sort(
          (a, b) =>
            a.dimensions[0].localeCompare(b.dimensions[0]) || a.dimensions[1].localeCompare(b.dimensions[1]),
        )
      expect(body.results).toEqual(expected)
      const raw = await runQueryApi(
        { db: t.services.metadata.db, events: t.services.events, clock: () => now },
        { userId },
        queryApiBody.parse({
          site_id: site.siteId,
          metrics: ['visitors', 'visits'],
          date_range: ['2026-03-02', '2026-03-12'],
          dimensions: ['time:day', 'visit:country_name'],
          time_zone: timeZone,
        }),
        { rollups: false },
      )
      expect(raw.results).toEqual(expected)
    })
  }

  it("equals v1's stats where both define the figure", async () => {
    const v1 = await t.app.inject({
      method: 'GET',
      url: `/api/v1/sites/${site.siteId}/stats?start_date=2026-03-02&end_date=2026-03-08&time_zone=America/New_York`,
      headers: { authorization: `Bearer ${key}` },
    })
    expect(v1.statusCode, v1.body).toBe(200)
    const { current } = v1.json().data
    const body = await answer({
      metrics: ['visitors', 'visits', 'pageviews'],
      date_range: ['2026-03-02', '2026-03-08'],
      time_zone: 'America/New_York',
    })
    expect(body.results[0].metrics).toEqual([current.visitors, current.sessions, current.pageviews])
  })

  it('refuses what Plausible refuses, naming the field', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { metrics: ['views_per_visit'], date_range: '7d', filters: [['is', 'event:page', ['/']]] },
        /metrics: .*views_per_visit/,
      ],
      [
        { metrics: ['bounce_rate'], date_range: '7d', dimensions: ['event:name'] },
        /metrics: session metric bounce_rate/,
      ],
      [{ metrics: ['visitors'], date_range: '7d', include: { time_labels: true } }, /include\.time_labels/],
      [{ metrics: ['visitors'], date_range: '7d', order_by: [['pageviews', 'desc']] }, /order_by/],
      [{ metrics: ['nope'], date_range: '7d' }, /metrics/],
      [{ metrics: ['visitors'], date_range: '8d' }, /date_range/],
      [{ metrics: ['visitors'], date_range: ['2026-03-02', '2026-03-01'] }, /date_range/],
      [
        { metrics: ['visitors'], date_range: '7d', filters: [['matches', 'event:page', ['(?<=a)b']]] },
        /filters/,
      ],
      [{ metrics: ['visitors'], date_range: '7d', filters: [['and', []]] }, /filters/],
      [{ metrics: ['conversion_rate'], date_range: '7d' }, /conversion_rate/],
      [{ metrics: ['time_on_page'], date_range: '7d' }, /time_on_page needs an event:page/],
      [{ metrics: ['revenue:eur'], date_range: '7d' }, /metrics/],
      [{ metrics: ['scroll_depth'], date_range: '7d' }, /scroll_depth needs an event:page/],
      [{ metrics: ['visitors'], date_range: '7d', time_zone: 'Mars/Olympus' }, /time_zone/],
    ]
    for (const [body, message] of cases) {
      const response = await query(body)
      expect(response.statusCode, JSON.stringify(body)).toBe(400)
      expect(response.json().error, JSON.stringify(body)).toMatch(message)
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/v2/query',
      payload: { site_id: site.siteId, metrics: ['visitors'], date_range: 'day' },
    })
    expect(anonymous.statusCode).toBe(401)
  })
})
