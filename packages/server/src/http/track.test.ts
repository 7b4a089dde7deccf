/**
 * POST /api/track through the real app (inject), on SQLite + chDB + in-process state and on
 * PostgreSQL + chDB + Redis: every failure condition of the tracking endpoint, every body field's
 * validation, and enrichment read back from the events store.
 */
import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Geolocator, openGeolocator } from '../ingest/enrich/geolocation.js'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const CHROME_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const GOOGLEBOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

let geolocator: Geolocator
beforeAll(async () => {
  geolocator = await openGeolocator()
}, 60_000)
afterAll(() => geolocator.close())

describe.each([
  ['SQLite + chDB, in-process state', { postgres: false, redis: false }],
  ['PostgreSQL + chDB + Redis', { postgres: true, redis: true }],
])('POST /api/track on %s', (_name, backends) => {
  let t: TestInstance
  let site: Site
  let apiKey: string
  let cookie: string

  beforeAll(async () => {
    t = await openTestInstance({ ...backends, geolocator })
    ;({ site, apiKey, cookie } = await t.seed())
  })
  afterAll(() => t.close())

  /** A browser's request; `from`: its address (the connection's; a keyless body cannot name one). */
  const track = (body: unknown, headers: Record<string, string> = {}, from?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/track',
      headers: {
        'content-type': 'application/json',
        'user-agent': CHROME_UA,
        origin: 'https://example.com',
        ...headers,
      },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
      ...(from === undefined ? {} : { remoteAddress: from }),
    })

  const eventsOf = async (siteId: number) => {
    await t.services.buffer.flush()
    return t.services.events.query<Record<string, unknown>>(
      'SELECT * FROM events WHERE site_id = {site:UInt32} ORDER BY timestamp',
      { site: siteId },
    )
  }

  async function freshSite(domain = 'example.com') {
    return t.createSite(cookie, site.organizationId, domain)
  }

  async function setSiteColumns(siteId: number, values: Record<string, unknown>) {
    await t.services.metadata.db.updateTable('site').set(values).where('site_id', '=', siteId).execute()
  }

  it('records a keyless browser pageview with geolocation, user agent and channel', async () => {
    const s = await freshSite()
    const response = await track(
      {
        site_id: String(s.siteId),
        pathname: '/pricing',
        hostname: 'example.com',
        page_title: 'Pricing',
        referrer: 'https://www.google.com/search?q=analytics',
        querystring: 'utm_campaign=launch&x=1',
        screenWidth: 1920,
        screenHeight: 1080,
        language: 'en-US',
      },
      {},
      '8.8.8.8',
    )
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ success: true })
    const [row] = await eventsOf(s.siteId)
    expect(row).toMatchObject({
      type: 'pageview',
      pathname: '/pricing',
      page_title: 'Pricing',
      country: 'US',
      browser: 'Chrome',
      operating_system: 'Windows',
      device_type: 'desktop',
      channel: 'Organic Search',
      referrer_domain: 'google.com',
      utm_campaign: 'launch',
      querystring: 'utm_campaign=launch&x=1',
      screen_width: 1920,
      language: 'en-US',
    })
    expect(row?.user_id).toMatch(/^[0-9a-f]{16}$/)
    expect(row?.session_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(JSON.stringify(row)).not.toContain('8.8.8.8')
  })

  it("answers CORS: the site's own Origin echoed with credentials, any other origin *, a preflight for JSON", async () => {
    const response = await track({ site_id: String(site.siteId) })
    expect(response.headers['access-control-allow-origin']).toBe('https://example.com')
    expect(response.headers['access-control-allow-credentials']).toBe('true')
    const foreign = await track({ site_id: String(site.siteId) }, { origin: 'https://evil.test' })
    expect(foreign.headers['access-control-allow-origin']).toBe('*')
    expect(foreign.headers['access-control-allow-credentials']).toBeUndefined()
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/track',
      headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' },
    })
    expect(preflight.statusCode).toBe(204)
    expect(preflight.headers['access-control-allow-headers']).toBe('content-type')
    expect(preflight.headers['access-control-allow-origin']).toBe('https://shop.example.com')
    expect(preflight.headers['access-control-allow-credentials']).toBe('true')
    const foreignPreflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/track',
      headers: { origin: 'https://example.com.evil.test', 'access-control-request-method': 'POST' },
    })
    expect(foreignPreflight.headers['access-control-allow-origin']).toBe('*')
    expect(foreignPreflight.headers['access-control-allow-credentials']).toBeUndefined()
  })

  it('accepts text/plain beacons and keeps one session for consecutive events', async () => {
    const s = await freshSite()
    const body = { site_id: s.siteId, pathname: '/a' }
    const gb = '81.2.69.142'
    expect((await track(JSON.stringify(body), { 'content-type': 'text/plain' }, gb)).statusCode).toBe(200)
    expect((await track({ ...body, pathname: '/b' }, {}, gb)).statusCode).toBe(200)
    const rows = await eventsOf(s.siteId)
    expect(rows.map((r) => r.pathname)).toEqual(['/a', '/b'])
    expect(rows[0]?.session_id).toBe(rows[1]?.session_id)
    expect(rows[0]?.country).toBe('GB')
  })

  it('records all five event types with their fields', async () => {
    const s = await freshSite()
    await setSiteColumns(s.siteId, { track_errors: 1, web_vitals: 1 })
    const base = { site_id: String(s.siteId), pathname: '/app' }
    const bodies = [
      { ...base, type: 'custom_event', event_name: 'signup', properties: '{"plan":"pro","seats":3}' },
      { ...base, type: 'performance', lcp: 1200.5, cls: 0.02, inp: 80, fcp: 900, ttfb: 120 },
      {
        ...base,
        type: 'outbound',
        properties: '{"url":"https://other.org/x","text":"Other","target":"_blank"}',
      },
      {
        ...base,
        type: 'error',
        event_name: 'TypeError',
        properties: JSON.stringify({
          message: "Cannot read properties of undefined (reading 'x')",
          stack: 'TypeError: boom\n    at f (https://example.com/app.js:10:5)',
          fileName: 'https://example.com/app.js',
          lineNumber: 10,
          columnNumber: 5,
        }),
      },
    ]
    for (const body of bodies) expect((await track(body)).statusCode).toBe(200)
    const rows = await eventsOf(s.siteId)
    expect(rows.find((r) => r.type === 'custom_event')).toMatchObject({
      event_name: 'signup',
      properties: '{"plan":"pro","seats":3}',
    })
    expect(rows.find((r) => r.type === 'performance')).toMatchObject({
      lcp: 1200.5,
      cls: 0.02,
      inp: 80,
      fcp: 900,
      ttfb: 120,
    })
    expect(rows.find((r) => r.type === 'outbound')?.properties).toContain('other.org')
    expect(rows.find((r) => r.type === 'error')).toMatchObject({
      event_name: 'TypeError',
      error_message: "Cannot read properties of undefined (reading 'x')",
      error_file: 'https://example.com/app.js',
      error_line: 10,
      error_column: 5,
    })
  })

  it("keyless outbound, error and performance events follow the site's switches; keyed ones are recorded", async () => {
    const s = await freshSite()
    await setSiteColumns(s.siteId, { track_outbound: 0, track_errors: 0, web_vitals: 0 })
    const bodies = [
      { type: 'outbound', properties: '{"url":"https://x.org"}' },
      { type: 'error', event_name: 'Error', properties: '{"message":"m"}' },
      { type: 'performance', lcp: 100 },
    ]
    const reasons = []
    for (const body of bodies)
      reasons.push((await track({ site_id: String(s.siteId), ...body })).json().reason)
    expect(reasons).toEqual([
      'trackOutbound is off for this site',
      'trackErrors is off for this site',
      'webVitals is off for this site',
    ])
    for (const body of bodies) {
      const keyed = await track({ site_id: String(s.siteId), ...body }, { authorization: `Bearer ${apiKey}` })
      expect(keyed.json()).toEqual({ success: true })
    }
    expect(await eventsOf(s.siteId)).toHaveLength(3)
  })

  it('stores an event sent again with the same event_id once, and acknowledges every attempt', async () => {
    const s = await freshSite()
    const eventId = crypto.randomUUID()
    const body = { site_id: String(s.siteId), pathname: '/retried', event_id: eventId }
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await track(body, { authorization: `Bearer ${apiKey}` })
      expect(response.statusCode, response.body).toBe(200)
      expect(response.json()).toEqual({ success: true })
    }
    const other = await freshSite()
    expect((await track({ ...body, site_id: String(other.siteId) })).json()).toEqual({ success: true })
    const stored = await eventsOf(s.siteId)
    expect(stored.map((row) => [row.pathname, row.event_id])).toEqual([['/retried', eventId]])
    expect(await eventsOf(other.siteId)).toHaveLength(1)
  })

  describe('invalid payloads answer 400 with the spec body, naming the field', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['site_id missing', { site_id: undefined }, 'site_id'],
      ['site_id an object', { site_id: {} }, 'site_id'],
      ['type unknown', { type: 'click' }, 'type'],
      ['pathname a number', { pathname: 5 }, 'pathname'],
      ['pathname too long', { pathname: `/${'a'.repeat(2048)}` }, 'pathname'],
      ['hostname an array', { hostname: ['a'] }, 'hostname'],
      ['page_title too long', { page_title: 'x'.repeat(513) }, 'page_title'],
      ['user_agent too long', { user_agent: 'x'.repeat(513) }, 'user_agent'],
      ['ip_address not an IP', { ip_address: '999.1.1.1' }, 'ip_address'],
      ['ip_address a number', { ip_address: 1 }, 'ip_address'],
      ['ip_address in octal', { ip_address: '010.1.1.1' }, 'ip_address'],
      ['querystring too long', { querystring: 'a'.repeat(2049) }, 'querystring'],
      ['referrer a boolean', { referrer: true }, 'referrer'],
      ['user_id too long', { user_id: 'u'.repeat(257) }, 'user_id'],
      ['screenWidth a string', { screenWidth: '1920' }, 'screenWidth'],
      ['screenHeight negative', { screenHeight: -1 }, 'screenHeight'],
      ['screenWidth fractional', { screenWidth: 10.5 }, 'screenWidth'],
      ['language too long', { language: 'x'.repeat(36) }, 'language'],
      ['event_id not a UUID', { event_id: 'retry-1' }, 'event_id'],
      ['event_name too long', { type: 'custom_event', event_name: 'e'.repeat(257) }, 'event_name'],
      ['properties a number', { type: 'custom_event', event_name: 'e', properties: 42 }, 'properties'],
      [
        'properties an object too long',
        { type: 'custom_event', event_name: 'e', properties: { a: 'x'.repeat(2048) } },
        'properties',
      ],
      ['properties bad JSON', { type: 'custom_event', event_name: 'e', properties: '{"a":' }, 'properties'],
      [
        'properties a JSON array',
        { type: 'custom_event', event_name: 'e', properties: '[1,2]' },
        'properties',
      ],
      [
        'properties too long',
        { type: 'custom_event', event_name: 'e', properties: `{"a":"${'x'.repeat(2048)}"}` },
        'properties',
      ],
      ['lcp a string', { type: 'performance', lcp: 'fast' }, 'lcp'],
      ['cls negative', { type: 'performance', cls: -0.1 }, 'cls'],
      ['inp a string', { type: 'performance', inp: '1' }, 'inp'],
      ['fcp a string', { type: 'performance', fcp: '12' }, 'fcp'],
      ['ttfb too large', { type: 'performance', ttfb: 1e12 }, 'ttfb'],
    ]
    it.each(cases)('%s', async (_label, body, field) => {
      const response = await track({ site_id: String(site.siteId), ...body })
      expect(response.statusCode).toBe(400)
      const json = response.json()
      expect(json).toMatchObject({
        success: false,
        error: 'Invalid payload',
        details: { formErrors: expect.any(Array) },
      })
      expect(Object.keys(json.details.fieldErrors)).toContain(field)
    })

    it('custom_event without event_name is a form error saying so', async () => {
      const response = await track({ site_id: String(site.siteId), type: 'custom_event' })
      expect(response.statusCode).toBe(400)
      expect(response.json().details.formErrors).toEqual(['custom_event requires event_name'])
    })

    it.each([['not json at all'], ['[1,2,3]'], ['"a string"'], ['null'], ['']])('body %j', async (body) => {
      const response = await track(body)
      expect(response.statusCode).toBe(400)
      expect(response.json()).toMatchObject({ success: false, error: 'Invalid payload' })
    })

    it('a body over 64 KB is 413', async () => {
      const response = await track({ site_id: '1', pathname: 'x'.repeat(70_000) })
      expect(response.statusCode).toBe(413)
      expect(response.json()).toMatchObject({ success: false })
    })
  })

  it('unknown site: 404 Site not found', async () => {
    for (const id of ['999999', 'abc', '-1', 0]) {
      const response = await track({ site_id: id })
      expect(response.statusCode).toBe(404)
      expect(response.json()).toEqual({ success: false, error: 'Site not found' })
    }
  })

  it('invalid API key: 401; a key of a user outside the organization: 403 Access denied', async () => {
    const body = { site_id: String(site.siteId), pathname: '/' }
    const bad = await track(body, { authorization: 'Bearer pl_not-a-real-key' })
    expect(bad.statusCode).toBe(401)
    expect(bad.json()).toEqual({ success: false, error: 'Invalid API key' })
    const outsider = await t.signUp()
    const outsiderKey = await t.createApiKey(outsider.cookie)
    const denied = await track(body, { authorization: `Bearer ${outsiderKey}` })
    expect(denied.statusCode).toBe(403)
    expect(denied.json()).toEqual({ success: false, error: 'Access denied' })
  })

  it('keyless requests from another domain are refused; subdomains and www pass', async () => {
    const body = { site_id: String(site.siteId), pathname: '/' }
    expect((await track(body, { origin: 'https://evil.test' })).statusCode).toBe(403)
    expect((await track(body, { origin: 'https://www.example.com' })).statusCode).toBe(200)
    expect((await track(body, { origin: 'https://blog.example.com' })).statusCode).toBe(200)
    expect((await track(body, { origin: 'https://notexample.com' })).statusCode).toBe(403)
    expect(
      (await track(body, { origin: 'https://evil.test', authorization: `Bearer ${apiKey}` })).statusCode,
    ).toBe(200)
  })

  it('bots: 403 Bot detected without a key, recorded with one', async () => {
    const s = await freshSite()
    const body = { site_id: String(s.siteId), pathname: '/' }
    for (const ua of [
      GOOGLEBOT_UA,
      '',
      'Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/120.0.0.0 Safari/537.36',
    ]) {
      const response = await track(body, { 'user-agent': ua })
      expect(response.statusCode).toBe(403)
      expect(response.json()).toEqual({ success: false, error: 'Bot detected' })
    }
    const keyed = await track(body, { 'user-agent': GOOGLEBOT_UA, authorization: `Bearer ${apiKey}` })
    expect(keyed.statusCode).toBe(200)
    expect(await eventsOf(s.siteId)).toHaveLength(1)
    // A site with blockBots off records bots (a new site: the site lookup caches for 2 s).
    const open = await freshSite()
    await setSiteColumns(open.siteId, { block_bots: 0 })
    expect((await track({ site_id: String(open.siteId) }, { 'user-agent': GOOGLEBOT_UA })).statusCode).toBe(
      200,
    )
  })

  it('excluded IPs (CIDR) and countries are not recorded: 200 tracked:false', async () => {
    const s = await freshSite()
    await setSiteColumns(s.siteId, {
      excluded_ips: JSON.stringify(['10.0.0.0/8', '2001:db8::/32', '203.0.113.7']),
      excluded_countries: JSON.stringify(['GB']),
    })
    const body = { site_id: String(s.siteId), pathname: '/' }
    for (const ip of ['10.1.2.3', '2001:db8::1', '203.0.113.7']) {
      const response = await track(body, {}, ip)
      expect(response.json()).toEqual({ success: true, tracked: false, reason: 'excluded_ip' })
    }
    const gb = await track(body, {}, '81.2.69.142')
    expect(gb.json()).toEqual({ success: true, tracked: false, reason: 'excluded_country' })
    expect((await track(body, {}, '8.8.8.8')).json()).toEqual({ success: true })
    expect(await eventsOf(s.siteId)).toHaveLength(1)
  })

  it('over the monthly pageview limit: 403 with the spec message', async () => {
    const s = await freshSite()
    const limit = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/sites/${s.siteId}/limits`,
      headers: { cookie },
      payload: { monthlyPageviewLimit: 3 },
    })
    expect(limit.json()).toEqual({ success: true, data: { siteId: s.siteId, monthlyPageviewLimit: 3 } })
    const body = { site_id: String(s.siteId), pathname: '/' }
    for (let i = 0; i < 3; i++) expect((await track(body)).statusCode).toBe(200)
    const over = await track(body)
    expect(over.statusCode).toBe(403)
    expect(over.json()).toEqual({ success: false, error: 'Site is over its monthly pageview limit' })
    expect(await eventsOf(s.siteId)).toHaveLength(3)
  })

  it('the 501st keyed request inside the window gets 429 with the spec message and headers', async () => {
    const { cookie: c } = await t.signUp()
    const org = await t.createOrganization(c)
    const s = await t.createSite(c, org)
    const key = await t.createApiKey(c)
    const body = JSON.stringify({ site_id: String(s.siteId), type: 'custom_event', event_name: 'tick' })
    const send = () => track(body, { authorization: `Bearer ${key}` })
    for (let i = 0; i < 50; i++) {
      const batch = await Promise.all(Array.from({ length: 10 }, send))
      expect(batch.every((r) => r.statusCode === 200)).toBe(true)
    }
    const limited = await send()
    expect(limited.statusCode).toBe(429)
    expect(limited.json()).toEqual({
      success: false,
      error: 'Rate limit exceeded: at most 500 requests per 10 minutes per API key',
    })
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    expect(limited.headers['x-ratelimit-limit']).toBe('500')
    // Keyless traffic, unknown keys and other keys are not affected.
    expect((await track(body, { authorization: 'Bearer pl_wrong' })).statusCode).toBe(401)
    expect((await track(body)).statusCode).toBe(200)
    expect((await track(body, { authorization: `Bearer ${apiKey}` })).statusCode).toBe(403)
  }, 60_000)

  it('no input crashes the endpoint: random bodies never answer 500', async () => {
    const values = [null, true, 0, -1, 1e308, '', 'x', '\u0000', '💥'.repeat(100), [], {}, [1], { a: 1 }]
    const fields = [
      'site_id',
      'type',
      'pathname',
      'hostname',
      'properties',
      'event_name',
      'lcp',
      'screenWidth',
      'ip_address',
      'user_id',
    ]
    let seed = 7
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    for (let i = 0; i < 200; i++) {
      const body: Record<string, unknown> = { site_id: String(site.siteId) }
      for (let j = 0; j < 3; j++) body[fields[random(fields.length)] ?? 'x'] = values[random(values.length)]
      const response = await track(body)
      expect(response.statusCode, JSON.stringify(body)).toBeLessThan(500)
    }
  })
})
