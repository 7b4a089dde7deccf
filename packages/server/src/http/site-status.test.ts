/**
 * `GET /api/sites/{siteId}/has-events`: false on a new site, then the newest event's time; and the
 * site's tracking requests that were dropped, by reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

describe('site event status', () => {
  let t: TestInstance
  let seeded: Awaited<ReturnType<TestInstance['seed']>>

  beforeAll(async () => {
    t = await openTestInstance({ workers: false })
    seeded = await t.seed()
  })
  afterAll(() => t.close())

  const status = async (cookie = seeded.cookie, siteId = seeded.site.siteId) =>
    t.app.inject({ method: 'GET', url: `/api/sites/${siteId}/has-events`, headers: { cookie } })

  it('answers false, then the time of the newest event once one is stored', async () => {
    expect((await status()).json()).toEqual({
      success: true,
      data: { hasEvents: false, lastEventAt: null, drops: null },
    })

    const before = Date.now()
    for (const pathname of ['/a', '/b']) {
      const tracked = await t.app.inject({
        method: 'POST',
        url: '/api/track',
        headers: { authorization: `Bearer ${seeded.apiKey}` },
        payload: { site_id: String(seeded.site.siteId), pathname },
      })
      expect(tracked.statusCode, tracked.body).toBe(200)
    }
    await expect.poll(async () => (await status()).json().data.hasEvents).toBe(true)
    const { lastEventAt } = (await status()).json().data as { lastEventAt: string }
    expect(lastEventAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(Date.parse(lastEventAt)).toBeGreaterThanOrEqual(before - 1000)
    expect(Date.parse(lastEventAt)).toBeLessThanOrEqual(Date.now())
  })

  it('counts the site’s dropped requests by reason, for the installation page to explain', async () => {
    const site = await t.createSite(seeded.cookie, seeded.organizationId, 'drops.example')
    const headless =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36'
    for (let i = 0; i < 3; i++) {
      const sent = await t.track(site, { pathname: '/' }, { headers: { 'user-agent': headless } })
      expect(sent.statusCode, sent.body).toBe(403)
    }
    const foreign = await t.track(
      site,
      { pathname: '/' },
      { headers: { origin: 'https://elsewhere.example' } },
    )
    expect(foreign.statusCode).toBeLessThan(500)
    const { data } = (await status(seeded.cookie, site.siteId)).json()
    expect(data).toMatchObject({
      hasEvents: false,
      drops: { count: 4, byReason: { 'bot:headless_browser': 3, domain_mismatch: 1 } },
    })
    expect(Date.parse(data.drops.lastAt)).toBeLessThanOrEqual(Date.now())
    // Another site's count is its own.
    expect((await status()).json().data.drops).toBeNull()
  })

  it('does not reveal another organization’s site', async () => {
    const outsider = await t.signUp()
    const response = await status(outsider.cookie)
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ success: false, error: 'Site not found' })
    expect((await status(seeded.cookie, 999_999)).statusCode).toBe(404)
  })
})
