/**
 * Membership, key and site changes reach the tracking path at once: a removed member's API key, a
 * deleted key and a deleted site are refused on the very next request, though the tracking path caches
 * roles (30 s), keys (60 s) and sites. In one process on SQLite, and with two API nodes on one
 * PostgreSQL and one Redis, on the node that did not make the change too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../src/sites/site.js'
import { type SpawnedServer, spawnServer } from '../src/testing/start-server-process.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

/** Send an event as a server does, with `apiKey`, to a node (`undefined`: the in-process instance). */
type Track = (site: Pick<Site, 'siteId' | 'domain'>, apiKey: string) => Promise<number>

function membershipSuite(open: () => Promise<{ t: TestInstance; nodes: Track[]; close(): Promise<void> }>) {
  let t: TestInstance
  let nodes: Track[]
  let close: () => Promise<void>
  let cookie: string
  let organizationId: string
  let site: Site
  let ownerKey: string

  beforeAll(async () => {
    ;({ t, nodes, close } = await open())
    ;({ cookie, organizationId, site, apiKey: ownerKey } = await t.seed())
  }, 120_000)
  afterAll(() => close())

  const call = (
    method: 'POST' | 'PATCH' | 'DELETE',
    url: string,
    as: string,
    payload?: Record<string, unknown>,
  ) => t.app.inject({ method, url, headers: { cookie: as }, ...(payload === undefined ? {} : { payload }) })

  /** A new member of the organization with a tracking key, warmed into every node's caches. */
  const newMemberWithKey = async () => {
    const email = `member-${crypto.randomUUID()}@example.com`
    const member = await t.signUp(email)
    const added = await call('POST', `/api/organizations/${organizationId}/members`, cookie, {
      email,
      role: 'member',
    })
    expect(added.statusCode, added.body).toBe(201)
    const key = await t.createApiKey(member.cookie)
    for (const track of nodes) expect(await track(site, key)).toBe(200)
    return { ...member, key }
  }

  it("refuses a removed member's key on every node's next request (403)", async () => {
    const member = await newMemberWithKey()
    const removed = await call(
      'DELETE',
      `/api/organizations/${organizationId}/members/${member.userId}`,
      cookie,
    )
    expect(removed.statusCode, removed.body).toBe(200)
    for (const track of nodes) expect(await track(site, member.key)).toBe(403)
  })

  it("takes a member's key again at once when they are added back, and after a role change", async () => {
    const member = await newMemberWithKey()
    await call('DELETE', `/api/organizations/${organizationId}/members/${member.userId}`, cookie)
    for (const track of nodes) expect(await track(site, member.key)).toBe(403)
    const email = (
      await t.app.inject({ url: '/api/auth/get-session', headers: { cookie: member.cookie } })
    ).json().user.email
    await call('POST', `/api/organizations/${organizationId}/members`, cookie, { email, role: 'member' })
    for (const track of nodes) expect(await track(site, member.key)).toBe(200)
    const promoted = await call(
      'PATCH',
      `/api/organizations/${organizationId}/members/${member.userId}`,
      cookie,
      {
        role: 'admin',
      },
    )
    expect(promoted.statusCode, promoted.body).toBe(200)
    for (const track of nodes) expect(await track(site, member.key)).toBe(200)
  })

  it('refuses a deleted key on every node’s next request (401)', async () => {
    const member = await newMemberWithKey()
    const keys = await t.app.inject({ url: '/api/user/api-keys', headers: { cookie: member.cookie } })
    const [only] = keys.json().data as { id: string }[]
    const deleted = await call('DELETE', `/api/user/api-keys/${only?.id}`, member.cookie)
    expect(deleted.statusCode, deleted.body).toBe(200)
    for (const track of nodes) expect(await track(site, member.key)).toBe(401)
  })

  it('refuses a deleted site on every node’s next request (404)', async () => {
    const doomed = await t.createSite(cookie, organizationId)
    for (const track of nodes) expect(await track(doomed, ownerKey)).toBe(200)
    const deleted = await call('DELETE', `/api/sites/${doomed.siteId}`, cookie)
    expect(deleted.statusCode, deleted.body).toBe(200)
    for (const track of nodes) expect(await track(doomed, ownerKey)).toBe(404)
  })
}

const inProcess =
  (t: TestInstance): Track =>
  async (site, apiKey) =>
    (await t.track(site, { pathname: '/' }, { apiKey })).statusCode

const overHttp =
  (server: SpawnedServer): Track =>
  async (site, apiKey) =>
    (
      await fetch(`${server.baseUrl}/api/track`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ site_id: String(site.siteId), pathname: '/' }),
      })
    ).status

describe('one process on SQLite', () => {
  membershipSuite(async () => {
    const t = await openTestInstance()
    return { t, nodes: [inProcess(t)], close: () => t.close() }
  })
})

describe('two API nodes on PostgreSQL + Redis', () => {
  membershipSuite(async () => {
    const t = await openTestInstance({ postgres: true, redis: true })
    const { databaseUrl, redisUrl, redisKeyPrefix } = t.services.config
    const other = await spawnServer({
      env: {
        DATABASE_URL: databaseUrl ?? '',
        REDIS_URL: redisUrl ?? '',
        REDIS_KEY_PREFIX: redisKeyPrefix,
        GEOIP: 'off',
      },
    })
    return {
      t,
      // The other node first: it did not make the change, so only the feed can have told it.
      nodes: [overHttp(other), inProcess(t)],
      async close() {
        await other.stop()
        await t.close()
      },
    }
  })
})
