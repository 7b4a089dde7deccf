/**
 * `engagement` events through `POST /api/track` (real app, SQLite + chDB): stored with their figures
 * in `scroll_depth` and `engagement_time` (events migration 015) and nothing in the pageview count;
 * out-of-range figures refused with a 400 naming the field; one without a live session not recorded;
 * counted against the site's limit like every event; in the export, and gone with the visitor's
 * erasure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const CHROME_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'

let t: TestInstance
let cookie: string
let organizationId: string
let domainCounter = 0

beforeAll(async () => {
  t = await openTestInstance()
  ;({ cookie, organizationId } = await t.seed())
})
afterAll(() => t?.close())

const freshSite = () => t.createSite(cookie, organizationId, `e${++domainCounter}.example.com`)

const track = (site: Site, body: Record<string, unknown>, from = '203.0.113.9') =>
  t.app.inject({
    method: 'POST',
    url: '/api/track',
    headers: { 'content-type': 'text/plain', 'user-agent': CHROME_UA, origin: `https://${site.domain}` },
    payload: JSON.stringify({ site_id: String(site.siteId), hostname: site.domain, ...body }),
    remoteAddress: from,
  })

const stored = async (siteId: number) => {
  await t.services.buffer.flush()
  return t.services.events.query<{
    type: string
    pathname: string
    scroll_depth: number
    engagement_time: number
  }>(
    `SELECT type, pathname, scroll_depth, engagement_time FROM events WHERE site_id = {site:UInt32}
     ORDER BY timestamp, toUInt128(event_id)`,
    { site: siteId },
  )
}

describe('engagement events on POST /api/track', () => {
  it('stores the figures of a pageview of a live session, and no pageview', async () => {
    const site = await freshSite()
    expect((await track(site, { pathname: '/guide' })).statusCode).toBe(200)
    const engagement = await track(site, {
      type: 'engagement',
      pathname: '/guide',
      scroll_depth: 64,
      engagement_time: 12_345,
    })
    expect(engagement.statusCode).toBe(200)
    expect(engagement.json()).toEqual({ success: true })
    expect(await stored(site.siteId)).toEqual([
      { type: 'pageview', pathname: '/guide', scroll_depth: 0, engagement_time: 0 },
      { type: 'engagement', pathname: '/guide', scroll_depth: 64, engagement_time: 12_345 },
    ])
  })

  it.each([
    ['scroll_depth', 101, 'must be at most 100'],
    ['scroll_depth', 12.5, 'must be an integer'],
    ['engagement_time', -1, 'must be non-negative'],
    ['engagement_time', 'long', 'expected number'],
  ])('refuses %s %j with a 400 naming the field', async (field, value, message) => {
    const site = await freshSite()
    const response = await track(site, { type: 'engagement', [field]: value })
    expect(response.statusCode).toBe(400)
    const errors = response.json().details.fieldErrors[field] as string[]
    expect(errors.join(' ')).toContain(message)
  })

  it('does not record engagement that would open a session', async () => {
    const site = await freshSite()
    const response = await track(site, { type: 'engagement', scroll_depth: 10, engagement_time: 500 })
    expect(response.json()).toEqual({ success: true, tracked: false, reason: 'no_session' })
    expect(await stored(site.siteId)).toEqual([])
  })

  it('is refused over the site limit like every event', async () => {
    const site = await freshSite()
    const limit = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/sites/${site.siteId}/limits`,
      headers: { cookie },
      payload: { monthlyPageviewLimit: 1 },
    })
    expect(limit.statusCode).toBe(200)
    expect((await track(site, { pathname: '/' })).statusCode).toBe(200)
    const over = await track(site, { type: 'engagement', scroll_depth: 50, engagement_time: 1000 })
    expect(over.statusCode).toBe(403)
    expect((await stored(site.siteId)).map((e) => e.type)).toEqual(['pageview'])
  })

  it('is in the export with its figures', async () => {
    const site = await freshSite()
    await track(site, { pathname: '/a' })
    await track(site, { type: 'engagement', pathname: '/a', scroll_depth: 90, engagement_time: 4200 })
    await t.services.buffer.flush()
    const exported = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${site.siteId}/export`,
      headers: { cookie },
    })
    expect(exported.statusCode, exported.body.slice(0, 300)).toBe(200)
    const lines = exported.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; properties: unknown })
    const engagement = lines.find((line) => line.type === 'engagement')
    const properties =
      typeof engagement?.properties === 'string' ? JSON.parse(engagement.properties) : engagement?.properties
    expect(properties).toEqual({ scroll_depth: 90, engagement_time: 4200 })
  })

  it("is erased with the user's other events", async () => {
    const site = await freshSite()
    await track(site, { pathname: '/a', user_id: 'acct-7' })
    await track(site, {
      type: 'engagement',
      pathname: '/a',
      user_id: 'acct-7',
      scroll_depth: 30,
      engagement_time: 900,
    })
    await track(site, { pathname: '/b', user_id: 'acct-8' })
    await track(site, {
      type: 'engagement',
      pathname: '/b',
      user_id: 'acct-8',
      scroll_depth: 20,
      engagement_time: 800,
    })
    await t.services.buffer.flush()
    const erased = await t.app.inject({
      method: 'DELETE',
      url: `/api/sites/${site.siteId}/users/acct-7`,
      headers: { cookie },
    })
    expect(erased.statusCode, erased.body).toBe(200)
    expect((await stored(site.siteId)).map((e) => [e.type, e.pathname])).toEqual([
      ['pageview', '/b'],
      ['engagement', '/b'],
    ])
  })
})
