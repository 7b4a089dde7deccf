/**
 * The dashboard's report routes through the real app (SQLite + chDB), on events ingested with
 * POST /api/track at controlled times. Range 2026-03-10..11 (UTC); its previous period is 03-08..09.
 *
 * | visitor | browser             | events (UTC)                                                      |
 * |---------|---------------------|-------------------------------------------------------------------|
 * | v1      | Chrome, Windows     | 03-08 12:00:00 pageview /pricing, 12:00:20 pageview / (previous)  |
 * | v4      | Chrome, Windows     | 03-09 12:00:00 pageview / (previous)                              |
 * | v1      | Chrome, Windows     | 03-10 10:00:00 pageview /, 10:00:30 pageview /pricing,            |
 * |         |                     | 10:01:00 custom_event signup -> 2 pageviews, 60 s                  |
 * | v2      | Firefox, Linux      | 03-10 11:00:00 pageview /, 11:00:05 performance on / (LCP 2000)   |
 * |         |                     | -> a bounce (a performance event is no interaction), 5 s           |
 * | v3      | Safari, iPhone      | 03-11 09:00:00 pageview /blog, 09:00:10 performance on /blog      |
 * |         |                     | (LCP 5000), 09:00:40 pageview / -> 2 pageviews, 40 s               |
 *
 * Current: 3 visitors, 3 sessions, 5 pageviews, bounce rate 1/3, 35 s, 5/3 pages per session, 1 custom
 * event. Previous: 2 visitors, 2 sessions, 3 pageviews, bounce rate 1/2, 10 s, 1.5, no custom event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:124.0) Gecko/20100101 Firefox/124.0'
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'

let t: TestInstance
let now = 0
let cookie: string
let site: Site
let apiKey: string

/** An event of visitor `user` in `userAgent`, sent by the owner's server at `at` (the instance's clock). */
const track = async (at: string, user: string, userAgent: string, body: Record<string, unknown>) => {
  now = Date.parse(at)
  const event = { hostname: 'example.com', user_id: user, user_agent: userAgent, ...body }
  const response = await t.track(site, event, { apiKey })
  expect(response.statusCode, response.body).toBe(200)
}

beforeAll(async () => {
  t = await openTestInstance({ clock: () => now })
  const seeded = await t.seed()
  cookie = seeded.cookie
  site = seeded.site
  apiKey = seeded.apiKey
  await track('2026-03-08T12:00:00.000Z', 'v1', CHROME_WINDOWS, { pathname: '/pricing' })
  await track('2026-03-08T12:00:20.000Z', 'v1', CHROME_WINDOWS, { pathname: '/' })
  await track('2026-03-09T12:00:00.000Z', 'v4', CHROME_WINDOWS, { pathname: '/' })
  await track('2026-03-10T10:00:00.000Z', 'v1', CHROME_WINDOWS, { pathname: '/' })
  await track('2026-03-10T10:00:30.000Z', 'v1', CHROME_WINDOWS, { pathname: '/pricing' })
  await track('2026-03-10T10:01:00.000Z', 'v1', CHROME_WINDOWS, {
    type: 'custom_event',
    pathname: '/pricing',
    event_name: 'signup',
    properties: '{"plan":"pro"}',
  })
  await track('2026-03-10T11:00:00.000Z', 'v2', FIREFOX_LINUX, { pathname: '/' })
  await track('2026-03-10T11:00:05.000Z', 'v2', FIREFOX_LINUX, {
    type: 'performance',
    pathname: '/',
    lcp: 2000,
    cls: 0.05,
    inp: 100,
    fcp: 1000,
    ttfb: 300,
  })
  await track('2026-03-11T09:00:00.000Z', 'v3', SAFARI_IPHONE, { pathname: '/blog' })
  await track('2026-03-11T09:00:10.000Z', 'v3', SAFARI_IPHONE, {
    type: 'performance',
    pathname: '/blog',
    lcp: 5000,
    cls: 0.3,
    inp: 600,
    fcp: 3500,
    ttfb: 2000,
  })
  await track('2026-03-11T09:00:40.000Z', 'v3', SAFARI_IPHONE, { pathname: '/' })
  await t.services.buffer.flush()
}, 60_000)
afterAll(() => t.close())

