/**
 * Goal routes through the real app on SQLite + chDB and on PostgreSQL + chDB: events ingested with
 * POST /api/track at controlled times, goals created, updated and deleted through the API, and exact
 * conversions, rates and session fields read back; validation, access and site deletion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Geolocator, openGeolocator } from '../ingest/enrich/geolocation.js'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const FIREFOX_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:124.0) Gecko/20100101 Firefox/124.0'
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'

const US_IP = '8.8.8.8'
const GB_IP = '81.2.69.142'

let geolocator: Geolocator
beforeAll(async () => {
  geolocator = await openGeolocator()
}, 60_000)
afterAll(() => geolocator.close())

describe.each([
  ['SQLite + chDB', false],
  ['PostgreSQL + chDB', true],
])('goals on %s', (_name, postgres) => {
  let t: TestInstance
  let now = Date.parse('2026-03-10T10:00:00.000Z')
  let owner: { cookie: string; userId: string }
  let site: Site
  let apiKey: string

  /** An event of the owner's server at `at` (the instance's clock). */
  const track = async (at: string, body: Record<string, unknown>) => {
    now = Date.parse(at)
    const response = await t.track(site, { hostname: 'example.com', ...body }, { apiKey })
    expect(response.statusCode, response.body).toBe(200)
  }
  const as = (cookie: string) => ({ cookie })
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: unknown,
  ) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) })
  const goalsUrl = (query = 'start_date=2026-03-01&end_date=2026-03-31') =>
    `/api/sites/${site.siteId}/goals?${query}`
  const createGoal = async (body: unknown, siteId = site.siteId) => {
    const response = await call('POST', `/api/sites/${siteId}/goals`, as(owner.cookie), body)
    expect(response.statusCode, response.body).toBe(201)
    return (response.json() as { goalId: number }).goalId
  }

  beforeAll(async () => {
    t = await openTestInstance({ postgres, geolocator, clock: () => now })
    const seeded = await t.seed()
    owner = { cookie: seeded.cookie, userId: seeded.userId }
    site = seeded.site
    apiKey = seeded.apiKey
    // Visitor a (US, Chrome, Windows): two sessions. Visitor b (GB, Firefox, macOS). Visitor c (US, iPhone).
    const a = { user_id: 'visitor-a', user_agent: CHROME_WINDOWS, ip_address: US_IP }
    const b = { user_id: 'visitor-b', user_agent: FIREFOX_MAC, ip_address: GB_IP }
    const c = { user_id: 'visitor-c', user_agent: SAFARI_IPHONE, ip_address: US_IP, screenWidth: 390 }
    await track('2026-03-10T10:00:00.000Z', {
      ...a,
      pathname: '/',
      referrer: 'https://www.google.com/search?q=x',
    })
    await track('2026-03-10T10:00:30.000Z', { ...a, pathname: '/pricing' })
    await track('2026-03-10T10:01:00.250Z', {
      ...a,
      pathname: '/pricing',
      type: 'custom_event',
      event_name: 'signup',
      properties: '{"plan":"pro","seats":3}',
    })
    await track('2026-03-10T10:02:05.900Z', { ...a, pathname: '/docs' })
    await track('2026-03-11T14:00:00.000Z', { ...b, pathname: '/pricing' })
    await track('2026-03-11T14:05:30.000Z', {
      ...b,
      pathname: '/checkout',
      type: 'custom_event',
      event_name: 'signup',
      properties: '{"plan":"free","seats":"3"}',
    })
    await track('2026-03-12T09:00:00.000Z', { ...c, pathname: '/blog/a', referrer: 'https://t.co/x' })
    await track('2026-03-20T08:00:00.000Z', { ...a, pathname: '/blog/b' })
    // Outside March: never counted.
    await track('2026-04-01T00:00:00.000Z', { ...b, pathname: '/pricing' })
    await t.services.buffer.flush()
  }, 60_000)
  afterAll(() => t.close())

  it('creates goals and lists them with conversions over the range (4 sessions in March)', async () => {
    const site2 = await t.createSite(owner.cookie, site.organizationId)
    const pricing = await createGoal({
      name: 'Pricing',
      goalType: 'path',
      config: { pathPattern: '/pricing' },
    })
    const blog = await createGoal({ name: 'Blog', goalType: 'path', config: { pathPattern: '/blog/*' } })
    const signup = await createGoal({ name: 'Signup', goalType: 'event', config: { eventName: 'signup' } })
    const seats = await createGoal({
      name: 'Three seats',
      goalType: 'event',
      config: { eventName: 'signup', eventPropertyKey: 'seats', eventPropertyValue: 3 },
    })
    const pro = await createGoal({
      name: 'Pro',
      goalType: 'event',
      config: { eventName: 'signup', eventPropertyKey: 'plan', eventPropertyValue: 'pro' },
    })
    await createGoal({ name: 'Elsewhere', goalType: 'path', config: { pathPattern: '/' } }, site2.siteId)

    const response = await call('GET', goalsUrl(), as(owner.cookie))
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json() as { data: Record<string, unknown>[]; meta: unknown }
    expect(body.meta).toEqual({ total: 5, page: 1, pageSize: 50, totalPages: 1 })
    const createdAt = expect.stringMatching(/^2026-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(body.data).toEqual([
      {
        goalId: pricing,
        name: 'Pricing',
        goalType: 'path',
        config: { pathPattern: '/pricing' },
        createdAt,
        total_conversions: 2,
        total_sessions: 4,
        conversion_rate: 0.5,
      },
      {
        goalId: blog,
        name: 'Blog',
        goalType: 'path',
        config: { pathPattern: '/blog/*' },
        createdAt,
        total_conversions: 2,
        total_sessions: 4,
        conversion_rate: 0.5,
      },
      {
        goalId: signup,
        name: 'Signup',
        goalType: 'event',
        config: { eventName: 'signup' },
        createdAt,
        total_conversions: 2,
        total_sessions: 4,
        conversion_rate: 0.5,
      },
      {
        goalId: seats,
        name: 'Three seats',
        goalType: 'event',
        config: { eventName: 'signup', eventPropertyKey: 'seats', eventPropertyValue: 3 },
        createdAt,
        total_conversions: 2,
        total_sessions: 4,
        conversion_rate: 0.5,
      },
      {
        goalId: pro,
        name: 'Pro',
        goalType: 'event',
        config: { eventName: 'signup', eventPropertyKey: 'plan', eventPropertyValue: 'pro' },
        createdAt,
        total_conversions: 1,
        total_sessions: 4,
        conversion_rate: 0.25,
      },
    ])

    // Pagination: two per page.
    const page3 = (
      await call(
        'GET',
        goalsUrl('start_date=2026-03-01&end_date=2026-03-31&limit=2&page=3'),
        as(owner.cookie),
      )
    ).json()
    expect(page3.meta).toEqual({ total: 5, page: 3, pageSize: 2, totalPages: 3 })
    expect(page3.data.map((g: { goalId: number }) => g.goalId)).toEqual([pro])

    // Filters: US sessions only (a's two sessions and c's): pricing 1 of 3, blog 2 of 3.
    const filters = encodeURIComponent(
      JSON.stringify([{ parameter: 'country', type: 'equals', value: ['US'] }]),
    )
    const us = (
      await call(
        'GET',
        goalsUrl(`start_date=2026-03-01&end_date=2026-03-31&filters=${filters}`),
        as(owner.cookie),
      )
    ).json()
    expect(us.data.map((g: Record<string, number>) => [g.total_conversions, g.total_sessions])).toEqual([
      [1, 3],
      [2, 3],
      [1, 3],
      [1, 3],
      [1, 3],
    ])

    // One day in Los Angeles: 2026-03-11 there is 03-11T07:00Z..03-12T07:00Z, holding b's session only.
    const la = (
      await call(
        'GET',
        goalsUrl('start_date=2026-03-11&end_date=2026-03-11&time_zone=America/Los_Angeles'),
        as(owner.cookie),
      )
    ).json()
    expect(la.data.map((g: Record<string, number>) => [g.total_conversions, g.total_sessions])).toEqual([
      [1, 1],
      [0, 1],
      [1, 1],
      [1, 1],
      [0, 1],
    ])
  })

  it('lists the sessions that completed a goal, newest first, with every Session field', async () => {
    const goalId = await createGoal({
      name: 'Signup again',
      goalType: 'event',
      config: { eventName: 'signup' },
    })
    const response = await call(
      'GET',
      `/api/sites/${site.siteId}/goals/${goalId}/sessions?start_date=2026-03-01&end_date=2026-03-31`,
      as(owner.cookie),
    )
    expect(response.statusCode, response.body).toBe(200)
    const { data } = response.json() as { data: Record<string, unknown>[] }
    const sessionId = expect.stringMatching(/^[0-9a-f-]{36}$/)
    expect(data).toEqual([
      {
        session_id: sessionId,
        user_id: 'visitor-b',
        country: 'GB',
        browser: 'Firefox',
        operating_system: 'Mac OS',
        device_type: 'desktop',
        entry_page: '/pricing',
        exit_page: '/pricing',
        pageviews: 1,
        session_duration: 330,
        session_start: '2026-03-11T14:00:00.000Z',
        session_end: '2026-03-11T14:05:30.000Z',
        referrer: '',
        channel: 'Direct',
      },
      {
        session_id: sessionId,
        user_id: 'visitor-a',
        country: 'US',
        browser: 'Chrome',
        operating_system: 'Windows',
        device_type: 'desktop',
        entry_page: '/',
        exit_page: '/docs',
        pageviews: 3,
        session_duration: 125,
        session_start: '2026-03-10T10:00:00.000Z',
        session_end: '2026-03-10T10:02:05.900Z',
        referrer: 'https://www.google.com/search?q=x',
        channel: 'Organic Search',
      },
    ])
    const second = await call(
      'GET',
      `/api/sites/${site.siteId}/goals/${goalId}/sessions?start_date=2026-03-01&end_date=2026-03-31&limit=1&page=2`,
      as(owner.cookie),
    )
    expect((second.json() as { data: { user_id: string }[] }).data.map((s) => s.user_id)).toEqual([
      'visitor-a',
    ])

    const blogId = await createGoal({
      name: 'Blog again',
      goalType: 'path',
      config: { pathPattern: '/blog/*' },
    })
    const blog = await call(
      'GET',
      `/api/sites/${site.siteId}/goals/${blogId}/sessions?start_date=2026-03-01&end_date=2026-03-31`,
      as(owner.cookie),
    )
    expect((blog.json() as { data: Record<string, unknown>[] }).data).toEqual([
      expect.objectContaining({
        user_id: 'visitor-a',
        entry_page: '/blog/b',
        pageviews: 1,
        session_duration: 0,
      }),
      expect.objectContaining({
        user_id: 'visitor-c',
        device_type: 'mobile',
        operating_system: 'iOS',
        channel: 'Organic Social',
        referrer: 'https://t.co/x',
      }),
    ])
  })

  it('updates a goal partially and validates the result', async () => {
    const goalId = await createGoal({ name: 'Docs', goalType: 'path', config: { pathPattern: '/docs' } })
    const url = `/api/sites/${site.siteId}/goals/${goalId}`
    const renamed = await call('PUT', url, as(owner.cookie), { name: 'Documentation' })
    expect(renamed.statusCode, renamed.body).toBe(200)
    expect(renamed.json()).toEqual({ success: true, goalId })
    const retyped = await call('PUT', url, as(owner.cookie), {
      goalType: 'event',
      config: { eventName: 'signup', eventPropertyKey: 'seats', eventPropertyValue: '3' },
    })
    expect(retyped.json()).toEqual({ success: true, goalId })
    const list = (
      await call('GET', goalsUrl('start_date=2026-03-01&end_date=2026-03-31&limit=1000'), as(owner.cookie))
    ).json()
    expect(list.data.find((g: { goalId: number }) => g.goalId === goalId)).toMatchObject({
      name: 'Documentation',
      goalType: 'event',
      config: { eventName: 'signup', eventPropertyKey: 'seats', eventPropertyValue: '3' },
      total_conversions: 2,
    })

    const mismatch = await call('PUT', url, as(owner.cookie), { goalType: 'path' })
    expect(mismatch.statusCode).toBe(400)
    expect(mismatch.json()).toMatchObject({
      success: false,
      error:
        "Invalid goal: config: a path goal's config takes only pathPattern and scrollDepth: eventName, eventPropertyKey, eventPropertyValue (send a config of the new goalType with it)",
    })
  })

  it.each([
    [{}, 'Invalid goal: name: name is required'],
    [
      { name: 'x', goalType: 'path', config: { pathPattern: 'pricing' } },
      "Invalid goal: config.pathPattern: pathPattern must start with '/'",
    ],
    [
      { name: 'x', goalType: 'event', config: { pathPattern: '/' } },
      "Invalid goal: config: an event goal's config takes only eventName, eventPropertyKey and eventPropertyValue: pathPattern",
    ],
    [
      { name: 'x', goalType: 'funnel', config: {} },
      "Invalid goal: goalType: goalType must be 'path' or 'event'",
    ],
  ])('refuses %j with 400', async (body, error) => {
    const response = await call('POST', `/api/sites/${site.siteId}/goals`, as(owner.cookie), body)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({
      success: false,
      error,
      details: { fieldErrors: expect.any(Object) },
    })
  })

  it("answers 404 for another site's goal, a malformed id and a deleted goal", async () => {
    const other = await t.createSite(owner.cookie, site.organizationId)
    const foreign = await createGoal(
      { name: 'Foreign', goalType: 'path', config: { pathPattern: '/' } },
      other.siteId,
    )
    const mine = await createGoal({ name: 'Mine', goalType: 'path', config: { pathPattern: '/' } })
    const base = `/api/sites/${site.siteId}/goals`
    for (const id of [String(foreign), 'abc', '0', '99999999999']) {
      expect((await call('PUT', `${base}/${id}`, as(owner.cookie), { name: 'x' })).statusCode).toBe(404)
      expect((await call('DELETE', `${base}/${id}`, as(owner.cookie))).statusCode).toBe(404)
      expect((await call('GET', `${base}/${id}/sessions`, as(owner.cookie))).statusCode).toBe(404)
    }
    const deleted = await call('DELETE', `${base}/${mine}`, as(owner.cookie))
    expect(deleted.statusCode).toBe(200)
    expect(deleted.json()).toEqual({ success: true })
    expect((await call('DELETE', `${base}/${mine}`, as(owner.cookie))).json()).toEqual({
      success: false,
      error: 'Goal not found',
    })
    // The other site's goal is untouched.
    const theirs = (await call('GET', `/api/sites/${other.siteId}/goals`, as(owner.cookie))).json()
    expect(theirs.data.map((g: { goalId: number }) => g.goalId)).toEqual([foreign])
  })

  it('answers access and existence before invalid input', async () => {
    const base = `/api/sites/${site.siteId}/goals`
    const invalid = { name: '', extra: 1 }
    // No caller, another organization's caller, an unknown goal: each wins over the invalid input.
    expect((await call('POST', base, {}, invalid)).statusCode).toBe(401)
    const stranger = await t.signUp()
    expect((await call('POST', base, as(stranger.cookie), invalid)).statusCode).toBe(404)
    expect((await call('PUT', `${base}/99999`, as(owner.cookie), invalid)).statusCode).toBe(404)
    expect((await call('GET', `${base}/99999/sessions?page=0`, as(owner.cookie))).statusCode).toBe(404)
    expect((await call('GET', `${base}?page=0`, as(stranger.cookie))).statusCode).toBe(404)
    // With access, the same input is a 400 naming the field.
    const refused = await call('POST', base, as(owner.cookie), invalid)
    expect([refused.statusCode, refused.json().error]).toEqual([400, 'Invalid goal: name: name is required'])
  })

  it.each([
    ['start_date=2026-02-30', 'start_date'],
    ['start_date=2026-03-10&end_date=2026-03-01', 'end_date'],
    ['time_zone=Europe/Atlantis', 'time_zone'],
    ['filters=not-json', 'filters'],
    [
      'filters=%5B%7B%22parameter%22%3A%22ip%22%2C%22type%22%3A%22equals%22%2C%22value%22%3A%5B%221%22%5D%7D%5D',
      'filters',
    ],
    ['limit=5000', 'limit'],
    ['page=-1', 'page'],
  ])('answers 400 for %s', async (query, name) => {
    const goalId = await createGoal({ name: 'Q', goalType: 'path', config: { pathPattern: '/' } })
    for (const url of [goalsUrl(query), `/api/sites/${site.siteId}/goals/${goalId}/sessions?${query}`]) {
      const response = await call('GET', url, as(owner.cookie))
      expect(response.statusCode, url).toBe(400)
      expect(response.json()).toMatchObject({ success: false, error: expect.stringContaining(name) })
      expect(response.json().details.fieldErrors).toHaveProperty(name)
    }
  })

  it('reads with a private link key or on a public site; writes need an admin caller', async () => {
    const shared = await t.createSite(owner.cookie, site.organizationId)
    const goalId = await createGoal(
      { name: 'Shared', goalType: 'path', config: { pathPattern: '/' } },
      shared.siteId,
    )
    const key = (
      await call('POST', `/api/sites/${shared.siteId}/private-link-config`, as(owner.cookie), {
        action: 'generate_private_link_key',
      })
    ).json().data.privateLinkKey as string
    const withKey = { 'x-private-key': key }
    const list = await call('GET', `/api/sites/${shared.siteId}/goals`, withKey)
    expect(list.statusCode).toBe(200)
    expect(list.json().data).toHaveLength(1)
    expect(
      (await call('GET', `/api/sites/${shared.siteId}/goals/${goalId}/sessions`, withKey)).statusCode,
    ).toBe(200)
    // The key reads this site only, and writes nothing.
    expect((await call('GET', `/api/sites/${site.siteId}/goals`, withKey)).statusCode).toBe(404)
    const body = { name: 'x', goalType: 'path', config: { pathPattern: '/' } }
    expect((await call('POST', `/api/sites/${shared.siteId}/goals`, withKey, body)).statusCode).toBe(401)
    expect((await call('PUT', `/api/sites/${shared.siteId}/goals/${goalId}`, withKey, body)).statusCode).toBe(
      401,
    )
    expect((await call('DELETE', `/api/sites/${shared.siteId}/goals/${goalId}`, withKey)).statusCode).toBe(
      401,
    )

    expect((await call('GET', `/api/sites/${shared.siteId}/goals`, {})).statusCode).toBe(401)
    await call('PUT', `/api/sites/${shared.siteId}/config`, as(owner.cookie), { public: true })
    expect((await call('GET', `/api/sites/${shared.siteId}/goals`, {})).statusCode).toBe(200)
    expect((await call('POST', `/api/sites/${shared.siteId}/goals`, {}, body)).statusCode).toBe(401)

    // A plain member reads but may not write.
    const member = await t.signUp()
    await t.services.metadata.db
      .insertInto('member')
      .values({
        id: crypto.randomUUID(),
        organization_id: site.organizationId,
        user_id: member.userId,
        role: 'member',
        created_at: new Date().toISOString(),
      })
      .execute()
    expect((await call('GET', `/api/sites/${site.siteId}/goals`, as(member.cookie))).statusCode).toBe(200)
    const refused = await call('POST', `/api/sites/${site.siteId}/goals`, as(member.cookie), body)
    expect(refused.statusCode).toBe(403)
  })

  it("deletes a site's goals with the site", async () => {
    const doomed = await t.createSite(owner.cookie, site.organizationId)
    await createGoal({ name: 'A', goalType: 'path', config: { pathPattern: '/' } }, doomed.siteId)
    await createGoal({ name: 'B', goalType: 'event', config: { eventName: 'x' } }, doomed.siteId)
    const count = async () =>
      Number(
        (
          await t.services.metadata.db
            .selectFrom('goal')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('site_id', '=', doomed.siteId)
            .executeTakeFirstOrThrow()
        ).n,
      )
    expect(await count()).toBe(2)
    expect((await call('DELETE', `/api/sites/${doomed.siteId}`, as(owner.cookie))).statusCode).toBe(200)
    expect(await count()).toBe(0)
  })
})
