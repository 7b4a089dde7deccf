/**
 * One request budget per API key over every route a key may call but tracking: the v1 API, the
 * dashboard's site and organization routes and the report batch draw on the same bucket, however the
 * Bearer scheme is spelled; session cookies and other keys are not affected. On SQLite with in-process
 * buckets and on PostgreSQL + Redis.
 */
import type { InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const BUDGET = 8

describe.each([
  ['SQLite, in-process buckets', { postgres: false, redis: false }],
  ['PostgreSQL + Redis', { postgres: true, redis: true }],
])('the API key budget on %s', (_name, backends) => {
  let t: TestInstance
  let cookie: string
  let organizationId: string
  let site: Site

  beforeAll(async () => {
    t = await openTestInstance({ ...backends, env: { PATHLIGHT_V1_LIMIT: String(BUDGET) } })
    ;({ cookie, organizationId, site } = await t.seed())
  })
  afterAll(() => t.close())

  /** Every route family a key can read through, one request each. */
  const families = (): Omit<InjectOptions, 'headers'>[] => [
    { method: 'GET', url: '/api/v1/sites' },
    { method: 'GET', url: `/api/sites/${site.siteId}` },
    { method: 'GET', url: `/api/sites/${site.siteId}/stats` },
    { method: 'POST', url: `/api/sites/${site.siteId}/reports`, payload: { reports: [{ name: 'stats' }] } },
    { method: 'GET', url: `/api/organizations/${organizationId}/members` },
    { method: 'GET', url: '/api/user/api-keys' },
  ]
  const send = (request: Omit<InjectOptions, 'headers'>, authorization: string) =>
    t.app.inject({ ...request, headers: { authorization } } as InjectOptions)

  it(`allows ${BUDGET} requests of a key across v1 and dashboard routes, then 429 on every one`, async () => {
    const key = await t.createApiKey(cookie)
    const spellings = [`Bearer ${key}`, `bearer ${key}`, `BEARER  ${key}`, `Bearer\t${key}`]
    const remaining: string[] = []
    for (let i = 0; i < BUDGET; i++) {
      const request = families()[i % families().length] as Omit<InjectOptions, 'headers'>
      const response = await send(request, spellings[i % spellings.length] as string)
      expect(response.statusCode, `${request.method} ${request.url}: ${response.body}`).toBe(200)
      remaining.push(String(response.headers['x-ratelimit-remaining']))
    }
    expect(remaining).toEqual(Array.from({ length: BUDGET }, (_, i) => String(BUDGET - 1 - i)))
    for (const request of families()) {
      const refused = await send(request, `Bearer ${key}`)
      expect(refused.statusCode, `${request.method} ${request.url}`).toBe(429)
      expect(refused.json()).toEqual({
        success: false,
        error: `Rate limit exceeded: at most ${BUDGET} requests per minute per API key`,
      })
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    }
    // The session cookie of the same user, and another key of theirs, keep their own allowance.
    const viaCookie = await t.app.inject({ url: `/api/sites/${site.siteId}/stats`, headers: { cookie } })
    expect(viaCookie.statusCode).toBe(200)
    expect(viaCookie.headers['x-ratelimit-remaining']).toBeUndefined()
    const other = await t.createApiKey(cookie)
    expect(
      (await send({ method: 'GET', url: `/api/sites/${site.siteId}` }, `Bearer ${other}`)).statusCode,
    ).toBe(200)
    // An unknown key is answered 401, never 429.
    expect(
      (await send({ method: 'GET', url: `/api/sites/${site.siteId}` }, 'Bearer pl_unknown')).statusCode,
    ).toBe(401)
  })

  it('tracking with the key is not drawn from the budget', async () => {
    const key = await t.createApiKey(cookie)
    for (let i = 0; i < BUDGET; i++) {
      expect((await send({ method: 'GET', url: '/api/v1/sites' }, `Bearer ${key}`)).statusCode).toBe(200)
    }
    expect((await send({ method: 'GET', url: '/api/v1/sites' }, `Bearer ${key}`)).statusCode).toBe(429)
    expect((await t.track(site, { pathname: '/' }, { apiKey: key })).statusCode).toBe(200)
  })
})