const RANGE = 'start_date=2026-03-10&end_date=2026-03-11'
const get = (path: string, headers: Record<string, string> = { cookie }) =>
  t.app.inject({ method: 'GET', url: `/api/sites/${site.siteId}/${path}`, headers })
const json = async (path: string) => {
  const response = await get(path)
  expect(response.statusCode, response.body).toBe(200)
  return response.json()
}
const filters = (parameter: string, value: string) =>
  `filters=${encodeURIComponent(JSON.stringify([{ parameter, type: 'equals', value: [value] }]))}`

describe('GET /api/sites/{site}/stats', () => {
  it('answers the range, the previous period, the change and the series', async () => {
    const current = {
      visitors: 3,
      sessions: 3,
      pageviews: 5,
      bounce_rate: 1 / 3,
      session_duration: 35,
      pages_per_session: 5 / 3,
      events: 1,
    }
    const previous = {
      visitors: 2,
      sessions: 2,
      pageviews: 3,
      bounce_rate: 1 / 2,
      session_duration: 10,
      pages_per_session: 1.5,
      events: 0,
    }
    expect(await json(`stats?${RANGE}&bucket=day`)).toEqual({
      data: {
        current,
        previous,
        change: {
          visitors: 0.5,
          sessions: 0.5,
          pageviews: 2 / 3,
          bounce_rate: (1 / 3 - 1 / 2) / (1 / 2),
          session_duration: 2.5,
          pages_per_session: (5 / 3 - 1.5) / 1.5,
          events: null,
        },
        series: [
          { time: '2026-03-10T00:00:00.000Z', visitors: 2, sessions: 2, pageviews: 3 },
          { time: '2026-03-11T00:00:00.000Z', visitors: 1, sessions: 1, pageviews: 2 },
        ],
      },
      meta: {
        startDate: '2026-03-10',
        endDate: '2026-03-11',
        previousStartDate: '2026-03-08',
        previousEndDate: '2026-03-09',
        timeZone: 'UTC',
        bucket: 'day',
      },
    })
  })

  it('applies filters to both periods and refuses unknown buckets', async () => {
    const blog = await json(`stats?${RANGE}&${filters('pathname', '/blog')}`)
    expect(blog.data.current).toEqual({
      visitors: 1,
      sessions: 1,
      pageviews: 1,
      bounce_rate: 0,
      session_duration: 40,
      pages_per_session: 2,
      events: 0,
    })
    expect(blog.data.previous.sessions).toBe(0)
    expect(blog.data.series).toBeUndefined()
    const minute = await get(`stats?${RANGE}&bucket=minute`)
    expect(minute.statusCode).toBe(400)
    expect(minute.json().details.fieldErrors.bucket).toEqual(['bucket must be one of hour, day, week, month'])
  })
})

