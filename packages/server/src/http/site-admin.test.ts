/**
 * Site administration through the real app on SQLite + chDB and on PostgreSQL + chDB + Redis:
 * configuration round trips and their effect on tracking, deletion of all a site's data, private
 * links, members and roles, and the audit trail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

describe.each([
  ['SQLite + chDB', { postgres: false, redis: false }],
  ['PostgreSQL + chDB + Redis', { postgres: true, redis: true }],
])('site administration on %s', (_name, backends) => {
  let t: TestInstance
  let owner: { cookie: string; userId: string }
  let organizationId: string

  beforeAll(async () => {
    t = await openTestInstance(backends)
    owner = await t.signUp()
    organizationId = await t.createOrganization(owner.cookie)
  })
  afterAll(() => t.close())

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    cookie: string,
    payload?: unknown,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { cookie },
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
  /** A pageview of / on `site`, as a visitor's browser sends it; `body` adds or replaces fields. */
  /** A keyless pageview; `from`: the visitor's address (the connection's, as a browser's is). */
  const track = (site: Site, body: Record<string, unknown> = {}, from?: string) =>
    t.track(site, { pathname: '/', ...body }, from === undefined ? {} : { remoteAddress: from })
  const countEvents = async (siteId: number) => {
    await t.services.buffer.flush()
    const [row] = await t.services.events.query<{ c: number }>(
      'SELECT count() AS c FROM events WHERE site_id = {s:UInt32}',
      { s: siteId },
    )
    return Number(row?.c)
  }
  const newSite = (): Promise<Site> => t.createSite(owner.cookie, organizationId)

  describe('PUT /api/sites/{siteId}/config', () => {
    it('round-trips every field, and a partial update leaves the others untouched', async () => {
      const site = await newSite()
      const full = {
        public: true,
        saltUserIds: true,
        blockBots: false,
        excludedIPs: ['203.0.113.7', '10.0.0.0/8', '2001:db8::/32'],
        excludedCountries: ['de', 'FR'],
        sessionReplay: true,
        webVitals: true,
        trackErrors: true,
        trackOutbound: false,
        trackUrlParams: false,
        trackInitialPageView: false,
        trackSpaNavigation: false,
        trackButtonClicks: true,
        trackCopy: true,
        trackFormInteractions: true,
        heatmaps: true,
        retentionDays: 400,
        replaySampleRate: 0.5,
        replayRetentionDays: 7,
      }
      const put = await call('PUT', `/api/sites/${site.siteId}/config`, owner.cookie, full)
      expect(put.statusCode).toBe(200)
      expect(put.json()).toEqual({
        success: true,
        message: expect.stringContaining('Updated'),
        config: { ...full, excludedCountries: ['DE', 'FR'] },
      })
      const partial = await call('PUT', `/api/sites/${site.siteId}/config`, owner.cookie, {
        webVitals: false,
      })
      expect(partial.json().config).toEqual({ ...full, excludedCountries: ['DE', 'FR'], webVitals: false })
      const read = (await call('GET', `/api/sites/${site.siteId}`, owner.cookie)).json()
      expect(read).toMatchObject({
        public: true,
        saltUserIds: true,
        blockBots: false,
        webVitals: false,
        trackOutbound: false,
        heatmaps: true,
        retentionDays: 400,
      })
      expect((await call('GET', `/api/sites/${site.siteId}/excluded-ips`, owner.cookie)).json()).toEqual({
        success: true,
        excludedIPs: full.excludedIPs,
      })
      expect(
        (await call('GET', `/api/sites/${site.siteId}/excluded-countries`, owner.cookie)).json(),
      ).toEqual({
        success: true,
        excludedCountries: ['DE', 'FR'],
      })
      const empty = await call('PUT', `/api/sites/${site.siteId}/config`, owner.cookie, {})
      expect(empty.json()).toMatchObject({ success: true, message: 'No changes' })
    })

    it.each([
      [{ excludedIPs: ['10.0.0.0/8', 'not-an-ip'] }, 'excludedIPs', 'entry 1'],
      [{ excludedIPs: ['10.0.0.0/33'] }, 'excludedIPs', 'entry 0'],
      [{ excludedIPs: 'all' }, 'excludedIPs', 'array'],
      [
        { excludedIPs: Array.from({ length: 501 }, (_, i) => `10.0.${i >> 8}.${i & 255}`) },
        'excludedIPs',
        '500',
      ],
      [{ excludedCountries: ['DE', 'XX'] }, 'excludedCountries', 'entry 1'],
      [{ excludedCountries: ['UK'] }, 'excludedCountries', 'entry 0'],
      [{ public: 'yes' }, 'public', 'true or false'],
      [{ trackErrors: 1 }, 'trackErrors', 'true or false'],
      [{ retentionDays: 29 }, 'retentionDays', 'at least 30'],
      [{ retentionDays: 3651 }, 'retentionDays', 'at most 3650'],
      [{ retentionDays: 30.5 }, 'retentionDays', 'whole number'],
      [{ retentionDays: '90' }, 'retentionDays', 'whole number'],
    ])('rejects %j with 400 naming %s', async (body, field, text) => {
      const site = await newSite()
      const response = await call('PUT', `/api/sites/${site.siteId}/config`, owner.cookie, body)
      expect(response.statusCode).toBe(400)
      const json = response.json()
      expect(json).toMatchObject({ success: false, error: 'Invalid site configuration' })
      expect(json.details.fieldErrors[field].join(' ')).toContain(text)
    })

    it('sets a retention period and clears it with null (back to the instance default)', async () => {
      const site = await newSite()
      expect(site.retentionDays).toBeNull()
      const url = `/api/sites/${site.siteId}/config`
      expect((await call('PUT', url, owner.cookie, { retentionDays: 30 })).json().config.retentionDays).toBe(
        30,
      )
      const cleared = await call('PUT', url, owner.cookie, { retentionDays: null })
      expect(cleared.json()).toMatchObject({
        message: 'Updated retentionDays',
        config: { retentionDays: null },
      })
      expect((await call('GET', `/api/sites/${site.siteId}`, owner.cookie)).json().retentionDays).toBeNull()
    })

    it('rejects unknown fields', async () => {
      const site = await newSite()
      const response = await call('PUT', `/api/sites/${site.siteId}/config`, owner.cookie, { colour: 'blue' })
      expect(response.statusCode).toBe(400)
      expect(response.json().details.formErrors.join(' ')).toContain('colour')
    })

    it('exclusions take effect on the very next tracking request', async () => {
      const site = await newSite()
      expect((await track(site, {}, '203.0.113.9')).json()).toEqual({ success: true })
      await call('PUT', `/api/sites/${site.siteId}/config`, owner.cookie, { excludedIPs: ['203.0.113.0/24'] })
      expect((await track(site, {}, '203.0.113.9')).json()).toMatchObject({
        tracked: false,
      })
      await call('PUT', `/api/sites/${site.siteId}/config`, owner.cookie, { excludedIPs: ['2001:db8::/32'] })
      expect((await track(site, {}, '203.0.113.9')).json()).toEqual({ success: true })
      expect((await track(site, {}, '2001:db8::5')).json()).toMatchObject({
        tracked: false,
      })
      // A country the store resolves without GEOIP is not available here; bot blocking shows the same path.
      await call('PUT', `/api/sites/${site.siteId}/config`, owner.cookie, { blockBots: true })
      const bot = await t.app.inject({
        method: 'POST',
        url: '/api/track',
        headers: {
          'content-type': 'application/json',
          origin: 'https://example.com',
          'user-agent': 'curl/8.0',
        },
        payload: JSON.stringify({ site_id: String(site.siteId) }),
      })
      expect(bot.statusCode).toBe(403)
      await call('PUT', `/api/sites/${site.siteId}/config`, owner.cookie, { blockBots: false })
      const allowed = await t.app.inject({
        method: 'POST',
        url: '/api/track',
        headers: {
          'content-type': 'application/json',
          origin: 'https://example.com',
          'user-agent': 'curl/8.0',
        },
        payload: JSON.stringify({ site_id: String(site.siteId) }),
      })
      expect(allowed.statusCode).toBe(200)
    })
  })

  describe('PATCH /api/sites/{siteId}', () => {
    it('renames, normalises the new domain as creation does, audits before/after, and tracks on it at once', async () => {
      const site = await newSite()
      expect((await track(site)).statusCode).toBe(200)
      const response = await call('PATCH', `/api/sites/${site.siteId}`, owner.cookie, {
        name: '  Renamed shop ',
        domain: 'https://WWW.Renamed.Example:8443/blog?x=1',
      })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toMatchObject({
        siteId: site.siteId,
        name: 'Renamed shop',
        domain: 'www.renamed.example',
        isOwner: true,
      })
      expect((await call('GET', `/api/sites/${site.siteId}`, owner.cookie)).json()).toMatchObject({
        name: 'Renamed shop',
        domain: 'www.renamed.example',
      })
      // The site lookup dropped the site: the old domain is refused and the new one accepted at once.
      expect((await track(site)).statusCode).not.toBe(200)
      expect((await track({ ...site, domain: 'www.renamed.example' })).statusCode).toBe(200)

      const nameOnly = await call('PATCH', `/api/sites/${site.siteId}`, owner.cookie, { name: 'Shop' })
      expect(nameOnly.json()).toMatchObject({ name: 'Shop', domain: 'www.renamed.example' })
      const unchanged = await call('PATCH', `/api/sites/${site.siteId}`, owner.cookie, { name: 'Shop' })
      expect(unchanged.json()).toMatchObject({ name: 'Shop' })

      const audit = (await call('GET', `/api/sites/${site.siteId}/audit-log`, owner.cookie)).json().data
      expect(audit.map((e: { action: string }) => e.action)).toEqual([
        'site.updated',
        'site.updated',
        'site.created',
      ])
      expect(audit[0].details).toEqual({ changed: { name: { before: 'Renamed shop', after: 'Shop' } } })
      expect(audit[1]).toMatchObject({
        actorUserId: owner.userId,
        details: {
          changed: {
            name: { before: site.name, after: 'Renamed shop' },
            domain: { before: site.domain, after: 'www.renamed.example' },
          },
        },
      })
    })

    it.each([
      [{ name: '' }, 'name', 'name is required'],
      [{ name: 'x'.repeat(101) }, 'name', 'at most 100'],
      [{ domain: 'not a domain!' }, 'domain', 'host name'],
      [{ domain: 42 }, 'domain', ''],
    ])('rejects %j with 400 naming %s', async (body, field, text) => {
      const site = await newSite()
      const response = await call('PATCH', `/api/sites/${site.siteId}`, owner.cookie, body)
      expect(response.statusCode).toBe(400)
      expect(response.json().error).toMatch(new RegExp(`^Invalid site: ${field}: `))
      expect(response.json().details.fieldErrors[field].join(' ')).toContain(text)
      expect((await call('GET', `/api/sites/${site.siteId}`, owner.cookie)).json()).toMatchObject({
        name: site.name,
        domain: site.domain,
      })
    })

    it('rejects unknown fields', async () => {
      const site = await newSite()
      const response = await call('PATCH', `/api/sites/${site.siteId}`, owner.cookie, { public: true })
      expect(response.statusCode).toBe(400)
      expect(response.json().error).toContain('public')
    })
  })

  describe('POST /api/organizations/{organizationId}/sites', () => {
    it('normalises the domain, and refuses a bad one with the field named', async () => {
      const created = await call('POST', `/api/organizations/${organizationId}/sites`, owner.cookie, {
        name: 'Blog',
        domain: 'https://WWW.Example.com/blog',
      })
      expect(created.statusCode, created.body).toBe(201)
      expect(created.json()).toMatchObject({ name: 'Blog', domain: 'www.example.com', isOwner: true })
      const bad = await call('POST', `/api/organizations/${organizationId}/sites`, owner.cookie, {
        name: 'X',
        domain: 'not a domain',
      })
      expect(bad.statusCode).toBe(400)
      expect(bad.json()).toMatchObject({
        error: 'Invalid site',
        details: { fieldErrors: { domain: [expect.stringContaining('host name')] } },
      })
    })
  })

  describe('PATCH /api/organizations/{organizationId}', () => {
    it('renames for admins and owners, keeps the slug, and audits before/after', async () => {
      const org = await t.createOrganization(owner.cookie, 'Old name')
      const [before] = (await call('GET', '/api/organizations', owner.cookie))
        .json()
        .data.filter((o: { id: string }) => o.id === org)
      const response = await call('PATCH', `/api/organizations/${org}`, owner.cookie, { name: ' New name ' })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual({ ...before, name: 'New name', role: 'owner' })
      const listed = (await call('GET', '/api/organizations', owner.cookie)).json().data
      expect(listed.find((o: { id: string }) => o.id === org)).toMatchObject({ name: 'New name' })

      const bad = await call('PATCH', `/api/organizations/${org}`, owner.cookie, { name: '   ' })
      expect(bad.statusCode).toBe(400)
      expect(bad.json().error).toBe('Invalid organization: name: name is required')
      expect(bad.json().details.fieldErrors.name).toEqual(['name is required'])
      expect((await call('PATCH', `/api/organizations/${org}`, owner.cookie, {})).statusCode).toBe(400)
      const stranger = await t.signUp()
      expect(
        (await call('PATCH', `/api/organizations/${org}`, stranger.cookie, { name: 'Mine' })).statusCode,
      ).toBe(404)

      const audit = (await call('GET', `/api/organizations/${org}/audit-log`, owner.cookie)).json().data
      expect(audit).toMatchObject([
        {
          action: 'organization.renamed',
          siteId: null,
          actorUserId: owner.userId,
          details: { before: 'Old name', after: 'New name' },
        },
      ])
    })
  })

  describe('DELETE /api/sites/{siteId}', () => {
    it("removes the site and every one of its events, and nothing of other sites'", async () => {
      const doomed = await newSite()
      const kept = await newSite()
      for (let i = 0; i < 5; i++) {
        await track(doomed, { pathname: `/d${i}` })
        await track(kept, { pathname: `/k${i}` })
      }
      await call('POST', `/api/sites/${doomed.siteId}/private-link-config`, owner.cookie, {
        action: 'generate_private_link_key',
      })
      expect(await countEvents(doomed.siteId)).toBe(5)
      const response = await call('DELETE', `/api/sites/${doomed.siteId}`, owner.cookie)
      expect(response.json()).toEqual({ success: true })
      expect(await countEvents(doomed.siteId)).toBe(0)
      expect(await countEvents(kept.siteId)).toBe(5)
      expect((await call('GET', `/api/sites/${doomed.siteId}`, owner.cookie)).statusCode).toBe(404)
      expect((await track(doomed)).statusCode).toBe(404)
      const row = await t.services.metadata.db
        .selectFrom('site')
        .select('site_id')
        .where('site_id', '=', doomed.siteId)
        .executeTakeFirst()
      expect(row).toBeUndefined()
    })
  })

  describe('private link configuration', () => {
    it('generates a key of at least 128 random bits, shows it, and revokes it', async () => {
      const site = await newSite()
      const url = `/api/sites/${site.siteId}/private-link-config`
      expect((await call('GET', url, owner.cookie)).json()).toEqual({
        success: true,
        data: { privateLinkKey: null },
      })
      const generated = await call('POST', url, owner.cookie, { action: 'generate_private_link_key' })
      const key = generated.json().data.privateLinkKey as string
      expect(Buffer.from(key, 'base64url').length * 8).toBeGreaterThanOrEqual(128)
      expect((await call('GET', url, owner.cookie)).json().data.privateLinkKey).toBe(key)
      const again = await call('POST', url, owner.cookie, { action: 'generate_private_link_key' })
      expect(again.json().data.privateLinkKey).not.toBe(key)
      const revoked = await call('POST', url, owner.cookie, { action: 'revoke_private_link_key' })
      expect(revoked.json()).toEqual({ success: true, data: { privateLinkKey: null } })
      const bad = await call('POST', url, owner.cookie, { action: 'share_everything' })
      expect(bad.statusCode).toBe(400)
      expect(bad.json().details.fieldErrors.action).toBeDefined()
    })
  })

  describe('members and roles', () => {
    it('adds members by email, changes roles, removes them, with the owner/admin rules', async () => {
      const org = await t.createOrganization(owner.cookie, 'Members')
      const admin = await t.signUp(`admin-${Date.now()}@example.com`)
      const member = await t.signUp(`member-${Date.now()}@example.com`)
      const emailOf = async (userId: string) =>
        (
          await t.services.metadata.db
            .selectFrom('user')
            .select('email')
            .where('id', '=', userId)
            .executeTakeFirstOrThrow()
        ).email
      const base = `/api/organizations/${org}/members`

      const added = await call('POST', base, owner.cookie, {
        email: await emailOf(admin.userId),
        role: 'admin',
      })
      expect(added.statusCode).toBe(201)
      expect(added.json().data).toMatchObject({ userId: admin.userId, role: 'admin' })
      expect(
        (await call('POST', base, owner.cookie, { email: await emailOf(admin.userId), role: 'admin' }))
          .statusCode,
      ).toBe(409)
      expect(
        (await call('POST', base, owner.cookie, { email: 'nobody@example.com', role: 'member' })).statusCode,
      ).toBe(404)
      expect(
        (await call('POST', base, owner.cookie, { email: 'not an email', role: 'member' })).statusCode,
      ).toBe(400)
      expect(
        (await call('POST', base, owner.cookie, { email: await emailOf(member.userId), role: 'boss' }))
          .statusCode,
      ).toBe(400)

      // An admin adds a member, but cannot create or touch owners.
      expect(
        (await call('POST', base, admin.cookie, { email: await emailOf(member.userId), role: 'owner' }))
          .statusCode,
      ).toBe(403)
      expect(
        (await call('POST', base, admin.cookie, { email: await emailOf(member.userId), role: 'member' }))
          .statusCode,
      ).toBe(201)
      expect(
        (await call('PATCH', `${base}/${member.userId}`, admin.cookie, { role: 'owner' })).statusCode,
      ).toBe(403)
      expect(
        (await call('PATCH', `${base}/${owner.userId}`, admin.cookie, { role: 'member' })).statusCode,
      ).toBe(403)
      expect((await call('DELETE', `${base}/${owner.userId}`, admin.cookie)).statusCode).toBe(403)

      // A member can list but not administer.
      const list = await call('GET', base, member.cookie)
      expect(
        list
          .json()
          .data.map((m: { role: string }) => m.role)
          .sort(),
      ).toEqual(['admin', 'member', 'owner'])
      expect(
        (await call('PATCH', `${base}/${admin.userId}`, member.cookie, { role: 'member' })).statusCode,
      ).toBe(403)
      expect((await call('DELETE', `${base}/${admin.userId}`, member.cookie)).statusCode).toBe(403)

      // The last owner can be neither demoted nor removed, not even by themselves.
      expect(
        (await call('PATCH', `${base}/${owner.userId}`, owner.cookie, { role: 'admin' })).statusCode,
      ).toBe(409)
      expect((await call('DELETE', `${base}/${owner.userId}`, owner.cookie)).statusCode).toBe(409)
      // With a second owner, the first may step down.
      expect(
        (await call('PATCH', `${base}/${admin.userId}`, owner.cookie, { role: 'owner' })).json().data.role,
      ).toBe('owner')
      expect(
        (await call('PATCH', `${base}/${owner.userId}`, admin.cookie, { role: 'admin' })).statusCode,
      ).toBe(200)
      expect(
        (await call('PATCH', `${base}/${owner.userId}`, admin.cookie, { role: 'owner' })).statusCode,
      ).toBe(200)

      // Anyone may leave; a removed member loses access at once.
      expect((await call('DELETE', `${base}/${member.userId}`, member.cookie)).statusCode).toBe(200)
      expect((await call('GET', base, member.cookie)).statusCode).toBe(404)
      expect(
        (await call('PATCH', `${base}/${member.userId}`, owner.cookie, { role: 'admin' })).statusCode,
      ).toBe(404)

      // The audit trail saw all of it, newest first, readable by admins and owners only.
      const audit = await call('GET', `/api/organizations/${org}/audit-log`, owner.cookie)
      const actions = audit.json().data.map((e: { action: string }) => e.action)
      expect(actions).toEqual([
        'member.removed',
        'member.role_changed',
        'member.role_changed',
        'member.role_changed',
        'member.added',
        'member.added',
      ])
      expect(audit.json().data[0]).toMatchObject({ actorUserId: member.userId, details: { left: true } })
    })
  })

  it('audits site creation, configuration and private link changes with who and when', async () => {
    const site = await newSite()
    await call('PUT', `/api/sites/${site.siteId}/config`, owner.cookie, { trackErrors: true })
    await call('POST', `/api/sites/${site.siteId}/private-link-config`, owner.cookie, {
      action: 'generate_private_link_key',
    })
    const audit = (await call('GET', `/api/sites/${site.siteId}/audit-log`, owner.cookie)).json().data
    expect(audit.map((e: { action: string }) => e.action)).toEqual([
      'private_link.generated',
      'site.config_changed',
      'site.created',
    ])
    expect(audit[1]).toMatchObject({
      siteId: site.siteId,
      actorUserId: owner.userId,
      actorEmail: expect.stringContaining('@'),
      details: { changed: { trackErrors: true } },
      createdAt: expect.stringMatching(/Z$/),
    })
  })

  it("audits the operator's monthly pageview limit like the site's other settings, once per change", async () => {
    const site = await newSite()
    const limits = `/api/admin/sites/${site.siteId}/limits`
    expect((await call('PUT', limits, owner.cookie, { monthlyPageviewLimit: 1000 })).json()).toEqual({
      success: true,
      data: { siteId: site.siteId, monthlyPageviewLimit: 1000 },
    })
    await call('PUT', limits, owner.cookie, { monthlyPageviewLimit: 1000 })
    await call('PUT', limits, owner.cookie, { monthlyPageviewLimit: null })
    type Entry = { action: string; actorUserId: string; details: unknown }
    const entries: Entry[] = (await call('GET', `/api/sites/${site.siteId}/audit-log`, owner.cookie)).json()
      .data
    const byOwner = (limit: number | null) => ({
      action: 'site.config_changed',
      actorUserId: owner.userId,
      details: { changed: { monthlyPageviewLimit: limit } },
    })
    expect(entries.map(({ action, actorUserId, details }) => ({ action, actorUserId, details }))).toEqual([
      byOwner(null),
      byOwner(1000),
      expect.objectContaining({ action: 'site.created' }),
    ])
  })

  it("a configuration change reaches the tracking script's config at once", async () => {
    const site = await newSite()
    const trackerConfig = async () =>
      (await t.app.inject({ url: `/api/sites/${site.siteId}/tracker-config` })).json()
    expect(await trackerConfig()).toMatchObject({ trackErrors: false, webVitals: false })
    await call('PUT', `/api/sites/${site.siteId}/config`, owner.cookie, {
      trackErrors: true,
      webVitals: true,
    })
    expect(await trackerConfig()).toMatchObject({ trackErrors: true, webVitals: true })
  })
})
