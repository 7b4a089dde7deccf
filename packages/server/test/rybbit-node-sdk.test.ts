/**
 * Rybbit's server SDK, `@rybbit/node` 1.0.0 from npm, unchanged, against a listening Pathlight at
 * `analyticsHost: <pathlight>/api`: it sends its key as the body's `api_key`, which counts exactly as
 * the Bearer header (checks, per-key limit, the body's `ip_address` and `user_agent` read); both given
 * and different is a 400 naming `api_key`.
 */
import { Rybbit } from '@rybbit/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Geolocator, openGeolocator } from '../src/ingest/enrich/geolocation.js'
import type { Site } from '../src/sites/site.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

/** Geolocates to GB in DB-IP City Lite. */
const GB_IP = '81.2.69.142'
const FIREFOX_MAC_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0'

interface StoredRow {
  type: string
  event_name: string
  pathname: string
  hostname: string
  querystring: string
  page_title: string
  user_id: string
  country: string
  browser: string
  operating_system: string
  screen_width: number
  language: string
  properties: string
}

describe('@rybbit/node against Pathlight', () => {
  let geolocator: Geolocator
  let t: TestInstance
  let site: Site
  let apiKey: string
  let serverUrl: string

  beforeAll(async () => {
    geolocator = await openGeolocator()
    t = await openTestInstance({ geolocator, env: { PATHLIGHT_TRACK_KEY_LIMIT: '6' } })
    ;({ site, apiKey } = await t.seed())
    serverUrl = await t.app.listen({ port: 0, host: '127.0.0.1' })
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    geolocator?.close()
  })

  const stored = async (siteId: number) => {
    await t.services.buffer.flush()
    return t.services.events.query<StoredRow>(
      `SELECT type, event_name, pathname, hostname, querystring, page_title, user_id, country, browser,
              operating_system, screen_width, language, properties
       FROM events WHERE site_id = {site:UInt32} ORDER BY timestamp, event_name`,
      { site: siteId },
    )
  }

  it('stores its pageview and custom event with what it sent: IP and user agent of the payload', async () => {
    const rybbit = new Rybbit({ analyticsHost: `${serverUrl}/api`, siteId: String(site.siteId), apiKey })
    await rybbit.pageview({
      hostname: 'example.com',
      pathname: '/pricing',
      querystring: '?plan=pro',
      page_title: 'Pricing',
      screenWidth: 1440,
      screenHeight: 900,
      language: 'en-GB',
      user_id: 'customer-42',
      user_agent: FIREFOX_MAC_UA,
      ip_address: GB_IP,
    })
    await rybbit.event(
      'signup',
      { pathname: '/signup', user_agent: FIREFOX_MAC_UA, ip_address: GB_IP, user_id: 'customer-42' },
      { plan: 'pro', seats: 3 },
    )
    const rows = await stored(site.siteId)
    expect(rows).toHaveLength(2)
    expect(rows[0]).toMatchObject({
      type: 'pageview',
      pathname: '/pricing',
      hostname: 'example.com',
      page_title: 'Pricing',
      user_id: 'customer-42',
      country: 'GB',
      browser: 'Firefox',
      operating_system: 'Mac OS',
      screen_width: 1440,
      language: 'en-GB',
    })
    expect(rows[1]).toMatchObject({
      type: 'custom_event',
      event_name: 'signup',
      pathname: '/signup',
      user_id: 'customer-42',
      country: 'GB',
      browser: 'Firefox',
    })
    expect(JSON.parse(rows[1]?.properties ?? '')).toEqual({ plan: 'pro', seats: 3 })
  })

  const post = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    fetch(`${serverUrl}/api/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    })

  it('checks a body key as a header key: unknown 401, both given and different 400 naming api_key', async () => {
    const stranger = await t.signUp()
    const other = await t.createSite(stranger.cookie, await t.createOrganization(stranger.cookie))
    const unknown = await post({ site_id: String(site.siteId), api_key: 'pl_nope' })
    expect(unknown.status).toBe(401)
    const conflict = await post(
      { site_id: String(site.siteId), api_key: apiKey },
      { authorization: 'Bearer pl_someone_else' },
    )
    expect(conflict.status).toBe(400)
    expect(
      ((await conflict.json()) as { details: { fieldErrors: Record<string, unknown> } }).details.fieldErrors,
    ).toHaveProperty('api_key')
    const same = await post(
      { site_id: String(site.siteId), api_key: apiKey, pathname: '/same' },
      { authorization: `Bearer ${apiKey}` },
    )
    expect(same.status).toBe(200)
    // A key of a user outside the site's organization: 403 as with the header.
    expect((await post({ site_id: String(other.siteId), api_key: apiKey })).status).toBe(403)
  })

  it('shares one per-key limit between the body key and the header key', async () => {
    const { site: limited, apiKey: key } = await t.seed()
    const statuses: number[] = []
    for (let i = 0; i < 4; i++)
      statuses.push((await post({ site_id: String(limited.siteId), api_key: key })).status)
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await post({ site_id: String(limited.siteId) }, { authorization: `Bearer ${key}` })).status,
      )
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(6)
    expect(statuses.filter((s) => s === 429)).toHaveLength(2)
    expect(await stored(limited.siteId)).toHaveLength(6)
  })
})
