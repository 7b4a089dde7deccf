/**
 * The Query API's engagement and revenue metrics through the real app, over generated lines imported
 * as NDJSON: pageviews with `engagement` events (scroll depth, engaged milliseconds) and custom events
 * carrying revenue in EUR and, later, USD. `scroll_depth`, `engaged_time`, `revenue:<CUR>`,
 * `total_revenue` and `average_revenue` are compared with counts in plain code over the lines, in UTC
 * and Asia/Kolkata (a half-hour offset), with a visit filter; the refusals are 400s naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { queryApiClient } from './query-api-client.fixture.js'
import { dayOf, exportedLine, fixtureEvents, midnightIn } from './query-api-events.fixture.js'

const NOW = Date.parse('2026-03-20T12:00:00.000Z')
const base = fixtureEvents({
  seed: 5,
  startMs: Date.parse('2026-03-01T00:00:00Z'),
  days: 10,
  sessions: 200,
  visitors: 80,
})

/** One line as the counts read it. */
interface Line {
  timestamp: string
  type: string
  sessionId: string
  userId: string
  pathname: string
  country: string
  properties: Record<string, string | number>
}

const lines: Line[] = []
for (const [i, event] of base.entries()) {
  const line = { ...event, properties: { ...event.properties } as Record<string, string | number> }
  if (event.type === 'custom_event') {
    const usd = event.timestamp >= '2026-03-08' && i % 2 === 1
    line.properties.revenue = `${10 + (i % 7) * 3}.${String((i * 13) % 100).padStart(2, '0')}`
    line.properties.currency = usd ? 'usd' : 'EUR'
  }
  lines.push(line)
  if (event.type !== 'pageview' || i % 3 === 0) continue
  const at = Date.parse(event.timestamp)
  const engagement = (offsetMs: number, depth: number, ms: number): Line => ({
    ...event,
    timestamp: new Date(at + offsetMs).toISOString(),
    type: 'engagement',
    properties: { scroll_depth: depth, engagement_time: ms },
  })
  lines.push(engagement(1000, (i * 37) % 101, 1000 + ((i * 733) % 20_000)))
  if (i % 5 === 0) lines.push(engagement(2000, (i * 53) % 101, 500))
}

let t: TestInstance
let site: Site
let key: string