describe('GET /api/sites/{site}/series', () => {
  it('answers the series alone with the counts asked for', async () => {
    const meta = { startDate: '2026-03-10', endDate: '2026-03-11', timeZone: 'UTC', bucket: 'day' }
    const all = await json(`series?${RANGE}&bucket=day`)
    expect(all).toEqual({
      data: [
        { time: '2026-03-10T00:00:00.000Z', visitors: 2, sessions: 2, pageviews: 3 },
        { time: '2026-03-11T00:00:00.000Z', visitors: 1, sessions: 1, pageviews: 2 },
      ],
      meta: { ...meta, metrics: ['visitors', 'sessions', 'pageviews'] },
    })
    expect(all.data).toEqual((await json(`stats?${RANGE}&bucket=day`)).data.series)
    // In the protocol's order, whatever the order asked; each point carries those counts only.
    expect(await json(`series?${RANGE}&bucket=day&metrics=pageviews,visitors`)).toEqual({
      data: [
        { time: '2026-03-10T00:00:00.000Z', visitors: 2, pageviews: 3 },
        { time: '2026-03-11T00:00:00.000Z', visitors: 1, pageviews: 2 },
      ],
      meta: { ...meta, metrics: ['visitors', 'pageviews'] },
    })
    const filtered = await json(`series?${RANGE}&bucket=day&metrics=sessions&${filters('pathname', '/blog')}`)
    expect(filtered.data).toEqual([
      { time: '2026-03-10T00:00:00.000Z', sessions: 0 },
      { time: '2026-03-11T00:00:00.000Z', sessions: 1 },
    ])
  })

  it('needs a bucket and takes only its counts', async () => {
    const none = await get(`series?${RANGE}`)
    expect(none.statusCode).toBe(400)
    expect(none.json().details.fieldErrors.bucket).toEqual(['bucket is required'])
    const bad = await get(`series?${RANGE}&bucket=day&metrics=bounce_rate`)
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error).toMatch(/metrics/)
    const minute = await get(`series?${RANGE}&bucket=minute`)
    expect(minute.statusCode).toBe(400)
    expect(minute.json().error).toMatch(/bucket/)
  })
})

describe('GET /api/sites/{site}/breakdown/{name}', () => {
  it('answers a page of rows with the total', async () => {
    expect(await json(`breakdown/pages?${RANGE}`)).toEqual({
      data: [
        { value: '/', visitors: 3, sessions: 3, pageviews: 3 },
        { value: '/blog', visitors: 1, sessions: 1, pageviews: 1 },
        { value: '/pricing', visitors: 1, sessions: 1, pageviews: 1 },
      ],
      meta: { total: 3, page: 1, pageSize: 50, totalPages: 1 },
    })
    expect(await json(`breakdown/device_types?${RANGE}&limit=1&page=2`)).toEqual({
      data: [{ value: 'mobile', visitors: 1, sessions: 1, pageviews: 2 }],
      meta: { total: 2, page: 2, pageSize: 1, totalPages: 2 },
    })
    const entries = await json(`breakdown/entry_pages?${RANGE}&${filters('device_type', 'desktop')}`)
    expect(entries.data).toEqual([{ value: '/', visitors: 2, sessions: 2, pageviews: 3 }])
  })

  it('answers the counts `metrics` asks for, and the one the rows rank by', async () => {
    expect((await json(`breakdown/pages?${RANGE}&metrics=pageviews`)).data).toEqual([
      { value: '/', pageviews: 3 },
      { value: '/blog', pageviews: 1 },
      { value: '/pricing', pageviews: 1 },
    ])
    // Device types rank by visitors: they come with the sessions asked for.
    expect((await json(`breakdown/device_types?${RANGE}&metrics=sessions`)).data).toEqual([
      { value: 'desktop', visitors: 2, sessions: 2 },
      { value: 'mobile', visitors: 1, sessions: 1 },
    ])
    const all = await json(`breakdown/pages?${RANGE}&metrics=pageviews,sessions, visitors`)
    expect(all).toEqual(await json(`breakdown/pages?${RANGE}`))
    for (const bad of ['bounces', 'pageviews,', '']) {
      const response = await get(`breakdown/pages?${RANGE}&metrics=${bad}`)
      expect(response.statusCode, bad).toBe(400)
      expect(response.json().details.fieldErrors.metrics).toEqual([
        'metrics must be a comma-separated list of visitors, sessions, pageviews',
      ])
    }
    const twice = await get(`breakdown/pages?${RANGE}&metrics=pageviews&metrics=visitors`)
    expect(twice.statusCode).toBe(400)
    expect(twice.json().details.fieldErrors.metrics).toEqual(['metrics must be given once'])
  })

  it('answers every breakdown, and 404 for an unknown one', async () => {
    for (const name of [
      'pages',
      'referrers',
      'channels',
      'entry_pages',
      'exit_pages',
      'countries',
      'regions',
      'cities',
      'languages',
      'browsers',
      'operating_systems',
      'device_types',
      'utm_source',
      'utm_medium',
      'utm_campaign',
    ]) {
      expect((await get(`breakdown/${name}?${RANGE}`)).statusCode, name).toBe(200)
    }
    const unknown = await get(`breakdown/toString?${RANGE}`)
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().error).toMatch(/^Unknown breakdown "toString"; one of pages, referrers, /)
  })
})

