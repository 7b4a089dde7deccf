/**
 * `properties.<key>` filters through the real app on SQLite + chDB: stats, a breakdown, funnels and
 * retention filtered by a custom property, each checked against a count of the generated events in
 * plain code; ties in value types (3, "3", 3.0), nested values as JSON text, presence, and the 400s.
 */
import type { FunnelReport } from '@pathlight/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const FIREFOX = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:124.0) Gecko/20100101 Firefox/124.0'
const DAY = 86_400_000
const T0 = Date.parse('2026-03-10T10:00:00.000Z')
const RANGE = 'start_date=2026-03-09&end_date=2026-03-29'

/** The properties of visitor i's events, by i % 6 (`3.0` is written as such into the JSON text). */
const VARIANTS: Record<string, unknown>[] = [
  { plan: 'pro', seats: 3 },
  { plan: 'free', seats: '3' },
  { plan: 'Pro', seats: 3.0 },
  { seats: 4, meta: { tier: 'gold' } },
  { plan: 'pro', meta: [1, 2] },
  {},
]

interface GeneratedEvent {
  user: string
  browser: 'Chrome' | 'Firefox'
  at: number
  path: string
  name: string | null
  props: Record<string, unknown>
}

/** Visitor i: a pageview of '/', a signup 10 s later; visitors 0-5 also a renewal a week later. */
const EVENTS: GeneratedEvent[] = []
for (let i = 0; i < 18; i++) {
  const user = `u${i}`
  const browser = i % 2 === 0 ? 'Chrome' : 'Firefox'
  const start = T0 + (i % 3) * DAY + i * 60_000
  const props = VARIANTS[i % 6] as Record<string, unknown>
  EVENTS.push({ user, browser, at: start, path: '/', name: null, props: {} })
  EVENTS.push({ user, browser, at: start + 10_000, path: '/app', name: 'signup', props })
  if (i < 6) EVENTS.push({ user, browser, at: start + 7 * DAY, path: '/app', name: 'renew', props })
}

/** One import line; a property 3.0 keeps its spelling in the JSON text. */
const lineOf = (event: GeneratedEvent): string =>
  JSON.stringify({
    timestamp: new Date(event.at).toISOString(),
    hostname: 'example.com',
    pathname: event.path,
    user_id: event.user,
    user_agent: event.browser === 'Chrome' ? CHROME : FIREFOX,
    ...(event.name === null ? {} : { type: 'custom_event', event_name: event.name, properties: event.props }),
  }).replace('"seats":3}', event.props === VARIANTS[2] ? '"seats":3.0}' : '"seats":3}')

/** A property's value as the filters compare it: canonical text, '' when absent. */
function canonical(value: unknown): string {
  if (value === undefined) return ''
  if (typeof value === 'string') return value
  return JSON.stringify(value)
}

type Predicate = (event: GeneratedEvent) => boolean

const CASES: { name: string; filter: object; passes: Predicate }[] = [
  {
    name: 'seats equals "3" (3, "3" and 3.0)',
    filter: { parameter: 'properties.seats', type: 'equals', value: ['3'] },
    passes: (e) => e.props.seats === 3 || e.props.seats === '3',
  },
  {
    name: 'seats equals "3.0" (the numbers only)',
    filter: { parameter: 'properties.seats', type: 'equals', value: ['3.0'] },
    passes: (e) => e.props.seats === 3,
  },
  {
    name: 'plan equals pro',
    filter: { parameter: 'properties.plan', type: 'equals', value: ['pro'] },
    passes: (e) => e.props.plan === 'pro',
  },
  {
    name: 'plan not_equals pro',
    filter: { parameter: 'properties.plan', type: 'not_equals', value: ['pro'] },
    passes: (e) => e.props.plan !== 'pro',
  },
  {
    name: 'plan contains PRO (any case)',
    filter: { parameter: 'properties.plan', type: 'contains', value: ['PRO'] },
    passes: (e) => canonical(e.props.plan).toLowerCase().includes('pro'),
  },
  {
    name: 'plan not_contains fr',
    filter: { parameter: 'properties.plan', type: 'not_contains', value: ['fr'] },
    passes: (e) => !canonical(e.props.plan).includes('fr'),
  },
  {
    name: 'plan is_set',
    filter: { parameter: 'properties.plan', type: 'is_set', value: [] },
    passes: (e) => 'plan' in e.props,
  },
  {
    name: 'plan is_not_set',
    filter: { parameter: 'properties.plan', type: 'is_not_set', value: [] },
    passes: (e) => !('plan' in e.props),
  },
  {
    name: 'meta equals its JSON text',
    filter: { parameter: 'properties.meta', type: 'equals', value: ['{"tier":"gold"}', '[1,2]'] },
    passes: (e) => e.props.meta !== undefined,
  },
  {
    name: 'meta contains gold',
    filter: { parameter: 'properties.meta', type: 'contains', value: ['gold'] },
    passes: (e) => canonical(e.props.meta).includes('gold'),
  },
]

