/**
 * Input the metadata stores cannot hold, found by the fuzzed surface (`test/fuzz-surface.test.ts`) on
 * PostgreSQL, where each once failed the query (a 500): NUL characters, which PostgreSQL's text refuses,
 * and ids beyond its 32-bit `serial`. Names holding NUL answer 400 naming the field; ids holding NUL, or
 * too large, name nothing (404). Both stores answer alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

describe.each([
  ['SQLite', false],
  ['PostgreSQL', true],
])('unstorable input on %s', (_name, postgres) => {
  let t: TestInstance
  let owner: Awaited<ReturnType<TestInstance['seed']>>
  let webhookId: string

  beforeAll(async () => {
    t = await openTestInstance({ postgres, workers: false, env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } })
    owner = await t.seed()
    webhookId = (
      await t.services.webhooks.create(owner.site.siteId, owner.userId, {
        url: 'https://hooks.example.com/in',
        events: ['session.created'],
      })
    ).id
  })
  afterAll(() => t.close())

  /** Call `path` as the owner, its `:org`, `:site` and `:webhook` replaced by the fixture's ids. */
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: object) =>
    t.app.inject({
      method,
      url: path
        .replace(':org', owner.organizationId)
        .replace(':site', String(owner.site.siteId))
        .replace(':webhook', webhookId),
      headers: { cookie: owner.cookie },
      ...(payload ? { payload } : {}),
    })

  it.each([
    ['POST', '/api/organizations', 'name', { name: 'a\u0000b' }],
    ['POST', '/api/organizations/:org/sites', 'name', { name: 'a\u0000', domain: 'a.example' }],
    [
      'POST',
      '/api/sites/:site/goals',
      'name',
      { name: 'a\u0000', goalType: 'event', config: { eventName: 'signup' } },
    ],
    [
      'POST',
      '/api/sites/:site/alerts',
      'name',
      { name: 'a\u0000', metric: 'pageviews', windowMinutes: 60, comparison: 'above', threshold: 1 },
    ],
    [
      'POST',
      '/api/sites/:site/alerts',
      'eventName',
      {
        name: 'a',
        metric: 'custom_events',
        eventName: 'e\u0000',
        windowMinutes: 60,
        comparison: 'above',
        threshold: 1,
      },
    ],
    [
      'POST',
      '/api/sites/:site/webhooks',
      'description',
      { url: 'https://hooks.example.com/in', events: ['session.created'], description: 'd\u0000' },
    ],
  ] as const)('%s %s: a NUL in %s answers 400 naming it', async (method, url, field, body) => {
    const response = await call(method, url, body)
    expect(response.statusCode, response.body).toBe(400)
    const { details } = response.json() as { details: { fieldErrors: Record<string, string[]> } }
    expect(details.fieldErrors[field]).toEqual([`${field} must not contain NUL characters`])
  })

  it('refuses a NUL in an experiment name or description (400 naming the field)', async () => {
    const goal = await call('POST', `/api/sites/${owner.site.siteId}/goals`, {
      name: 'g',
      goalType: 'event',
      config: { eventName: 'signup' },
    })
    const body = {
      key: 'k',
      variants: [{ name: 'A', control: true }, { name: 'B' }],
      goalId: goal.json().goalId,
    }
    for (const [field, sent] of [
      ['name', { ...body, name: 'x\u0000' }],
      ['description', { ...body, name: 'x', description: 'd\u0000' }],
    ] as const) {
      const response = await call('POST', `/api/sites/${owner.site.siteId}/experiments`, sent)
      expect(response.statusCode, response.body).toBe(400)
      expect(response.json().error).toBe(
        `Invalid experiment: ${field}: ${field} must not contain NUL characters`,
      )
    }
  })

  it.each([
    ['GET', '/api/organizations/%00/sites', 'Not found'],
    ['GET', '/api/organizations/:org%00/members', 'Not found'],
    ['PATCH', '/api/organizations/:org/members/%00', 'Not found'],
    ['DELETE', '/api/organizations/:org/members/a%00', 'Not found'],
    ['GET', '/api/sites/:site/webhooks/%00', 'Not found'],
    ['GET', '/api/sites/:site/alerts/%00', 'Not found'],
    ['POST', '/api/sites/:site/webhooks/:webhook/deliveries/%00/redeliver', 'Not found'],
    ['DELETE', '/api/user/api-keys/%00', 'Not found'],
    ['GET', '/api/sites/2147483648', 'Site not found'],
    ['GET', '/api/sites/4294967295/sessions', 'Site not found'],
  ] as const)('%s %s: an id the store cannot hold names nothing (404)', async (method, url, error) => {
    const response = await call(method, url, method === 'PATCH' ? { role: 'admin' } : undefined)
    expect(response.statusCode, response.body).toBe(404)
    expect(response.json().error).toBe(error)
  })

  it('refuses an alert goalId beyond 32 bits (400), and tracking for a site id beyond them', async () => {
    const alert = await call('POST', `/api/sites/${owner.site.siteId}/alerts`, {
      name: 'a',
      metric: 'goal_conversions',
      goalId: 2 ** 31,
      windowMinutes: 60,
      comparison: 'above',
      threshold: 1,
    })
    expect(alert.statusCode, alert.body).toBe(400)
    expect(alert.json().details.fieldErrors.goalId).toEqual(['must be a goal id'])

    const tracked = await t.app.inject({
      method: 'POST',
      url: '/api/track',
      headers: { 'content-type': 'application/json', origin: 'https://example.com' },
      payload: JSON.stringify({ site_id: '4294967295', pathname: '/' }),
    })
    expect(tracked.statusCode, tracked.body).toBeLessThan(500)
    expect(tracked.statusCode).not.toBe(200)
  })
})
