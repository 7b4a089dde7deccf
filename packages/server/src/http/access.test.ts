/**
 * Accounts, organizations, sites and API keys through the real app (inject) on SQLite + chDB:
 * who may call what, and what each route answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

let t: TestInstance
beforeAll(async () => {
  t = await openTestInstance()
})
afterAll(() => t.close())

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers })
const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown> })

describe('accounts', () => {
  it('signs up, signs in with the password, and the cookie authenticates', async () => {
    const email = 'ada@example.com'
    const { userId } = await t.signUp(email)
    const signIn = await post('/api/auth/sign-in/email', { email, password: 'correct horse battery staple' })
    expect(signIn.statusCode).toBe(200)
    const cookie = String(signIn.headers['set-cookie']).split(';')[0] ?? ''
    expect(cookie).toMatch(/session_token=/)
    const me = await get('/api/organizations', { cookie })
    expect(me.statusCode).toBe(200)
    expect(me.json()).toEqual({ success: true, data: [], meta: { total: 0 } })
    const wrong = await post('/api/auth/sign-in/email', { email, password: 'wrong password!' })
    expect(wrong.statusCode).toBe(401)
    expect(userId).toBeTruthy()
  })

  it('the first account owns the instance: only it may read the admin routes', async () => {
    const owner = await t.services.metadata.db
      .selectFrom('instance_setting')
      .select('value')
      .where('key', '=', 'instance_owner_user_id')
      .executeTakeFirstOrThrow()
    const first = await t.services.metadata.db
      .selectFrom('user')
      .select('id')
      .where('email', '=', 'ada@example.com')
      .executeTakeFirstOrThrow()
    expect(owner.value).toBe(first.id)
    const other = await t.signUp()
    expect((await get('/api/admin/ingest-stats', { cookie: other.cookie })).statusCode).toBe(403)
  })

  it('every API route needs credentials: 401 without, 401 with an unknown key', async () => {
    for (const url of [
      '/api/organizations',
      '/api/user/api-keys',
      '/api/sites/1',
      '/api/admin/ingest-stats',
    ]) {
      const none = await get(url)
      expect(none.statusCode, url).toBe(401)
      expect(none.json()).toMatchObject({ success: false })
      expect((await get(url, { authorization: 'Bearer pl_nope' })).statusCode, url).toBe(401)
    }
  })
})

describe('organizations and sites', () => {
  it('creates an organization and a site, returning the spec Site object', async () => {
    const { cookie, userId } = await t.signUp()
    const org = await post('/api/organizations', { name: 'Acme' }, { cookie })
    expect(org.statusCode).toBe(201)
    const organizationId = org.json().id as string
    const created = await post(
      `/api/organizations/${organizationId}/sites`,
      { name: 'Acme', domain: 'https://Acme.COM/' },
      { cookie },
    )
    expect(created.statusCode).toBe(201)
    const site = created.json()
    expect(Object.keys(site).sort()).toEqual(
      [
        'id',
        'siteId',
        'name',
        'domain',
        'createdAt',
        'updatedAt',
        'createdBy',
        'organizationId',
        'public',
        'saltUserIds',
        'blockBots',
        'isOwner',
        'sessionReplay',
        'webVitals',
        'trackErrors',
        'trackOutbound',
        'trackUrlParams',
        'trackInitialPageView',
        'trackSpaNavigation',
        'trackButtonClicks',
        'trackCopy',
        'trackFormInteractions',
        'heatmaps',
        'retentionDays',
        'replaySampleRate',
        'replayRetentionDays',
      ].sort(),
    )
    expect(site).toMatchObject({
      domain: 'acme.com',
      createdBy: userId,
      organizationId,
      isOwner: true,
      retentionDays: null,
    })
    expect(Number.isInteger(site.siteId)).toBe(true)
    expect((await get(`/api/sites/${site.siteId}`, { cookie })).json()).toEqual(site)
    const listed = await get(`/api/organizations/${organizationId}/sites`, { cookie })
    expect(listed.json().data).toEqual([site])
  })

  it('validation errors name the field', async () => {
    const { cookie } = await t.signUp()
    const noName = await post('/api/organizations', { name: '' }, { cookie })
    expect(noName.statusCode).toBe(400)
    expect(noName.json().details.fieldErrors.name).toBeDefined()
    const organizationId = await t.createOrganization(cookie)
    const bad = await post(
      `/api/organizations/${organizationId}/sites`,
      { name: 'x', domain: 'not a domain' },
      { cookie },
    )
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({
      success: false,
      details: { fieldErrors: { domain: expect.any(Array) } },
    })
  })

  it("another organization's site and organization answer 404, never revealing they exist", async () => {
    const a = await t.signUp()
    const b = await t.signUp()
    const orgA = await t.createOrganization(a.cookie)
    const siteA = await t.createSite(a.cookie, orgA)
    expect((await get(`/api/sites/${siteA.siteId}`, { cookie: b.cookie })).statusCode).toBe(404)
    expect((await get('/api/sites/99999999', { cookie: b.cookie })).json()).toEqual({
      success: false,
      error: 'Site not found',
    })
    expect((await get('/api/sites/abc', { cookie: b.cookie })).statusCode).toBe(404)
    expect(
      (await post(`/api/organizations/${orgA}/sites`, { name: 'x', domain: 'x.com' }, { cookie: b.cookie }))
        .statusCode,
    ).toBe(404)
    expect((await get(`/api/organizations/${orgA}/sites`, { cookie: b.cookie })).statusCode).toBe(404)
  })

  it('a plain member can read a site but not create one; isOwner follows the role', async () => {
    const owner = await t.signUp()
    const member = await t.signUp()
    const organizationId = await t.createOrganization(owner.cookie)
    const site = await t.createSite(owner.cookie, organizationId)
    await t.services.metadata.db
      .insertInto('member')
      .values({
        id: crypto.randomUUID(),
        organization_id: organizationId,
        user_id: member.userId,
        role: 'member',
        created_at: new Date().toISOString(),
      })
      .execute()
    const read = await get(`/api/sites/${site.siteId}`, { cookie: member.cookie })
    expect(read.statusCode).toBe(200)
    expect(read.json().isOwner).toBe(false)
    const create = await post(
      `/api/organizations/${organizationId}/sites`,
      { name: 'x', domain: 'x.com' },
      { cookie: member.cookie },
    )
    expect(create.statusCode).toBe(403)
  })
})

describe('API keys', () => {
  it('creates a key shown once, lists without values, authenticates as its user, deletes', async () => {
    const { cookie } = await t.signUp()
    const organizationId = await t.createOrganization(cookie)
    const site = await t.createSite(cookie, organizationId)
    const created = await post('/api/user/api-keys', { name: 'backend' }, { cookie })
    expect(created.statusCode).toBe(201)
    const { key, id } = created.json().data
    expect(key).toMatch(/^pl_/)
    const list = await get('/api/user/api-keys', { cookie })
    expect(list.json().data).toEqual([
      {
        id,
        name: 'backend',
        prefix: key.slice(0, 10),
        scope: 'full',
        createdAt: expect.any(String),
        expiresAt: null,
        lastUsedAt: null,
      },
    ])
    expect(list.body).not.toContain(key)
    const bearer = { authorization: `Bearer ${key}` }
    expect((await get(`/api/sites/${site.siteId}`, bearer)).json().siteId).toBe(site.siteId)
    const used = (await get('/api/user/api-keys', { cookie })).json().data[0].lastUsedAt
    expect(Date.parse(used)).toBeGreaterThan(Date.parse(created.json().data.createdAt) - 1)
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/user/api-keys/${id}`, headers: { cookie } }))
        .statusCode,
    ).toBe(200)
    expect((await get(`/api/sites/${site.siteId}`, bearer)).statusCode).toBe(401)
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/user/api-keys/${id}`, headers: { cookie } }))
        .statusCode,
    ).toBe(404)
  })

  it("a user cannot delete another user's key; a nameless key is a 400 naming name", async () => {
    const a = await t.signUp()
    const b = await t.signUp()
    const created = await post('/api/user/api-keys', { name: 'a' }, { cookie: a.cookie })
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/api-keys/${created.json().data.id}`,
      headers: { cookie: b.cookie },
    })
    expect(del.statusCode).toBe(404)
    const nameless = await post('/api/user/api-keys', {}, { cookie: a.cookie })
    expect(nameless.statusCode).toBe(400)
    expect(nameless.json().details.fieldErrors.name).toBeDefined()
  })
})

describe('health', () => {
  it('answers 200 with the store kinds when both stores answer', async () => {
    const response = await get('/api/health')
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      status: 'ok',
      metadata: { kind: 'sqlite', ok: true },
      events: { kind: 'chdb', ok: true },
      ingest: { pendingEvents: expect.any(Number), oldestPendingAgeSeconds: 0, lastInsertFailed: false },
      reasons: [],
    })
  })
})

describe('unknown routes and bad bodies', () => {
  it('answers 404 JSON for unknown routes and 400 for malformed JSON', async () => {
    expect((await get('/api/nope')).json()).toEqual({ success: false, error: 'Not found' })
    const { cookie } = await t.signUp()
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/organizations',
      headers: { cookie, 'content-type': 'application/json' },
      payload: '{"name":',
    })
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json()).toEqual({ success: false, error: 'Request body must be valid JSON' })
  })
})
