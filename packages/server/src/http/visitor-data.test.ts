/**
 * Data-subject requests through HTTP, on both metadata stores: a visitor's export and erasure
 * (`http/visitor-data.ts`), checked against counts over the generated input and against raw reports.
 */
import crypto from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseQueryParams } from '../query/params.js'
import { queryStatsReport } from '../query/stats-report.js'
import type { Site } from '../sites/site.js'
import { eventRow } from '../storage/events/event-row.fixture.js'
import type { EventRow } from '../storage/events/event-row.js'
import { foldSessions } from '../storage/events/fold-sessions.js'
import { sealPageMonths } from '../storage/events/seal-page-months.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const MINUTE = 60_000
const ADA = 'ada@example.com'
/** An anonymous id of the form ingest derives, stored directly for the anonymous visitor. */
const ANONYMOUS = '0a1b2c3d4e5f6789'
/** Whole UTC days around the generated events: every report reads whole hours. */
const RANGE = { start_date: '2026-03-01', end_date: '2026-03-09' }

/** mulberry32, so the generated visits are the same in every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** 160 sessions of 30 visitors, Ada's every 8th and the anonymous visitor's every 20th, 2026-03-01 to 03-08. */
function visits(siteId: number): EventRow[] {
  const random = seeded(siteId + 11)
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T
  const rows: EventRow[] = []
  const start = Date.parse('2026-03-01T00:00:00Z')
  for (let s = 0; s < 160; s++) {
    const visitor = s % 8 === 1 ? ADA : s % 20 === 2 ? ANONYMOUS : `visitor-${Math.floor(random() * 30)}`
    let at = start + Math.floor(random() * 8 * 24 * 60) * MINUTE + s
    for (let e = 0, count = 1 + Math.floor(random() * 6); e < count; e++) {
      const type: EventRow['type'] =
        e === 0 ? 'pageview' : pick(['pageview', 'custom_event', 'outbound'] as const)
      rows.push(
        eventRow({
          site_id: siteId,
          session_id: `session-${siteId}-${s}`,
          user_id: visitor,
          timestamp: new Date(at).toISOString(),
          type,
          pathname: pick(['/', '/pricing', '/blog/a', `/s${s % 5}`]),
          event_name: type === 'custom_event' ? 'signup' : '',
          country: pick(['DE', 'US']),
        }),
      )
      at += (1 + Math.floor(random() * 45)) * MINUTE
    }
  }
  return rows
}

const nothingErased = { success: true, deleted: 0, sessions: 0, replayBatches: 0, webhookDeliveries: 0 }

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex')

