/**
 * The public REST API v1 through the real app: exact numbers on a hand-computable data set (including
 * the previous-period comparison), key scoping, the envelope and the rate limit with its headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../../sites/site.js'
import { openTestInstance, type TestInstance } from '../../testing/test-instance.js'

let t: TestInstance
let key: string
let cookie: string
let site: Site
let otherSite: Site
let now = Date.parse('2026-06-10T12:00:00.000Z')

beforeAll(async () => {
  t = await openTestInstance({ clock: () => now })
  const seeded = await t.seed()
  key = seeded.apiKey
  cookie = seeded.cookie
  site = seeded.site
  const outsider = await t.signUp()
  otherSite = await t.createSite(
    outsider.cookie,
    await t.createOrganization(outsider.cookie),
    'other.example',
  )

  const at = async (iso: string, body: Record<string, unknown>) => {
    now = Date.parse(iso)
    const response = await t.track(site, body, { apiKey: key })
    expect(response.statusCode).toBe(200)
  }
  // The day before (the previous period of a one-day range): one visitor, two pageviews 60 s apart.
  await at('2026-06-09T08:00:00.000Z', { user_id: 'p1', pathname: '/' })
  await at('2026-06-09T08:01:00.000Z', { user_id: 'p1', pathname: '/docs' })
  // The day: a views / then /pricing (30 s later) and signs up paying 10 EUR (10 s later);
  // b views / and leaves; c views /pricing and buys for "5.5" USD 20 s later.
  await at('2026-06-10T09:00:00.000Z', { user_id: 'a', pathname: '/' })
  await at('2026-06-10T09:00:30.000Z', { user_id: 'a', pathname: '/pricing' })
  await at('2026-06-10T09:00:40.000Z', {
    user_id: 'a',
    type: 'custom_event',
    event_name: 'signup',
    pathname: '/pricing',
    properties: '{"revenue":10,"currency":"eur"}',
  })
  await at('2026-06-10T10:00:00.000Z', { user_id: 'b', pathname: '/' })
  await at('2026-06-10T11:00:00.000Z', { user_id: 'c', pathname: '/pricing' })
  await at('2026-06-10T11:00:20.000Z', {
    user_id: 'c',
    type: 'custom_event',
    event_name: 'purchase',
    pathname: '/pricing',
    properties: '{"revenue":"5.5","currency":"USD"}',
  })
  await t.services.buffer.flush()
  now = Date.parse('2026-06-10T12:00:00.000Z')
})
afterAll(() => t.close())

const v1 = (url: string, headers: Record<string, string> = { authorization: `Bearer ${key}` }) =>
  t.app.inject({ method: 'GET', url, headers })
const day = 'start_date=2026-06-10&end_date=2026-06-10'

describe('v1 reports', () => {
  it("GET /api/v1/sites lists the key owner's sites only", async () => {
    const response = await v1('/api/v1/sites')
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(body.data.map((s: Site) => s.siteId)).toEqual([site.siteId])
    expect(body.meta).toEqual({ total: 1 })
  })

  it('stats: totals, the previous period, the change and a filled daily series', async () => {
    const body = (
      await v1(`/api/v1/sites/${site.siteId}/stats?start_date=2026-06-09&end_date=2026-06-10&bucket=day`)
    ).json()
    expect(body.meta).toMatchObject({
      previousStartDate: '2026-06-07',
      previousEndDate: '2026-06-08',
      bucket: 'day',
    })
    expect(body.data.series).toEqual([
      { time: '2026-06-09T00:00:00.000Z', visitors: 1, sessions: 1, pageviews: 2 },
      { time: '2026-06-10T00:00:00.000Z', visitors: 3, sessions: 3, pageviews: 4 },
    ])
    const oneDay = (await v1(`/api/v1/sites/${site.siteId}/stats?${day}`)).json().data
    expect(oneDay.current).toEqual({
      visitors: 3,
      sessions: 3,
      pageviews: 4,
      bounce_rate: 1 / 3,
      session_duration: 20,
      pages_per_session: 4 / 3,
      events: 2,
    })
    expect(oneDay.previous).toEqual({
      visitors: 1,
      sessions: 1,
      pageviews: 2,
      bounce_rate: 0,
      session_duration: 60,
      pages_per_session: 2,
      events: 0,
    })
    expect(oneDay.change).toMatchObject({ visitors: 2, pageviews: 1, bounce_rate: null, events: null })
  })

  it('pages: pageviews, visitors, entries, exits, bounce rate and time on page, sortable', async () => {
    const body = (await v1(`/api/v1/sites/${site.siteId}/pages?${day}&sort=entries&order=desc`)).json()
    expect(body.meta).toEqual({ total: 2, page: 1, pageSize: 50, totalPages: 1 })
    // No engagement events here: the engagement fields are null.
    const noEngagement = {
      scroll_depth: null,
      scroll_25: null,
      scroll_50: null,
      scroll_75: null,
      scroll_100: null,
      engaged_time: null,
      engaged_time_on_page: null,
    }
    expect(body.data).toEqual([
      {
        pathname: '/',
        pageviews: 2,
        visitors: 2,
        entries: 2,
        exits: 1,
        bounce_rate: 0.5,
        time_on_page: 30,
        ...noEngagement,
      },
      {
        pathname: '/pricing',
        pageviews: 2,
        visitors: 2,
        entries: 1,
        exits: 2,
        bounce_rate: 0,
        time_on_page: null,
        ...noEngagement,
      },
    ])
    const bad = await v1(`/api/v1/sites/${site.siteId}/pages?sort=colour`)
    expect(bad.statusCode).toBe(400)
    expect(bad.json().details.fieldErrors.sort).toBeDefined()
  })

  it('sessions: Session objects, newest first', async () => {
    const body = (await v1(`/api/v1/sites/${site.siteId}/sessions?${day}`)).json()
    expect(body.meta.total).toBe(3)
    expect(body.data.map((s: { user_id: string }) => s.user_id)).toEqual(['c', 'b', 'a'])
    expect(body.data[2]).toMatchObject({
      entry_page: '/',
      exit_page: '/pricing',
      pageviews: 2,
      session_duration: 40,
      session_start: '2026-06-10T09:00:00.000Z',
      session_end: '2026-06-10T09:00:40.000Z',
    })
  })

  it('events and event names', async () => {
    const events = (await v1(`/api/v1/sites/${site.siteId}/events?${day}&type=custom_event`)).json()
    expect(events.data.map((e: { eventName: string }) => e.eventName)).toEqual(['purchase', 'signup'])
    expect(events.data[1].properties).toEqual({ revenue: 10, currency: 'eur' })
    expect(events.meta).toEqual({ nextCursor: null, limit: 100 })
    const names = (await v1(`/api/v1/sites/${site.siteId}/events/names?${day}`)).json()
    expect(names.data).toEqual([
      { name: 'purchase', events: 1, sessions: 1, visitors: 1 },
      { name: 'signup', events: 1, sessions: 1, visitors: 1 },
    ])
  })

  it('revenue per currency, per event, per path, per visitor and per bucket', async () => {
    const data = (await v1(`/api/v1/sites/${site.siteId}/revenue?${day}`)).json().data
    expect(data.totals).toEqual([
      { currency: 'EUR', revenue: 10, events: 1, visitors: 3, revenue_per_visitor: 3.33 },
      { currency: 'USD', revenue: 5.5, events: 1, visitors: 3, revenue_per_visitor: 1.83 },
    ])
    expect(data.byEventName).toEqual([
      { currency: 'EUR', event_name: 'signup', revenue: 10, events: 1 },
      { currency: 'USD', event_name: 'purchase', revenue: 5.5, events: 1 },
    ])
    expect(data.byPathname).toHaveLength(2)
    expect(data.series).toEqual([
      { time: '2026-06-10T00:00:00.000Z', currency: 'EUR', revenue: 10 },
      { time: '2026-06-10T00:00:00.000Z', currency: 'USD', revenue: 5.5 },
    ])
  })
})

describe('v1 experiments', () => {
  it('lists experiments with per-variant results', async () => {
    const s = await t.createSite(cookie, site.organizationId)
    const post = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, headers: { cookie }, payload })
    const goal = await post(`/api/sites/${s.siteId}/goals`, {
      name: 'Thanks',
      goalType: 'path',
      config: { pathPattern: '/thanks' },
    })
    const created = await post(`/api/sites/${s.siteId}/experiments`, {
      name: 'CTA colour',
      key: 'cta',
      goalId: goal.json().goalId,
      status: 'running',
      variants: [
        { name: 'a', control: true },
        { name: 'b', control: false },
      ],
    })
    expect(created.statusCode).toBe(201)
    const track = async (user: string, body: Record<string, unknown>) => {
      now += 1000
      await t.track(s, { user_id: user, ...body }, { apiKey: key })
    }
    const expose = (user: string, variant: string) =>
      track(user, {
        type: 'custom_event',
        event_name: 'exposure',
        properties: JSON.stringify({ experiment: 'cta', variant }),
      })
    now = Date.parse('2026-06-10T13:00:00.000Z')
    await expose('u1', 'a')
    await track('u1', { pathname: '/thanks' })
    await expose('u2', 'a')
    await expose('u3', 'b')
    await track('u3', { pathname: '/thanks' })
    await t.services.buffer.flush()
    const body = (await v1(`/api/v1/sites/${s.siteId}/experiments?${day}`)).json()
    expect(body.meta).toEqual({ total: 1, page: 1, pageSize: 50, totalPages: 1 })
    const [experiment] = body.data
    expect(experiment).toMatchObject({ key: 'cta', name: 'CTA colour', status: 'running' })
    expect(experiment.results.totalExposedSessions).toBe(3)
    expect(experiment.results.variants).toMatchObject([
      { name: 'a', control: true, exposedSessions: 2, conversions: 1, conversionRate: 0.5, uplift: null },
      { name: 'b', control: false, exposedSessions: 1, conversions: 1, conversionRate: 1, uplift: 1 },
    ])
  })
})

describe('v1 access and limits', () => {
  it("a key reaches only its owner's sites; no key or a session cookie is 401", async () => {
    expect((await v1(`/api/v1/sites/${otherSite.siteId}/stats`)).statusCode).toBe(404)
    expect((await v1(`/api/v1/sites/${site.siteId}/stats`, {})).statusCode).toBe(401)
    const { cookie } = await t.signUp()
    expect((await v1('/api/v1/sites', { cookie })).statusCode).toBe(401)
    expect((await v1('/api/v1/sites', { authorization: 'Bearer pl_unknown' })).statusCode).toBe(401)
  })

  it('allows 50 requests a minute per key, with rate-limit headers on every response; the 51st is 429', async () => {
    const { cookie } = await t.signUp()
    const fresh = await t.createApiKey(cookie)
    const headers = { authorization: `Bearer ${fresh}` }
    for (let i = 1; i <= 50; i++) {
      const response = await v1('/api/v1/sites', headers)
      expect(response.statusCode).toBe(200)
      expect(response.headers['x-ratelimit-limit']).toBe('50')
      expect(response.headers['x-ratelimit-remaining']).toBe(String(50 - i))
      expect(Number(response.headers['x-ratelimit-reset'])).toBeGreaterThan(0)
      expect(Number(response.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(60)
    }
    const limited = await v1('/api/v1/sites', headers)
    expect(limited.statusCode).toBe(429)
    expect(limited.json()).toEqual({
      success: false,
      error: 'Rate limit exceeded: at most 50 requests per minute per API key',
    })
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    // Another key has its own budget.
    expect((await v1('/api/v1/sites')).statusCode).toBe(200)
  })
})
