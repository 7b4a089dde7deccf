/**
 * The session cookie's read budgets and the per-organization queue of report queries, over HTTP on
 * SQLite (buckets in process) and PostgreSQL + Redis (buckets in Redis): a tenant over its budget gets
 * 429 with `Retry-After` while another tenant's reads still answer; the per-organization budget counts
 * every member's reads; API keys keep their own budget; the cap on concurrent report queries is per
 * organization.
 */
import crypto from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const RANGE = 'start_date=2026-01-01&end_date=2026-01-31'

interface Tenant {
  cookie: string
  organizationId: string
  site: Site
}

describe.each([
  ['SQLite', false],
  ['PostgreSQL + Redis', true],
])('read budgets on %s', (_store, postgres) => {
  let t: TestInstance
  let hostile: Tenant & { apiKey: string; memberCookie: string }
  let other: Tenant

  beforeAll(async () => {
    t = await openTestInstance({
      postgres,
      redis: postgres,
      env: {
        READ_BUDGET_USER: '5',
        READ_BUDGET_ORGANIZATION: '8',
        READ_BUDGET_WINDOW_MS: '60000',
        READ_CONCURRENCY_PER_ORGANIZATION: '1',
        READ_QUEUE_PER_ORGANIZATION: '4',
      },
    })
    const seeded = await t.seed()
    const member = await t.signUp()
    await t.services.metadata.db
      .insertInto('member')
      .values({
        id: crypto.randomUUID(),
        organization_id: seeded.organizationId,
        user_id: member.userId,
        role: 'member',
        created_at: new Date().toISOString(),
      })
      .execute()
    hostile = { ...seeded, memberCookie: member.cookie }
    const cookie = (await t.signUp('other-tenant@example.com')).cookie
    const organizationId = await t.createOrganization(cookie, 'Other')
    other = { cookie, organizationId, site: await t.createSite(cookie, organizationId, 'other.example') }
  }, 120_000)

  afterAll(async () => {
    await t?.close()
  })

  const read = (site: Site, headers: Record<string, string>, path = 'stats') =>
    t.app.inject({
      method: 'GET',
      url: `/api/sites/${site.siteId}/${path}${path.includes('?') ? '&' : '?'}${RANGE}`,
      headers,
    })

  const expectRefused = (response: LightMyRequestResponse, per: 'user' | 'organization') => {
    expect(response.statusCode, response.body).toBe(429)
    expect(response.json()).toEqual({
      success: false,
      error: `Rate limit exceeded: at most ${per === 'user' ? 5 : 8} requests per minute per ${per}`,
    })
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60)
  }

  it('refuses a user over its budget with 429 and Retry-After while the other tenant still reads', async () => {
    for (let i = 0; i < 5; i++) {
      const answered = await read(
        hostile.site,
        { cookie: hostile.cookie },
        i % 2 ? 'stats' : 'series?bucket=day',
      )
      expect(answered.statusCode, answered.body).toBe(200)
    }
    expectRefused(await read(hostile.site, { cookie: hostile.cookie }), 'user')
    // The user's budget covers every route it reads with the cookie, not only the site's.
    expectRefused(
      await t.app.inject({ method: 'GET', url: '/api/organizations', headers: { cookie: hostile.cookie } }),
      'user',
    )

    const others = await Promise.all([
      read(other.site, { cookie: other.cookie }),
      read(other.site, { cookie: other.cookie }, 'breakdown/pages'),
      t.app.inject({ method: 'GET', url: '/api/organizations', headers: { cookie: other.cookie } }),
    ])
    for (const answer of others) expect(answer.statusCode, answer.body).toBe(200)

    // An API key of the same user draws on the key's budget, not the cookie's.
    const keyed = await read(hostile.site, { authorization: `Bearer ${hostile.apiKey}` })
    expect(keyed.statusCode, keyed.body).toBe(200)
    expect(keyed.headers['x-ratelimit-limit']).toBe('50')
  })

  it("counts every member's reads of the organization's sites in one budget", async () => {
    // The owner's 5 reads of the site counted; its refused ones did not. 3 more fit, from anyone.
    for (let i = 0; i < 3; i++) {
      const answered = await read(hostile.site, { cookie: hostile.memberCookie })
      expect(answered.statusCode, answered.body).toBe(200)
    }
    expectRefused(await read(hostile.site, { cookie: hostile.memberCookie }), 'organization')
    // The member's own reads beyond the organization's sites still answer.
    const own = await t.app.inject({
      method: 'GET',
      url: '/api/organizations',
      headers: { cookie: hostile.memberCookie },
    })
    expect(own.statusCode, own.body).toBe(200)
    // A stranger's requests for the organization's site answer 404 and spend nothing of its budget.
    expect((await read(hostile.site, { cookie: other.cookie })).statusCode).toBe(404)
    expect((await read(other.site, { cookie: other.cookie })).statusCode).toBe(200)
  })

  it("caps one organization's concurrent report queries without holding up another's", async () => {
    // Concurrency 1 and 4 waiting: a batch of six parts (one query each) runs the first, queues four
    // and refuses the sixth; five parts fit. The other organization's batch meanwhile answers.
    const batch = (tenant: Tenant, parts: number, headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: `/api/sites/${tenant.site.siteId}/reports?${RANGE}`,
        headers,
        payload: {
          reports: Array.from({ length: parts }, (_, i) => ({ id: `p${i}`, name: 'live' })),
        },
      })
    const keyed = { authorization: `Bearer ${hostile.apiKey}` }
    const otherKeyed = { authorization: `Bearer ${await t.createApiKey(other.cookie)}` }
    const [six, othersFive] = await Promise.all([batch(hostile, 6, keyed), batch(other, 5, otherKeyed)])
    expect(six.statusCode, six.body).toBe(429)
    expect(six.json()).toEqual({
      success: false,
      error: 'Too many report queries of this organization are waiting: retry later',
    })
    expect(Number(six.headers['retry-after'])).toBeGreaterThan(0)
    expect(othersFive.statusCode, othersFive.body).toBe(200)
    const five = await batch(hostile, 5, keyed)
    expect(five.statusCode, five.body).toBe(200)
    expect(Object.keys(five.json().data)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4'])
  })
})