describe('sessions and their events', () => {
  it('lists sessions newest first, and one session’s events oldest first', async () => {
    const sessions = await json(`sessions?${RANGE}`)
    expect(sessions.meta).toEqual({ total: 3, page: 1, pageSize: 50, totalPages: 1 })
    expect(
      sessions.data.map((s: Record<string, unknown>) => [
        s.user_id,
        s.entry_page,
        s.pageviews,
        s.session_duration,
      ]),
    ).toEqual([
      ['v3', '/blog', 2, 40],
      ['v2', '/', 1, 5],
      ['v1', '/', 2, 60],
    ])
    const id = sessions.data[0].session_id as string
    const timeline = await json(`sessions/${encodeURIComponent(id)}/events?${RANGE}`)
    expect(timeline.meta).toEqual({ total: 3, page: 1, pageSize: 50, totalPages: 1 })
    expect(
      timeline.data.map((e: Record<string, unknown>) => [e.timestamp, e.type, e.pathname, e.lcp]),
    ).toEqual([
      ['2026-03-11T09:00:00.000Z', 'pageview', '/blog', null],
      ['2026-03-11T09:00:10.000Z', 'performance', '/blog', 5000],
      ['2026-03-11T09:00:40.000Z', 'pageview', '/', null],
    ])
    expect(timeline.data[0]).toMatchObject({ sessionId: id, userId: 'v3', deviceType: 'mobile' })
  })

  it('lists events newest first with a cursor, and custom event names', async () => {
    const first = await json(`events?${RANGE}&limit=4`)
    expect(first.data.map((e: { timestamp: string }) => e.timestamp)).toEqual([
      '2026-03-11T09:00:40.000Z',
      '2026-03-11T09:00:10.000Z',
      '2026-03-11T09:00:00.000Z',
      '2026-03-10T11:00:05.000Z',
    ])
    const rest = await json(`events?${RANGE}&limit=4&cursor=${first.meta.nextCursor}`)
    expect(rest.data).toHaveLength(4)
    expect(rest.meta.nextCursor).toBeNull()
    const signups = await json(`events?${RANGE}&type=custom_event`)
    expect(signups.data.map((e: Record<string, unknown>) => [e.eventName, e.properties])).toEqual([
      ['signup', { plan: 'pro' }],
    ])
    expect((await get(`events?${RANGE}&type=click`)).statusCode).toBe(400)
    expect(await json(`event-names?${RANGE}`)).toEqual({
      data: [{ name: 'signup', events: 1, sessions: 1, visitors: 1 }],
      meta: { total: 1, page: 1, pageSize: 50, totalPages: 1 },
    })
    // `metrics` narrows the counts; events, which rank the names, always stay.
    expect((await json(`event-names?${RANGE}&metrics=events`)).data).toEqual([{ name: 'signup', events: 1 }])
    expect((await json(`event-names?${RANGE}&metrics=visitors`)).data).toEqual([
      { name: 'signup', events: 1, visitors: 1 },
    ])
    const bad = await get(`event-names?${RANGE}&metrics=pageviews`)
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error).toMatch(/metrics/)
  })
})

