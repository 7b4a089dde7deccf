/**
 * JSON nested past `MAX_JSON_DEPTH` on every route family that parses JSON, through the real app (inject)
 * on SQLite + chDB: tracking (JSON and text/plain bodies, a `properties` string), replay batches, import
 * lines, Fastify-parsed bodies (a goal, the report batch, Better Auth's sign-up) and the `filters` query
 * parameter (dashboard, with a saved segment, and v1). Each answers a 400 naming the field (an import
 * line is rejected naming it), never a 500, and nothing too deep is stored; a replay batch stored
 * deeper before the bound existed still reads back.
 */
import { MAX_JSON_DEPTH } from '@pathlight/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { DESKTOP_CHROME_UA, openTestInstance, type TestInstance } from '../testing/test-instance.js'

const TOO_DEEP = `nested more than ${MAX_JSON_DEPTH} levels deep`

/** JSON text of objects nested `levels` deep (`{"a":{"a":...1}}`), built as text: no serializer recursion. */
const nestedObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`
/** JSON text of arrays nested `levels` deep. */
const nestedArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`

describe('JSON nesting bound', () => {
  let t: TestInstance
  let owner: { cookie: string; organizationId: string; apiKey: string }
  let site: Site

  beforeAll(async () => {
    t = await openTestInstance()
    owner = await t.seed()
    site = await t.createSite(owner.cookie, owner.organizationId, 'example.com')
    const config = await t.app.inject({
      method: 'PUT',
      url: `/api/sites/${site.siteId}/config`,
      headers: { cookie: owner.cookie },
      payload: { sessionReplay: true },
    })
    expect(config.statusCode, config.body).toBe(200)
  }, 60_000)
  afterAll(() => t.close())

  const browser = { 'user-agent': DESKTOP_CHROME_UA, origin: 'https://example.com' }
  const track = (payload: string, contentType: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/track',
      remoteAddress: '203.0.113.40',
      headers: { 'content-type': contentType, ...browser },
      payload,
    })
  const storedEvents = async () => {
    await t.services.buffer.flush()
    const [row] = await t.services.events.query<{ n: number }>(
      'SELECT count() AS n FROM events WHERE site_id = {site:UInt32}',
      { site: site.siteId },
    )
    return Number(row?.n)
  }

  it('refuses a tracking body whose properties nest too deeply, as JSON and as text/plain', async () => {
    const body = `{"site_id":"${site.siteId}","type":"custom_event","event_name":"x","properties":${nestedObject(5_000)}}`
    for (const contentType of ['application/json', 'text/plain']) {
      const response = await track(body, contentType)
      expect(response.statusCode, response.body.slice(0, 300)).toBe(400)
      expect(response.json()).toEqual({
        success: false,
        error: 'Invalid payload',
        details: { fieldErrors: { properties: [TOO_DEEP] }, formErrors: [] },
      })
    }
    expect(await storedEvents()).toBe(0)
  })

  it('refuses a properties string holding a value nested too deeply, and takes one at the bound', async () => {
    const deep = `{"a":${nestedArray(MAX_JSON_DEPTH)}}`
    const atBound = `{"a":${nestedArray(MAX_JSON_DEPTH - 1)}}`
    expect(deep.length).toBeLessThanOrEqual(2048)
    const event = (properties: string) =>
      JSON.stringify({ site_id: String(site.siteId), type: 'custom_event', event_name: 'x', properties })
    const refused = await track(event(deep), 'application/json')
    expect(refused.statusCode, refused.body).toBe(400)
    expect(refused.json()).toMatchObject({ details: { fieldErrors: { properties: [TOO_DEEP] } } })
    const taken = await track(event(atBound), 'application/json')
    expect(taken.statusCode, taken.body).toBe(200)
    expect(await storedEvents()).toBe(1)
  })

  it('refuses a replay batch whose event data nest too deeply, and stores nothing', async () => {
    const body = `{"site_id":${site.siteId},"sequence":0,"events":[{"type":3,"timestamp":1000,"data":${nestedObject(10_000)}}]}`
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/replay',
      remoteAddress: '203.0.113.41',
      headers: { 'content-type': 'text/plain', ...browser },
      payload: body,
    })
    expect(response.statusCode, response.body.slice(0, 300)).toBe(400)
    expect(response.json()).toEqual({
      success: false,
      error: 'Invalid payload',
      details: { fieldErrors: { events: [TOO_DEEP] }, formErrors: [] },
    })
    const rows = await t.services.events.query<{ n: number }>(
      'SELECT count() AS n FROM replay WHERE site_id = {site:UInt32}',
      { site: site.siteId },
    )
    expect(Number(rows[0]?.n)).toBe(0)
  })

  it('reads back a batch stored deeper than the bound (before it existed) without a 500', async () => {
    const payload = Buffer.from(
      `{"site_id":${site.siteId},"sequence":0,"events":[{"type":3,"timestamp":1000,"data":${nestedObject(10_000)}}]}`,
    )
    const now = Date.now()
    await t.services.events.insertReplay([
      {
        site_id: site.siteId,
        session_id: 'deep-before-the-bound',
        sequence: 0,
        timestamp: new Date(now).toISOString(),
        received_at: new Date(now).toISOString(),
        expires_at: new Date(now + 86_400_000).toISOString(),
        bytes: payload.length,
        encoding: 'json',
        payload,
      },
    ])
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${site.siteId}/sessions/deep-before-the-bound/replay`,
      headers: { cookie: owner.cookie },
    })
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200)
    const answer = JSON.parse(response.body) as { data: { events: unknown[]; meta: { truncated: boolean } } }
    expect(answer.data.events).toHaveLength(1)
    expect(answer.data.meta.truncated).toBe(false)
  })

  it('rejects an import line whose properties nest too deeply, naming the field, and imports the rest', async () => {
    const good = JSON.stringify({ timestamp: '2026-11-01T10:00:00Z', pathname: '/fine' })
    const deep = `{"timestamp":"2026-11-01T10:01:00Z","pathname":"/deep","properties":${nestedObject(5_000)}}`
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/import`,
      headers: { cookie: owner.cookie, 'content-type': 'application/x-ndjson' },
      payload: `${good}\n${deep}\n`,
    })
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200)
    expect(response.json()).toMatchObject({
      imported: 1,
      rejectedCount: 1,
      rejected: [{ line: 2, error: `properties: ${TOO_DEEP}` }],
    })
  })

  it('refuses Fastify-parsed bodies nested too deeply with 400 naming the field', async () => {
    const goal = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/goals`,
      headers: { cookie: owner.cookie, 'content-type': 'application/json' },
      payload: `{"name":"g","goalType":"path","config":${nestedObject(10_000)}}`,
    })
    expect(goal.statusCode, goal.body.slice(0, 300)).toBe(400)
    expect(goal.json()).toEqual({
      success: false,
      error: `Invalid goal: config: ${TOO_DEEP}`,
      details: { fieldErrors: { config: [TOO_DEEP] }, formErrors: [] },
    })

    const batch = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/reports`,
      headers: { cookie: owner.cookie, 'content-type': 'application/json' },
      payload: `{"reports":${nestedArray(20_000)}}`,
    })
    expect(batch.statusCode, batch.body.slice(0, 300)).toBe(400)
    expect(batch.json()).toMatchObject({ error: `Invalid reports: reports: ${TOO_DEEP}` })

    const signUp = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { 'content-type': 'application/json' },
      payload: `{"email":"deep@example.com","password":"correct horse battery","name":${nestedArray(20_000)}}`,
    })
    expect(signUp.statusCode, signUp.body.slice(0, 300)).toBe(400)
    expect(signUp.json()).toMatchObject({ error: `Invalid body: name: ${TOO_DEEP}` })
  })

  it('refuses a filters parameter nested too deeply, with a saved segment and in v1', async () => {
    const segment = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/segments`,
      headers: { cookie: owner.cookie },
      payload: {
        name: 'docs',
        filters: [{ parameter: 'pathname', type: 'starts_with', value: ['/docs'] }],
        visibility: 'site',
      },
    })
    expect(segment.statusCode, segment.body).toBe(201)
    const segmentId = (segment.json() as { data: { segmentId: number } }).data.segmentId
    const range = 'start_date=2026-11-01&end_date=2026-11-01'
    const filters = `filters=${nestedArray(6_000)}`
    for (const [url, headers] of [
      [`/api/sites/${site.siteId}/stats?${range}&${filters}`, { cookie: owner.cookie }],
      [`/api/sites/${site.siteId}/stats?${range}&segment=${segmentId}&${filters}`, { cookie: owner.cookie }],
      [`/api/v1/sites/${site.siteId}/stats?${range}&${filters}`, { authorization: `Bearer ${owner.apiKey}` }],
    ] as const) {
      const response = await t.app.inject({ method: 'GET', url, headers })
      expect(response.statusCode, `${url.slice(0, 80)}: ${response.body.slice(0, 300)}`).toBe(400)
      expect(response.json()).toMatchObject({
        details: { fieldErrors: { filters: [`filters: ${TOO_DEEP}`] } },
      })
    }
  })
})
