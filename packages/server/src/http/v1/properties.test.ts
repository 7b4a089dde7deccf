/**
 * `GET /api/v1/sites/{siteId}/properties` and `.../breakdown/properties` over real HTTP on loopback,
 * SQLite + chDB: events tracked with an API key (custom events with ties in value types, pageviews
 * carrying properties too), answers checked against a count in plain code over the tracked bodies,
 * against the dashboard pair's answers, and the v1 guard (key, site, rate-limit headers, 400s).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../../sites/site.js'
import { openTestInstance, type TestInstance } from '../../testing/test-instance.js'

/** Properties texts as tracked: 3, "3", 3.0 and 3e0 tie as "3"; nested values are JSON text. */
const TEXTS = [
  '{"plan":"pro","seats":3}',
  '{"plan":"pro","seats":"3"}',
  '{"plan":"free","seats":3.0}',
  '{"plan":"free","seats":3e0,"trial":true}',
  '{"plan":{"tier":"gold","addons":[1, "sso"]},"seats":12.5}',
  '{"plan":null,"trial":"true"}',
  '{}',
]

interface Tracked {
  user: string
  type: 'pageview' | 'custom_event'
  name: string
  properties: string
}

/** Visitor i: a pageview with a `source`, a signup with TEXTS[i % 7], every third also a renew. */
const TRACKED: Tracked[] = []
for (let i = 0; i < 21; i++) {
  const user = `v${i % 15}`
  const properties = TEXTS[i % TEXTS.length] as string
  TRACKED.push({
    user,
    type: 'pageview',
    name: '',
    properties: `{"source":"${i % 3 === 0 ? 'crm' : 'ads'}"}`,
  })
  TRACKED.push({ user, type: 'custom_event', name: 'signup', properties })
  if (i % 3 === 0) TRACKED.push({ user, type: 'custom_event', name: 'renew', properties })
}

/** A value's canonical text, computed here: a string as it is, anything else as its JSON text. */
const canonical = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))

/** `{[field], events, visitors}` rows of the custom events, most events first, then by field. */
function expectedRows(field: string, keysOf: (e: Tracked) => string[], eventName?: string) {
  const groups = new Map<string, { events: number; users: Set<string> }>()
  for (const e of TRACKED) {
    if (e.type !== 'custom_event' || (eventName !== undefined && e.name !== eventName)) continue
    for (const key of keysOf(e)) {
      const group = groups.get(key) ?? { events: 0, users: new Set<string>() }
      group.events++
      group.users.add(e.user)
      groups.set(key, group)
    }
  }
  return [...groups.entries()]
    .map(([key, g]) => ({ [field]: key, events: g.events, visitors: g.users.size }))
    .sort((a, b) => b.events - a.events || (String(a[field]) < String(b[field]) ? -1 : 1))
}

const keysOf = (e: Tracked) => Object.keys(JSON.parse(e.properties))
const valuesOf = (key: string) => (e: Tracked) => {
  const object = JSON.parse(e.properties) as Record<string, unknown>
  return key in object ? [canonical(object[key])] : []
}

let t: TestInstance
let site: Site
let otherSite: Site
let key: string
let cookie: string
let base: string
const RANGE = 'start_date=2026-06-01&end_date=2026-06-30'

beforeAll(async () => {
  t = await openTestInstance({ clock: () => Date.parse('2026-06-20T12:00:00.000Z') })
  const seeded = await t.seed()
  ;({ site, apiKey: key, cookie } = seeded)
  const outsider = await t.signUp()
  otherSite = await t.createSite(
    outsider.cookie,
    await t.createOrganization(outsider.cookie),
    'other.example',
  )
  base = await t.app.listen({ host: '127.0.0.1', port: 0 })
  for (const e of TRACKED) {
    const response = await fetch(`${base}/api/track`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        site_id: String(site.siteId),
        user_id: e.user,
        type: e.type,
        hostname: 'example.com',
        pathname: '/app',
        ...(e.name ? { event_name: e.name } : {}),
        properties: e.properties,
      }),
    })
    expect(response.status, await response.text()).toBe(200)
  }
  await t.services.buffer.flush()
}, 120_000)
afterAll(() => t?.close())

const v1 = async (path: string, headers: Record<string, string> = { authorization: `Bearer ${key}` }) => {
  const response = await fetch(`${base}/api/v1/sites/${path}`, { headers })
  return { status: response.status, headers: response.headers, body: await response.json() }
}

