/**
 * `ip_address` and `user_agent` in a tracking body are taken only from requests authenticated by an
 * API key (a server tracking for its visitors). A browser without a key cannot choose its address (to
 * pass IP exclusions or pick a country) nor its user agent (to pass the bot filter): the connection's
 * address, as the trusted-proxy rules give it, and the User-Agent header are used instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Geolocator, openGeolocator } from '../ingest/enrich/geolocation.js'
import type { Site } from '../sites/site.js'
import { DESKTOP_CHROME_UA, openTestInstance, type TestInstance } from '../testing/test-instance.js'

const GOOGLEBOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
/** Geolocates to GB in DB-IP City Lite. */
const GB_IP = '81.2.69.142'

describe('client fields of POST /api/track', () => {
  let geolocator: Geolocator
  let t: TestInstance
  let cookie: string
  let apiKey: string
  let organizationId: string

  beforeAll(async () => {
    geolocator = await openGeolocator()
    // Behind a proxy on loopback (inject's address): X-Forwarded-For names the client.
    t = await openTestInstance({ geolocator, env: { TRUST_PROXY: 'loopback' } })
    ;({ cookie, apiKey, organizationId } = await t.seed())
  }, 60_000)
  afterAll(async () => {
    await t.close()
    geolocator.close()
  })

  /** A new site excluding 203.0.113.0/24 and GB visitors. */
  const excludingSite = async (): Promise<Site> => {
    const site = await t.createSite(cookie, organizationId)
    const config = await t.app.inject({
      method: 'PUT',
      url: `/api/sites/${site.siteId}/config`,
      headers: { cookie },
      payload: { excludedIPs: ['203.0.113.0/24'], excludedCountries: ['GB'] },
    })
    expect(config.statusCode, config.body).toBe(200)
    return site
  }

  const stored = async (siteId: number) => {
    await t.services.buffer.flush()
    return t.services.events.query<{ country: string; browser: string }>(
      'SELECT country, browser FROM events WHERE site_id = {site:UInt32} ORDER BY timestamp',
      { site: siteId },
    )
  }

  it('a keyless ip_address neither passes nor triggers IP exclusions: the connection’s address counts', async () => {
    const site = await excludingSite()
    const fromBrowser = await t.track(site, { ip_address: '203.0.113.9' })
    expect(fromBrowser.json()).toEqual({ success: true })
    const forwarded = await t.track(
      site,
      { ip_address: '8.8.8.8' },
      { headers: { 'x-forwarded-for': '203.0.113.9' } },
    )
    expect(forwarded.json()).toEqual({ success: true, tracked: false, reason: 'excluded_ip' })
    const fromServer = await t.track(site, { ip_address: '203.0.113.9' }, { apiKey })
    expect(fromServer.json()).toEqual({ success: true, tracked: false, reason: 'excluded_ip' })
    expect(await stored(site.siteId)).toHaveLength(1)
  })

  it('a keyless ip_address does not pick the country', async () => {
    const site = await excludingSite()
    expect((await t.track(site, { ip_address: GB_IP })).json()).toEqual({ success: true })
    expect(await stored(site.siteId)).toEqual([expect.objectContaining({ country: '' })])
    const forwarded = await t.track(
      site,
      { ip_address: '8.8.8.8' },
      { headers: { 'x-forwarded-for': GB_IP } },
    )
    expect(forwarded.json()).toEqual({ success: true, tracked: false, reason: 'excluded_country' })
    const fromServer = await t.track(site, { ip_address: GB_IP }, { apiKey })
    expect(fromServer.json()).toEqual({ success: true, tracked: false, reason: 'excluded_country' })
  })

  it('a keyless user_agent does not pass the bot filter nor name the browser; a keyed one does', async () => {
    const site = await excludingSite()
    const bot = await t.track(
      site,
      { user_agent: DESKTOP_CHROME_UA },
      { headers: { 'user-agent': GOOGLEBOT_UA } },
    )
    expect(bot.statusCode).toBe(403)
    expect(bot.json()).toEqual({ success: false, error: 'Bot detected' })
    expect((await t.track(site, { user_agent: GOOGLEBOT_UA })).json()).toEqual({ success: true })
    expect(await stored(site.siteId)).toEqual([expect.objectContaining({ browser: 'Chrome' })])
    const fromServer = await t.track(
      site,
      { user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0' },
      { apiKey },
    )
    expect(fromServer.json()).toEqual({ success: true })
    expect((await stored(site.siteId)).map((row) => row.browser)).toEqual(['Chrome', 'Firefox'])
  })
})