describe.each([
  ['SQLite + chDB', { postgres: false, redis: false }],
  ['PostgreSQL + chDB + Redis', { postgres: true, redis: true }],
])('a visitor’s data on %s', (_name, stores) => {
  let t: TestInstance
  let site: Site
  let otherSite: Site
  let owner: { cookie: string; userId: string }
  let admin: { cookie: string; userId: string }
  let member: { cookie: string; userId: string }
  let fullKey: string
  let readKey: string
  let rows: EventRow[]

  const call = (method: 'GET' | 'DELETE', url: string, auth: { cookie?: string; key?: string }) =>
    t.app.inject({
      method,
      url,
      headers: auth.key ? { authorization: `Bearer ${auth.key}` } : { cookie: auth.cookie ?? '' },
    })
  const userUrl = (id: string, on: Site = site) => `/api/sites/${on.siteId}/users/${encodeURIComponent(id)}`
  const visitorUrl = (id: string) => `/api/sites/${site.siteId}/visitors/${id}`
  const lines = (response: LightMyRequestResponse) =>
    response.body
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { eventId: string; userId: string; timestamp: string })
  /** Webhook deliveries of the site whose body names the visitor. */
  const deliveriesNaming = async (userId: string) => {
    const deliveries = await t.services.metadata.db
      .selectFrom('webhook_delivery')
      .select('payload')
      .where('site_id', '=', site.siteId)
      .execute()
    return deliveries.filter(
      (row) => (JSON.parse(row.payload) as { data: { userId: string } }).data.userId === userId,
    ).length
  }
  const statsUrl = `/api/sites/__SITE__/stats?start_date=${RANGE.start_date}&end_date=${RANGE.end_date}&bucket=day`

  /** The stats of the range over HTTP (from the rollups) and from raw events, as JSON. */
  const statsBoth = async () => {
    const rolled = await call('GET', statsUrl.replace('__SITE__', String(site.siteId)), owner)
    expect(rolled.statusCode, rolled.body).toBe(200)
    const raw = await queryStatsReport(
      t.services.events,
      { siteId: site.siteId, params: parseQueryParams(RANGE, Date.now()), rollups: false },
      'day',
    )
    return { rolled: rolled.json(), raw: JSON.parse(JSON.stringify(raw)) }
  }

  beforeAll(async () => {
    // Workers off: webhook deliveries stay pending in the store (their host does not exist).
    t = await openTestInstance({ ...stores, workers: false, env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } })
    const seeded = await t.seed()
    owner = seeded
    site = seeded.site
    fullKey = seeded.apiKey
    otherSite = await t.createSite(owner.cookie, seeded.organizationId, 'other.example')
    admin = await t.signUp()
    member = await t.signUp()
    for (const [user, role] of [
      [admin, 'admin'],
      [member, 'member'],
    ] as const) {
      await t.services.metadata.db
        .insertInto('member')
        .values({
          id: crypto.randomUUID(),
          organization_id: seeded.organizationId,
          user_id: user.userId,
          role,
          created_at: new Date().toISOString(),
        })
        .execute()
    }
    await t.services.webhooks.create(site.siteId, owner.userId, {
      url: 'https://hooks.example.com/sessions',
      events: ['session.created'],
    })
    readKey = (await t.services.apiKeys.create(owner.userId, { name: 'read', scope: 'read' })).key
    rows = [...visits(site.siteId), ...visits(otherSite.siteId)]
    await t.services.events.insert(rows)
    const adaSessions = [
      ...new Set(rows.filter((r) => r.site_id === site.siteId && r.user_id === ADA).map((r) => r.session_id)),
    ]
    await t.services.events.insertReplay(
      adaSessions.slice(0, 3).map((sessionId, sequence) => {
        const payload = Buffer.from(JSON.stringify({ events: [{ timestamp: 1000 }] }))
        return {
          site_id: site.siteId,
          session_id: sessionId,
          sequence,
          timestamp: '2026-03-02T10:00:00.000Z',
          received_at: new Date().toISOString(),
          expires_at: new Date(Date.now() + 86_400_000).toISOString(),
          bytes: payload.length,
          encoding: 'json',
          payload,
        }
      }),
    )
    // Folded and sealed as the server's fold pass leaves them: the erasure must correct those too.
    await foldSessions(t.services.events, { closedBefore: Date.parse('2026-03-10T00:00:00Z'), settleMs: 0 })
    await sealPageMonths(t.services.events, { settleMs: 0 })
  })
  afterAll(() => t?.close())

  it('refuses members, read keys and other organizations, and names a bad id', async () => {
    for (const url of [userUrl(ADA), `${userUrl(ADA)}/export`, visitorUrl(ANONYMOUS)]) {
      expect((await call(url.endsWith('export') ? 'GET' : 'DELETE', url, member)).statusCode).toBe(403)
    }
    const refused = await call('GET', `${userUrl(ADA)}/export`, { key: readKey })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error).toContain('full')
    const outsider = await t.signUp()
    expect((await call('DELETE', userUrl(ADA), outsider)).statusCode).toBe(404)

    const badVisitor = await call('DELETE', visitorUrl('ADA-NOT-HEX'), admin)
    expect(badVisitor.statusCode).toBe(400)
    expect(badVisitor.json().error).toMatch(/^Invalid visitorId: /)
    expect(badVisitor.json().details.fieldErrors.visitorId).toHaveLength(1)
    const padded = await call('GET', `${userUrl(` ${ADA}`)}/export`, admin)
    expect(padded.statusCode).toBe(400)
    expect(padded.json().error).toMatch(/^Invalid userId: /)
    const long = await call('DELETE', userUrl('x'.repeat(257)), admin)
    expect(long.statusCode).toBe(400)
    expect(long.json().error).toMatch(/^Invalid userId: /)
    // The longest id tracking takes, of 4-byte characters: routed, and names nobody here.
    const longest = await call('DELETE', userUrl('😀'.repeat(128)), admin)
    expect(longest.json()).toEqual(nothingErased)
    // Nothing was erased by any of these.
    const [count] = await t.services.events.query<{ n: number }>(
      'SELECT count() AS n FROM events WHERE user_id = {user:String}',
      { user: ADA },
    )
    expect(Number(count?.n)).toBe(rows.filter((r) => r.user_id === ADA).length)
  })

  it("exports exactly the user's events as NDJSON, with one accepted just now", async () => {
    const live = await t.track(site, { user_id: ADA, pathname: '/live' })
    expect(live.statusCode, live.body).toBe(200)
    const response = await call('GET', `${userUrl(ADA)}/export`, { key: fullKey })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.headers['content-type']).toMatch(/^application\/x-ndjson/)
    // The last line is the identified user's profile (traits), the lines before it the events.
    const all = lines(response)
    expect(all.at(-1)).toMatchObject({ user_profile: { userId: ADA } })
    const exported = all.slice(0, -1)
    const own = rows
      .filter((r) => r.site_id === site.siteId && r.user_id === ADA)
      .sort((a, b) => a.timestamp.localeCompare(b.timestamp))
    expect(exported.slice(0, -1).map((line) => line.eventId)).toEqual(own.map((r) => r.event_id))
    expect(exported.at(-1)).toMatchObject({ userId: ADA, pathname: '/live' })
    expect(exported.every((line) => line.userId === ADA)).toBe(true)
    const nobody = await call('GET', `${userUrl('nobody')}/export`, admin)
    expect(nobody.statusCode).toBe(200)
    expect(nobody.body).toBe('')
  })

  it("erases the user's events, sessions and recordings; rolled reports equal raw ones after", async () => {
    const before = await statsBoth()
    expect(before.rolled).toEqual(before.raw)
    const adaSessions = new Set(
      rows.filter((r) => r.site_id === site.siteId && r.user_id === ADA).map((r) => r.session_id),
    )
    const expected = rows.filter((r) => r.site_id === site.siteId && adaSessions.has(r.session_id)).length + 1
    const response = await call('DELETE', userUrl(ADA), admin)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toEqual({
      success: true,
      deleted: expected,
      sessions: adaSessions.size + 1,
      replayBatches: 3,
      // The live session's `session.created` delivery, pending, names Ada.
      webhookDeliveries: 1,
    })
    expect(await deliveriesNaming(ADA)).toBe(0)

    const [left] = await t.services.events.query<{
      ada: number
      site: number
      other: number
      replay: number
    }>(
      `SELECT countIf(user_id = {user:String}) AS ada, countIf(site_id = {site:UInt32}) AS site,
         countIf(site_id = {other:UInt32} AND user_id = {user:String}) AS other,
         (SELECT count() FROM replay WHERE site_id = {site:UInt32}) AS replay
       FROM events`,
      { user: ADA, site: site.siteId, other: otherSite.siteId },
    )
    const siteRows = rows.filter((r) => r.site_id === site.siteId).length
    // The other site's Ada is another site's visitor: untouched.
    expect(left).toEqual({
      ada: rows.filter((r) => r.site_id === otherSite.siteId && r.user_id === ADA).length,
      site: siteRows + 1 - expected,
      other: rows.filter((r) => r.site_id === otherSite.siteId && r.user_id === ADA).length,
      replay: 0,
    })
    const after = await statsBoth()
    expect(after.rolled).toEqual(after.raw)
    expect(after.rolled.data.current.sessions).toBe(before.rolled.data.current.sessions - adaSessions.size)
    // Folded and sealed again by the next pass: still the raw figures.
    await foldSessions(t.services.events, { closedBefore: Date.parse('2026-03-10T00:00:00Z'), settleMs: 0 })
    await sealPageMonths(t.services.events, { settleMs: 0 })
    expect((await statsBoth()).rolled).toEqual(after.raw)

    expect((await call('GET', `${userUrl(ADA)}/export`, admin)).body).toBe('')
    const again = await call('DELETE', userUrl(ADA), { key: fullKey })
    expect(again.json()).toEqual(nothingErased)

    const audit = await call('GET', `/api/sites/${site.siteId}/audit-log`, owner)
    const entries = (audit.json() as { data: { action: string; actorUserId: string; details: unknown }[] })
      .data
    // Ada's two erasures (the second answered 0), each with a digest of the id, not the id.
    const erasures = entries.filter(
      (entry) =>
        entry.action === 'visitor.erased' && (entry.details as { idSha256: string }).idSha256 === sha256(ADA),
    )
    expect(erasures).toHaveLength(2)
    expect(erasures).toContainEqual(
      expect.objectContaining({
        actorUserId: admin.userId,
        details: {
          kind: 'user',
          idSha256: sha256(ADA),
          deleted: expected,
          sessions: adaSessions.size + 1,
          replayBatches: 3,
          webhookDeliveries: 1,
        },
      }),
    )
    expect(entries.some((entry) => entry.action === 'visitor.exported')).toBe(true)
    expect(audit.body).not.toContain(ADA)
  })

  it('finds an anonymous visitor in the sessions list and erases them by visitor id', async () => {
    const stored = rows.filter((r) => r.site_id === site.siteId && r.user_id === ANONYMOUS).length
    expect(stored).toBeGreaterThan(0)
    const sessions = await call(
      'GET',
      `/api/sites/${site.siteId}/sessions?start_date=${RANGE.start_date}&end_date=${RANGE.end_date}&limit=1000`,
      owner,
    )
    const listed = (sessions.json() as { data: { user_id: string }[] }).data.map((s) => s.user_id)
    expect(listed).toContain(ANONYMOUS)
    // A visitor tracked live without a user_id: the id ingest derived, from today's sessions.
    expect((await t.track(site, { pathname: '/anonymous' })).statusCode).toBe(200)
    await t.services.buffer.flush()
    const today = new Date().toISOString().slice(0, 10)
    const todays = await call(
      'GET',
      `/api/sites/${site.siteId}/sessions?start_date=${today}&end_date=${today}`,
      owner,
    )
    const derived = (todays.json() as { data: { user_id: string }[] }).data.map((s) => s.user_id)
    expect(derived).toHaveLength(1)
    expect(derived[0]).toMatch(/^[0-9a-f]{16}$/)

    const exported = await call('GET', `${visitorUrl(ANONYMOUS)}/export`, { key: fullKey })
    expect(lines(exported)).toHaveLength(stored)
    const erased = await call('DELETE', visitorUrl(ANONYMOUS), owner)
    expect(erased.json()).toMatchObject({ success: true, deleted: stored })
    expect(await deliveriesNaming(derived[0] as string)).toBe(1)
    const live = await call('DELETE', visitorUrl(derived[0] as string), owner)
    expect(live.json()).toEqual({
      success: true,
      deleted: 1,
      sessions: 1,
      replayBatches: 0,
      webhookDeliveries: 1,
    })
    expect(await deliveriesNaming(derived[0] as string)).toBe(0)
    const after = await statsBoth()
    expect(after.rolled).toEqual(after.raw)
  })
})