describe('v1 custom property reports over HTTP', () => {
  it('lists the keys of the custom events, with and without event_name', async () => {
    const all = await v1(`${site.siteId}/properties?${RANGE}`)
    expect(all.status, JSON.stringify(all.body)).toBe(200)
    expect(all.body.data).toEqual(expectedRows('key', keysOf))
    expect(all.body.meta).toEqual({ total: 3, page: 1, pageSize: 50, totalPages: 1 })
    const renew = await v1(`${site.siteId}/properties?${RANGE}&event_name=renew`)
    expect(renew.body.data).toEqual(expectedRows('key', keysOf, 'renew'))
  })

  it('breaks a key down by value: 3, "3", 3.0 and 3e0 one row; nested values as JSON text', async () => {
    const seats = await v1(`${site.siteId}/breakdown/properties?${RANGE}&property=seats`)
    expect(seats.body.data).toEqual(expectedRows('value', valuesOf('seats')))
    expect(seats.body.data[0]).toMatchObject({ value: '3' })
    const plan = await v1(`${site.siteId}/breakdown/properties?${RANGE}&property=plan&event_name=signup`)
    expect(plan.body.data).toEqual(expectedRows('value', valuesOf('plan'), 'signup'))
    expect(plan.body.data.map((row: { value: string }) => row.value)).toContain(
      '{"tier":"gold","addons":[1,"sso"]}',
    )
    const trial = await v1(`${site.siteId}/breakdown/properties?${RANGE}&property=trial`)
    // true and "true" are one value.
    expect(trial.body.data).toEqual(expectedRows('value', valuesOf('trial')))
    expect(trial.body.data).toHaveLength(1)
  })

  it('pages and filters as the dashboard pair does, with the same answers', async () => {
    const filters = encodeURIComponent(
      JSON.stringify([{ parameter: 'properties.plan', type: 'equals', value: ['pro'] }]),
    )
    for (const path of [
      `properties?${RANGE}&limit=2&page=2`,
      `breakdown/properties?${RANGE}&property=seats&limit=1&page=2`,
      `breakdown/properties?${RANGE}&property=seats&filters=${filters}`,
    ]) {
      const keyed = await v1(`${site.siteId}/${path}`)
      expect(keyed.status, JSON.stringify(keyed.body)).toBe(200)
      const dashboard = await fetch(`${base}/api/sites/${site.siteId}/${path}`, { headers: { cookie } })
      expect(keyed.body).toEqual(await dashboard.json())
    }
    const paged = await v1(`${site.siteId}/breakdown/properties?${RANGE}&property=seats&limit=1&page=2`)
    expect(paged.body.data).toEqual(expectedRows('value', valuesOf('seats')).slice(1, 2))
    const filtered = await v1(
      `${site.siteId}/breakdown/properties?${RANGE}&property=seats&filters=${filters}`,
    )
    expect(filtered.body.data).toEqual(
      expectedRows('value', (e) => (JSON.parse(e.properties).plan === 'pro' ? valuesOf('seats')(e) : [])),
    )
  })

  it('keeps the properties of every event type tracked with a key: pageviews filtered by one', async () => {
    const filters = encodeURIComponent(
      JSON.stringify([{ parameter: 'properties.source', type: 'equals', value: ['crm'] }]),
    )
    const stats = await v1(`${site.siteId}/stats?${RANGE}&filters=${filters}`)
    expect(stats.status, JSON.stringify(stats.body)).toBe(200)
    const crm = TRACKED.filter((e) => e.type === 'pageview' && JSON.parse(e.properties).source === 'crm')
    expect(stats.body.data.current.pageviews).toBe(crm.length)
    expect(stats.body.data.current.visitors).toBe(new Set(crm.map((e) => e.user)).size)
  })

  it('answers 400 naming the field, 401 without a key, 404 for a foreign site; rate-limit headers', async () => {
    const missing = await v1(`${site.siteId}/breakdown/properties?${RANGE}`)
    expect(missing.status).toBe(400)
    expect(missing.body.error).toMatch(/property/)
    const control = await v1(`${site.siteId}/breakdown/properties?${RANGE}&property=%07x`)
    expect(control.status).toBe(400)
    expect(control.body.error).toMatch(/property/)
    const empty = await v1(`${site.siteId}/properties?${RANGE}&event_name=`)
    expect(empty.status).toBe(400)
    expect(empty.body.error).toMatch(/event_name/)
    expect((await v1(`${site.siteId}/properties?${RANGE}`, {})).status).toBe(401)
    expect((await v1(`${site.siteId}/properties?${RANGE}`, { cookie })).status).toBe(401)
    expect((await v1(`${otherSite.siteId}/properties?${RANGE}`)).status).toBe(404)
    expect((await v1(`${otherSite.siteId}/breakdown/properties?${RANGE}&property=plan`)).status).toBe(404)
    const ok = await v1(`${site.siteId}/properties?${RANGE}`)
    expect(ok.headers.get('x-ratelimit-limit')).toBe('50')
    expect(Number(ok.headers.get('x-ratelimit-remaining'))).toBeLessThan(50)
  })
})