const sessionOf = (e: GeneratedEvent) => `${e.user}:${Math.floor((e.at - T0) / DAY)}`
const weekOf = (at: number) => Math.floor((at - Date.parse('2026-03-09T00:00:00.000Z')) / (7 * DAY))

describe('property filters on SQLite + chDB', () => {
  let t: TestInstance
  let site: Site
  let cookie: string
  let apiKey: string

  const get = async (path: string, filter: object) => {
    const filters = encodeURIComponent(JSON.stringify([filter]))
    const url = `/api/sites/${site.siteId}/${path}${path.includes('?') ? '&' : '?'}${RANGE}&filters=${filters}`
    const response = await t.app.inject({ method: 'GET', url, headers: { cookie } })
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }

  beforeAll(async () => {
    t = await openTestInstance({ clock: () => Date.parse('2026-04-01T12:00:00.000Z') })
    const seeded = await t.seed()
    site = seeded.site
    cookie = seeded.cookie
    apiKey = seeded.apiKey
    const imported = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/import`,
      headers: { cookie, 'content-type': 'application/x-ndjson' },
      payload: `${EVENTS.map(lineOf).join('\n')}\n`,
    })
    expect(imported.statusCode, imported.body).toBe(200)
  }, 120_000)
  afterAll(() => t?.close())

  it('the generated events tie 3, "3" and 3.0 under one value', () => {
    expect(EVENTS.map(lineOf).filter((line) => line.includes('"seats":3.0}'))).toHaveLength(4)
    expect(new Set(EVENTS.filter(CASES[0]?.passes ?? (() => false)).map((e) => e.user)).size).toBe(9)
  })

  it.each(CASES)('stats and the browsers breakdown: $name', async ({ filter, passes }) => {
    const passing = EVENTS.filter(passes)
    const stats = await get('stats', filter)
    expect(stats.data.current.visitors).toBe(new Set(passing.map((e) => e.user)).size)
    const browsers = (await get('breakdown/browsers', filter)) as {
      data: { value: string; visitors: number }[]
    }
    const expected = ['Chrome', 'Firefox']
      .map((value) => ({
        value,
        visitors: new Set(passing.filter((e) => e.browser === value).map((e) => e.user)).size,
      }))
      .filter((row) => row.visitors > 0)
    const rows = browsers.data.map(({ value, visitors }) => ({ value, visitors }))
    expect(rows.sort((a, b) => a.value.localeCompare(b.value))).toEqual(expected)
  })

  it.each(CASES)('funnels: $name', async ({ filter, passes }) => {
    const filters = encodeURIComponent(JSON.stringify([filter]))
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/funnels/query?${RANGE}&filters=${filters}`,
      headers: { cookie },
      payload: {
        steps: [
          { type: 'path', pathPattern: '/' },
          { type: 'event', eventName: 'signup' },
        ],
      },
    })
    expect(response.statusCode, response.body).toBe(200)
    const report = (response.json() as { data: FunnelReport }).data
    // A session takes part when one of its events passes; its steps then need not pass.
    const kept = new Set(EVENTS.filter(passes).map(sessionOf))
    const sessions = [...kept].map((key) => EVENTS.filter((e) => sessionOf(e) === key))
    const home = sessions.filter((events) => events.some((e) => e.path === '/' && e.name === null))
    const signedUp = home.filter((events) => {
      const first = Math.min(...events.filter((e) => e.path === '/' && e.name === null).map((e) => e.at))
      return events.some((e) => e.name === 'signup' && e.at >= first)
    })
    expect(report.steps.map((step) => step.sessions)).toEqual([home.length, signedUp.length])
  })

  it.each(CASES)('retention: $name', async ({ filter, passes }) => {
    const answer = (await get('retention?period=week', filter)) as {
      data: { cohort: string; visitors: number; retained: number[] }[]
    }
    const weeksByUser = new Map<string, Set<number>>()
    for (const e of EVENTS.filter(passes)) {
      const weeks = weeksByUser.get(e.user) ?? new Set<number>()
      weeks.add(weekOf(e.at))
      weeksByUser.set(e.user, weeks)
    }
    const expected = [0, 1, 2]
      .map((week) => {
        const cohort = [...weeksByUser.values()].filter((weeks) => Math.min(...weeks) === week)
        const retained = Array.from(
          { length: 3 - week },
          (_, k) => cohort.filter((w) => w.has(week + k)).length,
        )
        return {
          cohort: new Date(Date.parse('2026-03-09') + week * 7 * DAY).toISOString().slice(0, 10),
          visitors: cohort.length,
          retained,
        }
      })
      .filter((row) => row.visitors > 0)
    expect(answer.data.filter((row) => row.visitors > 0)).toEqual(expected)
  })

  it('works on every event-level read: sessions, events, event names and the rest answer', async () => {
    const filter = { parameter: 'properties.seats', type: 'equals', value: ['3'] }
    const passing = EVENTS.filter((e) => e.props.seats === 3 || e.props.seats === '3')
    const sessions = await get('sessions?limit=100', filter)
    expect(sessions.meta.total).toBe(new Set(passing.map(sessionOf)).size)
    const listed = await get('events?limit=500', filter)
    expect(listed.data).toHaveLength(passing.length)
    const names = (await get('event-names', filter)) as { data: { name: string; events: number }[] }
    const byName = new Map<string, number>()
    for (const e of passing) byName.set(e.name as string, (byName.get(e.name as string) ?? 0) + 1)
    expect(new Map(names.data.map((row) => [row.name, row.events]))).toEqual(byName)
    for (const path of ['series?bucket=day', 'breakdown/pages', 'journeys', 'goals', 'web-vitals']) {
      const filters = encodeURIComponent(JSON.stringify([filter]))
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/sites/${site.siteId}/${path}${path.includes('?') ? '&' : '?'}${RANGE}&filters=${filters}`,
        headers: { cookie },
      })
      expect(response.statusCode, `${path}: ${response.body}`).toBe(200)
    }
    for (const path of ['stats', 'pages', 'sessions', 'events/names', 'retention']) {
      const filters = encodeURIComponent(JSON.stringify([filter]))
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/sites/${site.siteId}/${path}?${RANGE}&filters=${filters}`,
        headers: { authorization: `Bearer ${apiKey}` },
      })
      expect(response.statusCode, `${path}: ${response.body}`).toBe(200)
    }
  })

  it('refuses a bad key or a presence type elsewhere with a 400 naming the filter', async () => {
    const bad = [
      [{ parameter: 'properties.', type: 'equals', value: ['x'] }, 'property key must not be empty'],
      [{ parameter: `properties.${'k'.repeat(101)}`, type: 'equals', value: ['x'] }, 'at most 100'],
      [{ parameter: 'properties.a\u0007', type: 'equals', value: ['x'] }, 'printable'],
      [{ parameter: 'country', type: 'is_set', value: [] }, 'properties.<key> only'],
      [{ parameter: 'properties.plan', type: 'is_set', value: ['x'] }, 'value must be []'],
      [{ parameter: 'properties.plan', type: 'equals', value: [] }, 'at least one value'],
    ] as const
    for (const [filter, message] of bad) {
      const filters = encodeURIComponent(JSON.stringify([filter]))
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/sites/${site.siteId}/stats?${RANGE}&filters=${filters}`,
        headers: { cookie },
      })
      expect(response.statusCode, response.body).toBe(400)
      expect(response.body).toContain('filter 0')
      expect(response.body).toContain(message)
    }
  })
})