describe('GET /api/sites/{site}/web-vitals', () => {
  it('answers percentiles and bands overall', async () => {
    const body = await json(`web-vitals?${RANGE}`)
    // LCP samples 2000 and 5000: p50 3500, p75 4250, p90 4700 (linear between ranks).
    expect(body.data.lcp).toEqual({
      samples: 2,
      p50: 3500,
      p75: 4250,
      p90: 4700,
      good: 0.5,
      needs_improvement: 0,
      poor: 0.5,
      rating: 'poor',
    })
    expect(body.data.cls).toMatchObject({ p50: 0.175, p75: 0.238, rating: 'needs_improvement' })
    expect(body.data.inp).toMatchObject({ p75: 475, good: 0.5, poor: 0.5, rating: 'needs_improvement' })
    expect(body.data.ttfb).toMatchObject({ p75: 1575, rating: 'needs_improvement' })
    expect(body.meta.thresholds.lcp).toEqual({ good: 2500, poor: 4000, unit: 'ms', decimals: 0 })
  })

  it('answers per page and per device type', async () => {
    const pages = await json(`web-vitals?${RANGE}&by=pathname`)
    expect(pages.meta).toMatchObject({ total: 2, page: 1, pageSize: 50, totalPages: 1, by: 'pathname' })
    expect(pages.data.map((r: { value: string; lcp: { p75: number } }) => [r.value, r.lcp.p75])).toEqual([
      ['/', 2000],
      ['/blog', 5000],
    ])
    const devices = await json(`web-vitals?${RANGE}&by=device_type`)
    expect(
      devices.data.map((r: { value: string; events: number; lcp: { rating: string } }) => [
        r.value,
        r.events,
        r.lcp.rating,
      ]),
    ).toEqual([
      ['desktop', 1, 'good'],
      ['mobile', 1, 'poor'],
    ])
    const wrong = await get(`web-vitals?${RANGE}&by=country`)
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json().error).toBe('Invalid by: by must be one of pathname, device_type')
  })
})

describe('GET /api/sites/{site}/live', () => {
  it('counts the visitors of the last five minutes by the server clock', async () => {
    // v3's events are at 09:00:00, 09:00:10 and 09:00:40; the window is (now - 5 min, now].
    now = Date.parse('2026-03-11T09:05:00.000Z')
    expect(await json('live')).toEqual({
      data: { visitors: 1, from: '2026-03-11T09:00:00.000Z', to: '2026-03-11T09:05:00.000Z' },
      meta: {},
    })
    now = Date.parse('2026-03-11T09:05:39.999Z')
    expect((await json('live')).data.visitors).toBe(1)
    now = Date.parse('2026-03-11T09:05:40.000Z')
    expect((await json('live')).data.visitors).toBe(0)
    now = Date.parse('2026-03-10T11:01:00.000Z') // v1 (10:01:00 is 60 min ago: no), v2 at 11:00
    expect((await json('live')).data.visitors).toBe(1)
  })
})

describe('readers', () => {
  it('lets a private link key read, and anyone once the site is public', async () => {
    const generated = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/private-link-config`,
      headers: { cookie },
      payload: { action: 'generate_private_link_key' },
    })
    const key = generated.json().data.privateLinkKey as string
    const viaKey = await get('summary', { 'x-private-key': key })
    expect(viaKey.statusCode).toBe(200)
    expect(viaKey.json()).toEqual({
      data: {
        siteId: site.siteId,
        name: 'Example',
        domain: 'example.com',
        access: 'private_link',
        importedDays: null,
      },
      meta: {},
    })
    expect((await get(`stats?${RANGE}`, { 'x-private-key': key })).json().data.current.visitors).toBe(3)
    expect((await get('summary', {})).statusCode).toBe(401)
    expect((await get('summary', { 'x-private-key': 'wrong' })).statusCode).toBe(404)
    expect((await get('summary')).json().data.access).toBe('member')

    const configured = await t.app.inject({
      method: 'PUT',
      url: `/api/sites/${site.siteId}/config`,
      headers: { cookie },
      payload: { public: true },
    })
    expect(configured.statusCode).toBe(200)
    expect((await get('summary', {})).json().data.access).toBe('public')
    expect((await get(`breakdown/pages?${RANGE}`, {})).json().meta.total).toBe(3)
  })
})