beforeAll(async () => {
  t = await openTestInstance({ clock: () => NOW })
  const seeded = await t.seed()
  site = seeded.site
  key = seeded.apiKey
  const payload = lines.map((line, i) => {
    const exported = JSON.parse(exportedLine({ ...(base[0] as (typeof base)[0]), ...line } as never))
    return JSON.stringify({
      ...exported,
      eventId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      type: line.type,
      eventName: line.type === 'custom_event' ? 'signup' : '',
      properties: line.properties,
    })
  })
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/sites/${site.siteId}/import`,
    headers: { cookie: seeded.cookie, 'content-type': 'application/x-ndjson' },
    payload: `${payload.join('\n')}\n`,
  })
  expect(response.statusCode, response.body).toBe(200)
  expect(response.json()).toMatchObject({ imported: lines.length, rejectedCount: 0 })
}, 120_000)
afterAll(() => t?.close())

const { query, answer } = queryApiClient(() => ({ t, key, siteId: site.siteId }))

const inRange = (first: string, last: string, timeZone: string) => {
  const from = midnightIn(first, timeZone)
  const next = new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
  const to = midnightIn(next, timeZone)
  return lines.filter((l) => Date.parse(l.timestamp) >= from && Date.parse(l.timestamp) < to)
}

/** Per page: the mean of each session's deepest scroll there, and the engaged seconds. */
function engagementByPage(within: readonly Line[]) {
  const deepest = new Map<string, number>()
  const ms = new Map<string, number>()
  for (const line of within) {
    if (line.type !== 'engagement') continue
    const key = JSON.stringify([line.sessionId, line.pathname])
    deepest.set(key, Math.max(deepest.get(key) ?? 0, Number(line.properties.scroll_depth)))
    ms.set(line.pathname, (ms.get(line.pathname) ?? 0) + Number(line.properties.engagement_time))
  }
  const depths = new Map<string, number[]>()
  for (const [key, depth] of deepest) {
    const [, page] = JSON.parse(key) as [string, string]
    depths.set(page, [...(depths.get(page) ?? []), depth])
  }
  return new Map(
    [...depths].map(([page, list]) => [
      page,
      [Math.round(list.reduce((a, b) => a + b, 0) / list.length), Math.round((ms.get(page) ?? 0) / 1000)],
    ]),
  )
}

/** Revenue per currency: cents summed and the number of revenue events. */
function revenueOf(within: readonly Line[]) {
  const byCurrency = new Map<string, { cents: number; n: number }>()
  for (const line of within) {
    if (line.type !== 'custom_event') continue
    const currency = String(line.properties.currency).toUpperCase()
    const [whole, cents] = String(line.properties.revenue).split('.')
    const seen = byCurrency.get(currency) ?? { cents: 0, n: 0 }
    seen.cents += Number(whole) * 100 + Number(cents)
    seen.n += 1
    byCurrency.set(currency, seen)
  }
  return byCurrency
}

describe('POST /api/v2/query: engagement and revenue metrics', () => {
  for (const timeZone of ['UTC', 'Asia/Kolkata']) {
    it(`scroll_depth and engaged_time by page, with and without a visit filter (${timeZone})`, async () => {
      const within = inRange('2026-03-02', '2026-03-07', timeZone)
      for (const filtered of [false, true]) {
        const body = await answer({
          metrics: ['pageviews', 'scroll_depth', 'engaged_time'],
          date_range: ['2026-03-02', '2026-03-07'],
          dimensions: ['event:page'],
          time_zone: timeZone,
          ...(filtered && { filters: [['is', 'visit:country', ['DE']]] }),
        })
        const kept = filtered ? within.filter((l) => l.country === 'DE') : within
        const expected = engagementByPage(kept)
        const pageviews = new Map<string, number>()
        for (const line of kept) {
          if (line.type === 'pageview') pageviews.set(line.pathname, (pageviews.get(line.pathname) ?? 0) + 1)
        }
        expect(expected.size).toBeGreaterThan(2)
        const got = new Map(
          body.results.map((r: { dimensions: string[]; metrics: number[] }) => [r.dimensions[0], r.metrics]),
        )
        expect(got).toEqual(
          new Map([...pageviews].map(([page, n]) => [page, [n, ...(expected.get(page) ?? [null, null])]])),
        )
      }
    })

    it(`revenue per currency by day, and the totals in the one currency (${timeZone})`, async () => {
      const byDay = await answer({
        metrics: ['revenue:EUR', 'revenue:USD'],
        date_range: ['2026-03-01', '2026-03-10'],
        dimensions: ['time:day'],
        time_zone: timeZone,
      })
      const days = new Map<string, Line[]>()
      for (const line of inRange('2026-03-01', '2026-03-10', timeZone)) {
        const day = dayOf(line.timestamp, timeZone)
        days.set(day, [...(days.get(day) ?? []), line])
      }
      for (const row of byDay.results as { dimensions: string[]; metrics: number[] }[]) {
        const revenue = revenueOf(days.get(row.dimensions[0] as string) ?? [])
        expect(row.metrics, row.dimensions[0]).toEqual([
          (revenue.get('EUR')?.cents ?? 0) / 100,
          (revenue.get('USD')?.cents ?? 0) / 100,
        ])
      }
      expect(byDay.results.some((r: { metrics: number[] }) => (r.metrics[1] ?? 0) > 0)).toBe(true)

      const early = revenueOf(inRange('2026-03-01', '2026-03-05', timeZone)).get('EUR') ?? { cents: 0, n: 0 }
      expect(early.n).toBeGreaterThan(3)
      const single = await answer({
        metrics: ['total_revenue', 'average_revenue', 'events'],
        date_range: ['2026-03-01', '2026-03-05'],
        filters: [['is', 'event:name', ['signup']]],
        time_zone: timeZone,
      })
      expect(single.results).toEqual([
        { dimensions: [], metrics: [early.cents / 100, Math.round(early.cents / early.n) / 100, early.n] },
      ])
      expect(single.meta.revenue_currency).toBe('EUR')

      const mixed = await answer({
        metrics: ['total_revenue', 'average_revenue', 'revenue:USD'],
        date_range: ['2026-03-01', '2026-03-10'],
        time_zone: timeZone,
      })
      const usd = revenueOf(inRange('2026-03-01', '2026-03-10', timeZone)).get('USD')
      expect(mixed.results).toEqual([{ dimensions: [], metrics: [null, null, (usd?.cents ?? 0) / 100] }])
      expect(mixed.meta.metric_warnings.total_revenue.code).toBe('no_single_revenue_currency')
    })
  }

  it('refuses scroll_depth without a page and an unknown metric, naming the field', async () => {
    const noPage = await query({ metrics: ['scroll_depth'], date_range: '7d' })
    expect(noPage.statusCode).toBe(400)
    expect(noPage.json().error).toContain('metrics')
    expect(noPage.json().error).toContain('scroll_depth needs an event:page filter or dimension')
    const withFilter = await answer({
      metrics: ['scroll_depth'],
      date_range: ['2026-03-01', '2026-03-10'],
      filters: [['is', 'event:page', ['/pricing']]],
    })
    const expected = engagementByPage(inRange('2026-03-01', '2026-03-10', 'UTC')).get('/pricing')
    expect(withFilter.results).toEqual([{ dimensions: [], metrics: [expected?.[0] ?? null] }])
    const unknown = await query({ metrics: ['revenue:eur'], date_range: '7d' })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().error).toContain('metrics')
  })
})
