/**
 * Saved segments through the real app on SQLite + chDB and on PostgreSQL + chDB: pageviews tracked at
 * controlled times, segments created, changed and deleted through the API by an owner, an admin and a
 * plain member; who sees and changes which segment; `segment=ID` on report routes, the report batch
 * and v1, checked against the same filters inline and against a count of the generated events; the
 * 404s of an unknown id, another site's segment and another user's personal segment; the audit trail.
 */
import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import type { Role } from '../storage/metadata/schema.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const RANGE = 'start_date=2026-03-01&end_date=2026-03-31'
const PATHS = ['/', '/docs/install', '/docs/api', '/pricing'] as const
const LANGUAGES = ['en-US', 'de-DE', 'fr-FR'] as const

/** The generated pageviews: 40, by 11 visitors, over four paths and three languages. */
const views = Array.from({ length: 40 }, (_, i) => ({
  visitor: `visitor-${i % 11}`,
  pathname: PATHS[i % PATHS.length] as string,
  language: LANGUAGES[(i * 7) % LANGUAGES.length] as string,
  at: new Date(Date.parse('2026-03-05T08:00:00.000Z') + i * 97 * 60_000).toISOString(),
}))

const docsFilter = { parameter: 'pathname', type: 'starts_with', value: ['/docs'] }
const germanFilter = { parameter: 'language', type: 'equals', value: ['de-DE'] }
const filtersParam = (filters: unknown[]) => `filters=${encodeURIComponent(JSON.stringify(filters))}`

