/**
 * The metadata store contract, run on SQLite and on PostgreSQL: migrations, the domain modules'
 * reads and writes, and the dialect differences (booleans, serial ids, int8, upserts) they must hide.
 */
import crypto from 'node:crypto'
import { createSiteBody } from '@pathlight/protocol'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiKeys } from '../../auth/api-keys.js'
import { createUserIdSalts } from '../../ingest/state/user-id-salts.js'
import { createOrganization, listOrganizations, roleIn } from '../../organizations/organizations.js'
import { toSite } from '../../sites/site.js'
import { createSite, findSite, listSitesForUser } from '../../sites/sites.js'
import { createTempDatabase } from '../../testing/postgres.js'
import { type MetadataLocation, type MetadataStore, openMetadataStore } from './db.js'
import { getOrCreateSecret, setSettingOnce } from './instance-settings.js'

const backends: [string, () => Promise<{ location: MetadataLocation; drop(): Promise<void> }>][] = [
  ['SQLite', async () => ({ location: { sqlite: ':memory:' }, drop: async () => {} })],
  [
    'PostgreSQL',
    async () => {
      const db = await createTempDatabase()
      return { location: { postgres: db.url }, drop: db.drop }
    },
  ],
]

describe.each(backends)('metadata store contract: %s', (_name, makeLocation) => {
  let store: MetadataStore
  let drop: () => Promise<void>
  let location: MetadataLocation

  beforeAll(async () => {
    const made = await makeLocation()
    location = made.location
    drop = made.drop
    store = await openMetadataStore(location)
    const now = new Date().toISOString()
    await store.db
      .insertInto('user')
      .values([
        {
          id: 'u1',
          name: 'Ann',
          email: 'ann@example.com',
          emailVerified: 0,
          image: null,
          createdAt: now,
          updatedAt: now,
        },
        {
          id: 'u2',
          name: 'Bob',
          email: 'bob@example.com',
          emailVerified: 0,
          image: null,
          createdAt: now,
          updatedAt: now,
        },
      ])
      .execute()
  })
  afterAll(async () => {
    await store.close()
    await drop()
  })

  it('applies migrations once (reopening is a no-op)', async () => {
    if ('sqlite' in location) return // an in-memory SQLite database cannot be reopened
    const again = await openMetadataStore(location)
    await again.close()
  })

  it('creates an organization with its creator as owner, and lists it', async () => {
    const org = await createOrganization(store.db, 'u1', { name: 'Acme Inc' })
    expect(org).toMatchObject({ name: 'Acme Inc', createdBy: 'u1', role: 'owner' })
    expect(await roleIn(store.db, 'u1', org.id)).toBe('owner')
    expect(await roleIn(store.db, 'u2', org.id)).toBeNull()
    expect((await listOrganizations(store.db, 'u1')).map((o) => o.id)).toContain(org.id)
    expect(await listOrganizations(store.db, 'u2')).toEqual([])
  })

  it('creates sites with serial numeric ids and boolean switches', async () => {
    const org = await createOrganization(store.db, 'u1', { name: 'Sites' })
    // The contract's schema normalises the domain; the store keeps what it is given.
    const input = (name: string, domain: string) => createSiteBody.parse({ name, domain })
    const a = await createSite(store.db, org.id, 'u1', input('A', 'https://WWW.Example.com/blog'))
    const b = await createSite(store.db, org.id, 'u1', input('B', 'b.example.org'))
    expect(typeof a.site_id).toBe('number')
    expect(b.site_id).toBe(a.site_id + 1)
    const found = await findSite(store.db, a.site_id)
    if (!found) throw new Error('site not found')
    const site = toSite(found, 'owner')
    expect(site).toMatchObject({
      siteId: a.site_id,
      domain: 'www.example.com',
      blockBots: true,
      public: false,
      trackOutbound: true,
      isOwner: true,
      organizationId: org.id,
    })
    expect(site.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect((await listSitesForUser(store.db, 'u1')).map((s) => s.site_id)).toEqual(
      expect.arrayContaining([a.site_id, b.site_id]),
    )
    expect(await listSitesForUser(store.db, 'u2')).toEqual([])
  })

  it('stores API keys hashed, verifies, lists without values, deletes', async () => {
    const keys = createApiKeys(store.db)
    const created = await keys.create('u2', { name: 'ci' })
    expect(created.key).toMatch(/^pl_[A-Za-z0-9_-]{43}$/)
    const stored = await store.db
      .selectFrom('api_key')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow()
    expect(stored.key_hash).not.toContain(created.key)
    expect(await keys.verify(created.key)).toEqual({ userId: 'u2', keyId: created.id, scope: 'full' })
    expect(await keys.verify(`${created.key}x`)).toBeNull()
    expect(await keys.list('u2')).toEqual([expect.not.objectContaining({ key: expect.anything() })])
    await keys.remove('u2', created.id)
    expect(await keys.verify(created.key)).toBeNull()
    await expect(keys.remove('u2', created.id)).rejects.toMatchObject({ status: 404 })
  })

  it('reads keys made before scopes existed as full keys that never expire (migration 006)', async () => {
    const key = `pl_${'a'.repeat(43)}`
    const hash = crypto.createHash('sha256').update(key).digest('hex')
    await sql`INSERT INTO api_key (id, user_id, name, prefix, key_hash, created_at)
      VALUES ('legacy', 'u2', 'legacy', 'pl_aaaaaaa', ${hash}, '2026-01-01T00:00:00.000Z')`.execute(store.db)
    const keys = createApiKeys(store.db)
    expect(await keys.verify(key)).toEqual({ userId: 'u2', keyId: 'legacy', scope: 'full' })
    expect((await keys.list('u2')).find((k) => k.id === 'legacy')).toMatchObject({
      scope: 'full',
      expiresAt: null,
    })
  })

  it('keeps the first value of an instance setting and one salt per day', async () => {
    expect(await setSettingOnce(store.db, 'k', 'first')).toBe('first')
    expect(await setSettingOnce(store.db, 'k', 'second')).toBe('first')
    const secret = await getOrCreateSecret(store.db, 's')
    expect(await getOrCreateSecret(store.db, 's')).toBe(secret)
    const salts = createUserIdSalts(store.db, 'instance')
    const day1 = Date.parse('2026-11-20T10:00:00Z')
    const a = await salts.forDay(day1)
    expect(await createUserIdSalts(store.db, 'instance').forDay(day1 + 3600_000)).toBe(a)
    expect(await salts.forDay(day1 + 86_400_000)).not.toBe(a)
    await salts.forDay(day1 + 5 * 86_400_000)
    const days = await store.db.selectFrom('user_id_salt').select('day').execute()
    expect(days.map((d) => d.day)).toEqual(['2026-11-25'])
  })
})
