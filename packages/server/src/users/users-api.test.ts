/**
 * Identified users end to end over HTTP: profiles made by tracking with a user id and by
 * `POST /api/identify` (traits merged, last value per key with its change time), the visitor linked
 * so its keyless events carry the user id, the v1 list (search, sort, paging) and a user's page with
 * figures checked against an independent count of what was sent, anonymous visitors never listed,
 * bad input a 400 naming the field, and erasure and export covering the profile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { DESKTOP_CHROME_UA, openTestInstance, type TestInstance } from '../testing/test-instance.js'

interface Sent {
  user?: string
  type: 'pageview' | 'custom_event'
  from: string
}

describe('identified users', () => {
  let t: TestInstance
  let site: Site
  let apiKey: string
  let cookie: string

  /** What the test sends, for the independent count. */
  const sent: Sent[] = [
    { user: 'alice', type: 'pageview', from: '198.51.100.1' },
    { user: 'alice', type: 'pageview', from: '198.51.100.1' },
    { user: 'alice', type: 'custom_event', from: '198.51.100.1' },
    { user: 'bob', type: 'pageview', from: '198.51.100.2' },
    { type: 'pageview', from: '203.0.113.5' },
    { type: 'pageview', from: '203.0.113.6' },
    { type: 'custom_event', from: '203.0.113.6' },
  ]

  const identify = (body: Record<string, unknown>, from = '198.51.100.9') =>
    t.app.inject({
      method: 'POST',
      url: '/api/identify',
      remoteAddress: from,
      headers: { origin: `https://${site.domain}`, 'user-agent': DESKTOP_CHROME_UA },
      payload: { site_id: String(site.siteId), ...body },
    })
  const v1 = (path: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/sites/${site.siteId}${path}`,
      headers: { authorization: `Bearer ${apiKey}` },
    })

  beforeAll(async () => {
    t = await openTestInstance()
    ;({ site, apiKey, cookie } = await t.seed())
    for (const event of sent) {
      const body = {
        type: event.type,
        ...(event.type === 'custom_event' ? { event_name: 'signup' } : {}),
        ...(event.user ? { user_id: event.user } : {}),
      }
      const response = await t.track(site, body, { remoteAddress: event.from })
      expect(response.statusCode, response.body).toBe(200)
    }
  }, 60_000)
  afterAll(() => t.close())

  it('merges traits: the last value per key, with when it changed', async () => {
    expect((await identify({ user_id: 'alice', traits: { plan: 'pro', seats: 2 } })).statusCode).toBe(200)
    const before = await v1('/users/alice')
    const firstTimes = before.json().data.traitHistory
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(
      (await identify({ user_id: 'alice', traits: { plan: 'team', seats: 2 }, is_new_identify: false }))
        .statusCode,
    ).toBe(200)
    const after = (await v1('/users/alice')).json().data
    expect(after.traits).toEqual({ plan: 'team', seats: 2 })
    expect(after.traitHistory.seats.changedAt).toBe(firstTimes.seats.changedAt)
    expect(after.traitHistory.plan.changedAt > firstTimes.plan.changedAt).toBe(true)
  })

  it('links the identifying visitor: its keyless events carry the user id from then on', async () => {
    expect((await identify({ user_id: 'carol' }, '198.51.100.3')).statusCode).toBe(200)
    const response = await t.track(site, { pathname: '/after' }, { remoteAddress: '198.51.100.3' })
    expect(response.statusCode).toBe(200)
    sent.push({ user: 'carol', type: 'pageview', from: '198.51.100.3' })
    await t.services.buffer.flush()
    const rows = await t.services.events.query<{ user_id: string }>(
      "SELECT user_id FROM events WHERE site_id = {site:UInt32} AND pathname = '/after'",
      { site: site.siteId },
    )
    expect(rows).toEqual([{ user_id: 'carol' }])
  })

  it('lists identified users only, with figures matching an independent count', async () => {
    const response = await v1('/users?sort=userId&order=asc')
    expect(response.statusCode, response.body).toBe(200)
    const { data, meta } = response.json()
    const expected = new Map<string, { pageviews: number; events: number }>()
    for (const event of sent) {
      if (!event.user) continue
      const figures = expected.get(event.user) ?? { pageviews: 0, events: 0 }
      figures.events++
      if (event.type === 'pageview') figures.pageviews++
      expected.set(event.user, figures)
    }
    expect(meta.total).toBe(expected.size)
    expect(
      data.map((u: { userId: string; pageviews: number; events: number; sessions: number }) => [
        u.userId,
        u.pageviews,
        u.events,
        u.sessions,
      ]),
    ).toEqual(
      [...expected]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([user, f]) => [user, f.pageviews, f.events, 1]),
    )
  })

  it('searches ids and traits, sorts by a figure and pages', async () => {
    const team = (await v1('/users?search=TEAM')).json()
    expect(team.data.map((u: { userId: string }) => u.userId)).toEqual(['alice'])
    const byPageviews = (await v1('/users?sort=pageviews&order=desc&limit=1&page=1')).json()
    expect(byPageviews.data.map((u: { userId: string }) => u.userId)).toEqual(['alice'])
    expect(byPageviews.meta).toEqual({ total: 3, page: 1, pageSize: 1, totalPages: 3 })
  })

  it("shows a user's timeline: sessions newest first and events", async () => {
    const { data } = (await v1('/users/alice')).json()
    expect(data.recentSessions).toHaveLength(1)
    expect(data.recentSessions[0]).toMatchObject({ pageviews: 2, events: 3, hasReplay: false })
    expect(data.recentEvents.map((e: { type: string }) => e.type).sort()).toEqual([
      'custom_event',
      'pageview',
      'pageview',
    ])
    expect((await v1('/users/nobody')).statusCode).toBe(404)
  })

  it('refuses bad input with a 400 naming the field', async () => {
    const badSort = await v1('/users?sort=color')
    expect(badSort.statusCode).toBe(400)
    expect(badSort.body).toContain('sort')
    const noUser = await identify({ traits: {} })
    expect(noUser.statusCode).toBe(400)
    expect(noUser.body).toContain('user_id')
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]))
    const tooMany = await identify({ user_id: 'dave', traits: many })
    expect(tooMany.statusCode).toBe(400)
    expect(tooMany.body).toContain('traits')
    const longValue = await identify({ user_id: 'dave', traits: { bio: 'x'.repeat(2000) } })
    expect(longValue.statusCode).toBe(400)
    expect(longValue.body).toContain('traits')
    // Over the 100 traits a user keeps, in two identifies of 50 and 51 new keys.
    const fifty = (offset: number) =>
      Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`t${offset + i}`, i]))
    expect((await identify({ user_id: 'erin', traits: fifty(0) })).statusCode).toBe(200)
    expect((await identify({ user_id: 'erin', traits: fifty(50) })).statusCode).toBe(200)
    const over = await identify({ user_id: 'erin', traits: { one: 'more' } })
    expect(over.statusCode).toBe(400)
    expect(over.json().details.fieldErrors.traits).toBeDefined()
    // A foreign Origin is refused as for tracking.
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/identify',
      headers: { origin: 'https://evil.test', 'user-agent': DESKTOP_CHROME_UA },
      payload: { site_id: String(site.siteId), user_id: 'mallory' },
    })
    expect(foreign.statusCode).toBe(403)
  })

  it("serves the dashboard's Users page to members only", async () => {
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${site.siteId}/users?sort=userId&order=asc`,
      headers: { cookie },
    })
    expect(list.statusCode, list.body).toBe(200)
    expect(list.json().data.map((u: { userId: string }) => u.userId)).toEqual([
      'alice',
      'bob',
      'carol',
      'erin',
    ])
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${site.siteId}/users/bob`,
      headers: { cookie },
    })
    expect(one.json().data).toMatchObject({ userId: 'bob', pageviews: 1, events: 1 })
    const stranger = await t.signUp()
    const refused = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${site.siteId}/users`,
      headers: { cookie: stranger.cookie },
    })
    expect(refused.statusCode).toBe(404)
  })

  it('exports the profile with the events and erases it with them', async () => {
    const exported = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${site.siteId}/users/alice/export`,
      headers: { cookie },
    })
    expect(exported.statusCode).toBe(200)
    const lines = exported.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(lines.at(-1).user_profile.traits.plan.value).toBe('team')
    const erased = await t.app.inject({
      method: 'DELETE',
      url: `/api/sites/${site.siteId}/users/alice`,
      headers: { cookie },
    })
    expect(erased.statusCode, erased.body).toBe(200)
    expect((await v1('/users/alice')).statusCode).toBe(404)
    const links = await t.services.metadata.db
      .selectFrom('visitor_link')
      .selectAll()
      .where('user_id', '=', 'alice')
      .execute()
    expect(links).toEqual([])
  })
})