describe.each([
  ['SQLite + chDB', false],
  ['PostgreSQL + chDB', true],
])('saved segments on %s', (_name, postgres) => {
  let t: TestInstance
  let now = Date.parse('2026-03-20T10:00:00.000Z')
  let owner: { cookie: string; userId: string }
  let admin: { cookie: string; userId: string }
  let member: { cookie: string; userId: string }
  let site: Site
  let otherSite: Site
  let apiKey: string
  let privateKey: string
  let organizationId: string

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    headers = {},
    payload?: unknown,
  ) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) })
  const as = (who: { cookie: string }) => ({ cookie: who.cookie })
  const segmentsUrl = (siteId = site.siteId) => `/api/sites/${siteId}/segments`
  const create = async (who: { cookie: string }, body: unknown, siteId = site.siteId) => {
    const response = await call('POST', segmentsUrl(siteId), as(who), body)
    expect(response.statusCode, response.body).toBe(201)
    return (response.json() as { data: { segmentId: number } }).data.segmentId
  }
  const listIds = async (headers: Record<string, string>) => {
    const response = await call('GET', segmentsUrl(), headers)
    expect(response.statusCode, response.body).toBe(200)
    return (response.json() as { data: { segmentId: number }[] }).data.map((s) => s.segmentId)
  }
  /** A signed-up user made a member of the organization with `role`. */
  const memberWith = async (organizationId: string, role: Role) => {
    const user = await t.signUp()
    await t.services.metadata.db
      .insertInto('member')
      .values({
        id: crypto.randomUUID(),
        organization_id: organizationId,
        user_id: user.userId,
        role,
        created_at: new Date().toISOString(),
      })
      .execute()
    return user
  }

  beforeAll(async () => {
    t = await openTestInstance({ postgres, clock: () => now })
    const seeded = await t.seed()
    owner = { cookie: seeded.cookie, userId: seeded.userId }
    site = seeded.site
    apiKey = seeded.apiKey
    organizationId = seeded.organizationId
    otherSite = await t.createSite(owner.cookie, seeded.organizationId, 'other.example.com')
    admin = await memberWith(seeded.organizationId, 'admin')
    member = await memberWith(seeded.organizationId, 'member')
    const generated = await call('POST', `/api/sites/${site.siteId}/private-link-config`, as(owner), {
      action: 'generate_private_link_key',
    })
    privateKey = generated.json().data.privateLinkKey as string
    for (const view of views) {
      now = Date.parse(view.at)
      const response = await t.track(
        site,
        { hostname: 'example.com', pathname: view.pathname, language: view.language, user_id: view.visitor },
        { apiKey },
      )
      expect(response.statusCode, response.body).toBe(200)
    }
    await t.services.buffer.flush()
    now = Date.parse('2026-03-20T10:00:00.000Z')
  }, 120_000)
  afterAll(() => t?.close())

  it('takes segment on every route that takes filters', () => {
    const schemaOf = (route: (typeof t.app.routeList)[number]) =>
      (route.contract?.query ?? route.doc?.query) as { shape?: Record<string, unknown> } | undefined
    const filtered = t.app.routeList.filter((route) => 'filters' in (schemaOf(route)?.shape ?? {}))
    expect(filtered.length).toBeGreaterThan(20)
    expect(
      filtered.filter((route) => !('segment' in (schemaOf(route)?.shape ?? {}))).map((r) => r.url),
    ).toEqual([])
  })

  it('creates, lists, changes and deletes segments, each change audited', async () => {
    const created = await call('POST', segmentsUrl(), as(owner), {
      name: '  Docs readers ',
      filters: [docsFilter],
      visibility: 'site',
    })
    expect(created.statusCode, created.body).toBe(201)
    const segment = created.json().data
    expect(segment).toEqual({
      segmentId: expect.any(Number),
      siteId: site.siteId,
      name: 'Docs readers',
      filters: [docsFilter],
      visibility: 'site',
      createdBy: owner.userId,
      createdAt: '2026-03-20T10:00:00.000Z',
      updatedAt: '2026-03-20T10:00:00.000Z',
    })
    expect(await listIds(as(member))).toContain(segment.segmentId)

    now = Date.parse('2026-03-21T09:00:00.000Z')
    const changed = await call('PATCH', `${segmentsUrl()}/${segment.segmentId}`, as(admin), {
      name: 'Docs, German',
      filters: [docsFilter, germanFilter],
    })
    expect(changed.statusCode, changed.body).toBe(200)
    expect(changed.json().data).toMatchObject({
      name: 'Docs, German',
      filters: [docsFilter, germanFilter],
      visibility: 'site',
      createdBy: owner.userId,
      updatedAt: '2026-03-21T09:00:00.000Z',
    })

    const deleted = await call('DELETE', `${segmentsUrl()}/${segment.segmentId}`, as(owner))
    expect(deleted.statusCode, deleted.body).toBe(200)
    expect(await listIds(as(owner))).not.toContain(segment.segmentId)
    expect((await call('DELETE', `${segmentsUrl()}/${segment.segmentId}`, as(owner))).statusCode).toBe(404)

    const audit = await call('GET', `/api/sites/${site.siteId}/audit-log`, as(owner))
    expect(audit.statusCode, audit.body).toBe(200)
    const entries = (audit.json().data as { action: string; actorUserId: string; details: unknown }[]).filter(
      (entry) => entry.action.startsWith('segment.'),
    )
    expect(entries.slice(0, 3)).toEqual([
      expect.objectContaining({
        action: 'segment.deleted',
        actorUserId: owner.userId,
        details: expect.objectContaining({ segmentId: segment.segmentId }),
      }),
      expect.objectContaining({
        action: 'segment.updated',
        actorUserId: admin.userId,
        details: {
          segmentId: segment.segmentId,
          name: 'Docs, German',
          visibility: 'site',
          filters: [docsFilter, germanFilter],
        },
      }),
      expect.objectContaining({
        action: 'segment.created',
        actorUserId: owner.userId,
        details: {
          segmentId: segment.segmentId,
          name: 'Docs readers',
          visibility: 'site',
          filters: [docsFilter],
        },
      }),
    ])
  })

  it('keeps a personal segment to its creator, and shared ones to admins and owners', async () => {
    const personal = await create(member, { name: 'Mine', filters: [germanFilter], visibility: 'personal' })
    const shared = await create(admin, { name: 'Shared', filters: [docsFilter], visibility: 'site' })

    expect(await listIds(as(member))).toEqual(expect.arrayContaining([personal, shared]))
    expect(await listIds(as(owner))).toContain(shared)
    expect(await listIds(as(owner))).not.toContain(personal)
    expect(await listIds({ 'x-private-key': privateKey })).toContain(shared)
    expect(await listIds({ 'x-private-key': privateKey })).not.toContain(personal)

    // A plain member neither shares a segment nor changes a shared one.
    const sharing = await call('POST', segmentsUrl(), as(member), {
      name: 'x',
      filters: [docsFilter],
      visibility: 'site',
    })
    expect(sharing.statusCode, sharing.body).toBe(403)
    expect((await call('PATCH', `${segmentsUrl()}/${shared}`, as(member), { name: 'y' })).statusCode).toBe(
      403,
    )
    expect((await call('DELETE', `${segmentsUrl()}/${shared}`, as(member))).statusCode).toBe(403)
    const promoting = await call('PATCH', `${segmentsUrl()}/${personal}`, as(member), { visibility: 'site' })
    expect(promoting.statusCode, promoting.body).toBe(403)

    // Another user's personal segment does not exist for the owner either.
    expect((await call('PATCH', `${segmentsUrl()}/${personal}`, as(owner), { name: 'z' })).statusCode).toBe(
      404,
    )
    expect((await call('DELETE', `${segmentsUrl()}/${personal}`, as(owner))).statusCode).toBe(404)
    // Nor does a segment under another site's path.
    expect(
      (await call('PATCH', `${segmentsUrl(otherSite.siteId)}/${shared}`, as(owner), { name: 'z' }))
        .statusCode,
    ).toBe(404)

    const renamed = await call('PATCH', `${segmentsUrl()}/${personal}`, as(member), { name: 'Still mine' })
    expect(renamed.statusCode, renamed.body).toBe(200)
    expect(renamed.json().data).toMatchObject({ name: 'Still mine', visibility: 'personal' })
    // A private link key writes nothing.
    const keyed = await call(
      'POST',
      segmentsUrl(),
      { 'x-private-key': privateKey },
      {
        name: 'k',
        filters: [docsFilter],
        visibility: 'personal',
      },
    )
    expect(keyed.statusCode).toBe(401)
    expect((await call('DELETE', `${segmentsUrl()}/${personal}`, as(member))).statusCode).toBe(200)
  })

  it('answers 400 naming the field for an invalid segment', async () => {
    const cases: [unknown, string][] = [
      [{ filters: [docsFilter], visibility: 'site' }, 'Invalid segment: name: name is required'],
      [
        { name: 'a', filters: [], visibility: 'site' },
        'Invalid segment: filters: filters must hold at least one filter',
      ],
      [
        { name: 'a', filters: [docsFilter], visibility: 'team' },
        'Invalid segment: visibility: visibility must be personal or site',
      ],
      [
        { name: 'a', filters: [{ parameter: 'nope', type: 'equals', value: ['x'] }], visibility: 'site' },
        'Invalid segment: filters: filter 0 (parameter): unknown parameter "nope"',
      ],
      [
        { name: 'a', filters: [{ parameter: 'pathname', type: 'regex', value: ['(a'] }], visibility: 'site' },
        'Invalid segment: filters: filter 0 (value.0)',
      ],
    ]
    for (const [body, message] of cases) {
      const response = await call('POST', segmentsUrl(), as(owner), body)
      expect(response.statusCode, response.body).toBe(400)
      expect(response.json().error).toContain(message)
    }
    const empty = await call('PATCH', `${segmentsUrl()}/1`, as(owner), {})
    expect(empty.statusCode).toBe(404)
  })

  it('ANDs a segment with the filters on reports, the batch and v1, as the same filters inline', async () => {
    const matches = views.filter((v) => v.pathname.startsWith('/docs') && v.language === 'de-DE')
    const expected = { pageviews: matches.length, visitors: new Set(matches.map((v) => v.visitor)).size }
    const byPath = new Map<string, number>()
    for (const v of matches) byPath.set(v.pathname, (byPath.get(v.pathname) ?? 0) + 1)
    expect(expected.pageviews).toBeGreaterThan(1)

    const docs = await create(owner, { name: 'Docs', filters: [docsFilter], visibility: 'site' })
    const withSegment = `${RANGE}&segment=${docs}&${filtersParam([germanFilter])}`
    const inline = `${RANGE}&${filtersParam([germanFilter, docsFilter])}`

    const stats = async (query: string, headers: Record<string, string> = as(owner)) => {
      const response = await call('GET', `/api/sites/${site.siteId}/stats?${query}`, headers)
      expect(response.statusCode, response.body).toBe(200)
      return response.json().data.current as { pageviews: number; visitors: number }
    }
    expect(await stats(withSegment)).toMatchObject(expected)
    expect(await stats(inline)).toEqual(await stats(withSegment))
    // The segment alone, without `filters`.
    const docsOnly = views.filter((v) => v.pathname.startsWith('/docs'))
    expect((await stats(`${RANGE}&segment=${docs}`)).pageviews).toBe(docsOnly.length)
    // A private link key applies a shared segment.
    expect(await stats(withSegment, { 'x-private-key': privateKey })).toMatchObject(expected)

    const pages = await call('GET', `/api/sites/${site.siteId}/breakdown/pages?${withSegment}`, as(owner))
    expect(pages.statusCode, pages.body).toBe(200)
    const rows = pages.json().data as { value: string; pageviews: number }[]
    expect(Object.fromEntries(rows.map((r) => [r.value, r.pageviews]))).toEqual(Object.fromEntries(byPath))

    const batch = await call('POST', `/api/sites/${site.siteId}/reports?${withSegment}`, as(owner), {
      reports: [{ name: 'stats' }, { name: 'breakdown', params: { name: 'pages' } }],
    })
    expect(batch.statusCode, batch.body).toBe(200)
    expect(batch.json().data.stats.data.current).toMatchObject(expected)
    expect(batch.json().data.breakdown.data).toEqual(rows)

    const v1 = await call('GET', `/api/v1/sites/${site.siteId}/stats?${withSegment}`, {
      authorization: `Bearer ${apiKey}`,
    })
    expect(v1.statusCode, v1.body).toBe(200)
    expect(v1.json().data.current).toMatchObject(expected)

    // Every other kind of read answers with the segment what it answers with the filters inline.
    const same = async (url: string, headers: Record<string, string>) => {
      const get = (query: string) => call('GET', `${url}${url.includes('?') ? '&' : '?'}${query}`, headers)
      const [segmented, inlined] = await Promise.all([get(withSegment), get(inline)])
      expect(segmented.statusCode, `${url}: ${segmented.body}`).toBe(200)
      expect(segmented.json(), url).toEqual(inlined.json())
      return segmented.json() as { data: unknown }
    }
    const dashboard = as(owner)
    const key = { authorization: `Bearer ${apiKey}` }
    await same(`/api/sites/${site.siteId}/sessions`, dashboard)
    await same(`/api/sites/${site.siteId}/series?bucket=day`, dashboard)
    await same(`/api/sites/${site.siteId}/journeys`, dashboard)
    await same(`/api/sites/${site.siteId}/retention`, dashboard)
    await same(`/api/v1/sites/${site.siteId}/pages`, key)
    const listed = await same(`/api/v1/sites/${site.siteId}/events?limit=100`, key)
    expect(listed.data).toHaveLength(expected.pageviews)
  })

  it("refuses an unknown id, another site's segment and another user's personal segment", async () => {
    const foreign = await create(
      owner,
      { name: 'Other', filters: [docsFilter], visibility: 'site' },
      otherSite.siteId,
    )
    const ownersOwn = await create(owner, { name: 'Own', filters: [docsFilter], visibility: 'personal' })
    const stats = (query: string, headers: Record<string, string>) =>
      call('GET', `/api/sites/${site.siteId}/stats?${RANGE}&${query}`, headers)

    for (const id of [foreign, 999_999]) {
      const response = await stats(`segment=${id}`, as(owner))
      expect(response.statusCode, response.body).toBe(404)
      expect(response.json().error).toBe('Segment not found')
    }
    // The owner's personal segment: theirs on the dashboard and through their API key...
    expect((await stats(`segment=${ownersOwn}`, as(owner))).statusCode).toBe(200)
    const v1 = await call('GET', `/api/v1/sites/${site.siteId}/stats?${RANGE}&segment=${ownersOwn}`, {
      authorization: `Bearer ${apiKey}`,
    })
    expect(v1.statusCode, v1.body).toBe(200)
    // ...and nobody else's: another member, a private link key, v1 on another site.
    expect((await stats(`segment=${ownersOwn}`, as(member))).statusCode).toBe(404)
    expect((await stats(`segment=${ownersOwn}`, { 'x-private-key': privateKey })).statusCode).toBe(404)
    const v1Foreign = await call('GET', `/api/v1/sites/${site.siteId}/stats?${RANGE}&segment=${foreign}`, {
      authorization: `Bearer ${apiKey}`,
    })
    expect(v1Foreign.statusCode).toBe(404)
    const batch = await call(
      'POST',
      `/api/sites/${site.siteId}/reports?${RANGE}&segment=${ownersOwn}`,
      as(member),
      {
        reports: [{ name: 'stats' }],
      },
    )
    expect(batch.statusCode).toBe(404)

    // The request's own filters keep their 400s beside a segment, and together count toward 20.
    const docs = await create(owner, { name: 'Docs', filters: [docsFilter], visibility: 'site' })
    const notJson = await stats(`segment=${docs}&filters=not-json`, as(owner))
    expect(notJson.statusCode, notJson.body).toBe(400)
    expect(notJson.json().error).toMatch(/^Invalid filters: /)
    const twenty = Array.from({ length: 20 }, (_, i) => ({ ...germanFilter, value: [`l${i}`] }))
    expect((await stats(filtersParam(twenty), as(owner))).statusCode).toBe(200)
    const tooMany = await stats(`segment=${docs}&${filtersParam(twenty)}`, as(owner))
    expect(tooMany.statusCode, tooMany.body).toBe(400)
    expect(tooMany.json().error).toBe('Invalid filters: at most 20 filters')

    const invalid = await stats('segment=abc', as(owner))
    expect(invalid.statusCode).toBe(400)
    expect(invalid.json().error).toBe('Invalid segment: segment must be an integer from 1 to 2147483647')
    // The site's access answers first.
    expect((await stats(`segment=${foreign}`, {})).statusCode).toBe(401)

    // Anyone reads a public site, with its shared segments only.
    const configured = await call('PUT', `/api/sites/${site.siteId}/config`, as(owner), { public: true })
    expect(configured.statusCode, configured.body).toBe(200)
    const anonymous = await stats(`segment=${docs}`, {})
    expect(anonymous.statusCode, anonymous.body).toBe(200)
    expect(anonymous.json().data.current.pageviews).toBe(
      views.filter((v) => v.pathname.startsWith('/docs')).length,
    )
    expect((await stats(`segment=${ownersOwn}`, {})).statusCode).toBe(404)
    expect(await listIds({})).toEqual(expect.arrayContaining([docs]))
    expect(await listIds({})).not.toContain(ownersOwn)

    // A personal segment serves its creator while they are a member: not once they have left, though
    // they still read the public site (and its shared segments) signed in.
    const leaver = await memberWith(organizationId, 'member')
    const theirs = await create(leaver, { name: 'Mine', filters: [docsFilter], visibility: 'personal' })
    expect((await stats(`segment=${theirs}`, as(leaver))).statusCode).toBe(200)
    await t.services.metadata.db.deleteFrom('member').where('user_id', '=', leaver.userId).execute()
    const gone = await stats(`segment=${theirs}`, as(leaver))
    expect(gone.statusCode, gone.body).toBe(404)
    expect(gone.json().error).toBe('Segment not found')
    expect((await stats(`segment=${docs}`, as(leaver))).statusCode).toBe(200)
  })
})
