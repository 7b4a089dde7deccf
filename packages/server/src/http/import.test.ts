/**
 * Import and export through the real app (SQLite + chDB, DB-IP geolocation): 10,000 generated raw
 * events over 400 days imported, exported, and imported into a second site, with exact figures per
 * month in two time zones, pages, sessions and goal conversions equal on both; bad lines reported by
 * number while the rest is stored; re-importing an export adds nothing; access rules; the imported
 * sessions and months folded into the rollups before the answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Geolocator, openGeolocator } from '../ingest/enrich/geolocation.js'
import { AppError } from '../shared/errors.js'
import type { Site, SiteRow } from '../sites/site.js'
import { findSite } from '../sites/sites.js'
import { rollupBacklog } from '../storage/events/rollup-backlog.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import type { ImportEntry } from '../transfer/import-entry.js'
import { importEvents } from '../transfer/import-events.js'

const NOW = Date.parse('2026-11-20T12:00:00.000Z')
const DAY = 86_400_000
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:124.0) Gecko/20100101 Firefox/124.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
]
const IPS = ['8.8.8.8', '81.2.69.142', '2.16.0.1', '1.1.1.1']
const PAGES = ['/', '/pricing', '/blog/a', '/blog/b', '/signup', '/docs']
const REFERRERS = ['', 'https://www.google.com/', 'https://news.ycombinator.com/item?id=1', '']

/** A small deterministic PRNG (mulberry32), so the data is the same on every run. */
function random(seed: number) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** `count` raw lines over the 400 days before NOW: visits of 1 to 6 events, a few minutes apart. */
function generate(count: number): { lines: string[]; pageviews: number } {
  const next = random(42)
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T
  const lines: string[] = []
  let pageviews = 0
  while (lines.length < count) {
    const visitor = Math.floor(next() * 400)
    let at = NOW - 400 * DAY + Math.floor(next() * 399 * DAY)
    const visit = 1 + Math.floor(next() * 6)
    for (let i = 0; i < visit && lines.length < count; i++) {
      const custom = i > 0 && next() < 0.2
      const line: Record<string, unknown> = {
        timestamp: new Date(at).toISOString(),
        hostname: 'example.com',
        pathname: pick(PAGES),
        referrer: i === 0 ? pick(REFERRERS) : '',
        user_agent: USER_AGENTS[visitor % USER_AGENTS.length],
        ip_address: IPS[visitor % IPS.length],
        user_id: visitor % 3 === 0 ? undefined : `v${visitor}`,
        language: 'en-US',
        screenWidth: 1280,
        screenHeight: 800,
      }
      if (custom) {
        line.type = 'custom_event'
        line.event_name = 'signup'
        line.properties = { plan: pick(['free', 'pro']) }
      } else pageviews++
      if (i === 0 && next() < 0.1) line.querystring = '?utm_source=newsletter&utm_medium=email'
      lines.push(JSON.stringify(line))
      at += Math.floor(next() * 10 * 60_000)
    }
  }
  return { lines, pageviews }
}

/** The first day of each month from 2025-10 to 2026-11 and its last day. */
const months = Array.from({ length: 14 }, (_, i) => {
  const first = new Date(Date.UTC(2025, 9 + i, 1))
  const last = new Date(Date.UTC(2025, 10 + i, 0))
  return [first.toISOString().slice(0, 10), last.toISOString().slice(0, 10)] as const
})

let geolocator: Geolocator
beforeAll(async () => {
  geolocator = await openGeolocator()
}, 60_000)
afterAll(() => geolocator.close())

describe('import and export', () => {
  let t: TestInstance
  let owner: { cookie: string; userId: string; organizationId: string; site: Site; apiKey: string }
  let copy: Site
  const generated = generate(10_000)

  const importInto = (siteId: number, body: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/sites/${siteId}/import`,
      headers: { cookie: owner.cookie, 'content-type': 'application/x-ndjson', ...headers },
      payload: body,
    })
  const exportOf = async (siteId: number, query = '') => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${siteId}/export${query}`,
      headers: { cookie: owner.cookie },
    })
    expect(response.statusCode, response.body.slice(0, 500)).toBe(200)
    return response
  }
  const read = async (siteId: number, path: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${siteId}/${path}`,
      headers: { cookie: owner.cookie },
    })
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }

  const whoIs = async (cookie: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } })).json()
      .user as {
      email: string
    }

  beforeAll(async () => {
    t = await openTestInstance({ geolocator, clock: () => NOW })
    owner = await t.seed()
    copy = await t.createSite(owner.cookie, owner.organizationId, 'copy.example.com')
  }, 60_000)
  afterAll(() => t?.close())

  it('imports 10,000 raw events over 400 days, enriched and sessionized, readable at once', async () => {
    const response = await importInto(owner.site.siteId, `${generated.lines.join('\n')}\n`)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toEqual({
      success: true,
      imported: 10_000,
      dropped: {},
      rejectedCount: 0,
      rejected: [],
    })
    // Folded before the answer: no session hour or pages' month left for the periodic pass, every
    // imported session in a summary (the data ends days before the store's clock, so all are closed).
    expect(await rollupBacklog(t.services.events)).toEqual({ hoursToFold: 0, monthsToSeal: 0 })
    const [folded] = await t.services.events.query<{ summaries: number; sessions: number }>(
      `SELECT (SELECT count() FROM session_summaries WHERE site_id = {site:UInt32}) AS summaries,
         (SELECT uniqExact(session_id) FROM events WHERE site_id = {site:UInt32}) AS sessions`,
      { site: owner.site.siteId },
    )
    expect(Number(folded?.summaries)).toBe(Number(folded?.sessions))
    const all = `start_date=${months[0]?.[0]}&end_date=${months.at(-1)?.[1]}`
    const stats = await read(owner.site.siteId, `stats?${all}`)
    expect(stats.data.current.pageviews).toBe(generated.pageviews)
    expect(stats.data.current.events).toBe(10_000 - generated.pageviews)
    const countries = await read(owner.site.siteId, `breakdown/countries?${all}`)
    expect(countries.data.map((row: { value: string }) => row.value).sort()).toEqual(['AU', 'BR', 'GB', 'US'])
    const browsers = await read(owner.site.siteId, `breakdown/browsers?${all}`)
    expect(browsers.data.map((row: { value: string }) => row.value).sort()).toEqual([
      'Chrome',
      'Firefox',
      'Mobile Safari',
    ])
    const channels = await read(owner.site.siteId, `breakdown/channels?${all}`)
    expect(channels.data.map((row: { value: string }) => row.value)).toContain('Email')
  }, 120_000)

  it('exports every event oldest first, and the export imported elsewhere gives the same figures', async () => {
    const exported = await exportOf(owner.site.siteId)
    expect(exported.headers['content-type']).toBe('application/x-ndjson; charset=utf-8')
    const lines = exported.body.trimEnd().split('\n')
    expect(lines).toHaveLength(10_000)
    const times = lines.map((line) => (JSON.parse(line) as { timestamp: string }).timestamp)
    expect([...times].sort()).toEqual(times)
    expect(Object.keys(JSON.parse(lines[0] ?? '{}')).slice(0, 5)).toEqual([
      'eventId',
      'timestamp',
      'type',
      'sessionId',
      'userId',
    ])

    const response = await importInto(copy.siteId, exported.body)
    expect(response.json()).toMatchObject({ imported: 10_000, rejectedCount: 0 })

    for (const timeZone of ['UTC', 'America/New_York']) {
      for (const [first, last] of months) {
        const range = `start_date=${first}&end_date=${last}&time_zone=${timeZone}`
        const before = await read(owner.site.siteId, `stats?${range}`)
        const after = await read(copy.siteId, `stats?${range}`)
        expect(after.data.current, `${first} ${timeZone}`).toEqual(before.data.current)
      }
    }
    const all = `start_date=${months[0]?.[0]}&end_date=${months.at(-1)?.[1]}&limit=1000`
    for (const path of ['breakdown/pages', 'breakdown/entry_pages', 'breakdown/countries', 'sessions']) {
      expect((await read(copy.siteId, `${path}?${all}`)).data, path).toEqual(
        (await read(owner.site.siteId, `${path}?${all}`)).data,
      )
    }
    // The same goal on both sites converts the same sessions.
    for (const site of [owner.site, copy]) {
      const goal = await t.app.inject({
        method: 'POST',
        url: `/api/sites/${site.siteId}/goals`,
        headers: { cookie: owner.cookie },
        payload: { name: 'Signed up', goalType: 'event', config: { eventName: 'signup' } },
      })
      expect(goal.statusCode, goal.body).toBe(201)
    }
    const goals = async (siteId: number) =>
      (await read(siteId, `goals?${all}`)).data.map(
        ({ goalId: _id, createdAt: _at, ...rest }: { goalId: number; createdAt: string }) => rest,
      )
    expect(await goals(copy.siteId)).toEqual(await goals(owner.site.siteId))
    expect((await goals(copy.siteId))[0].total_conversions).toBeGreaterThan(0)
  }, 180_000)

  it('adds nothing when an export is imported again', async () => {
    const exported = await exportOf(copy.siteId, '?start_date=2026-01-01&end_date=2026-03-31')
    const count = exported.body.trimEnd().split('\n').length
    expect(count).toBeGreaterThan(1000)
    const response = await importInto(copy.siteId, exported.body)
    expect(response.json()).toEqual({
      success: true,
      imported: 0,
      dropped: { duplicate: count },
      rejectedCount: 0,
      rejected: [],
    })
    const twice = await importInto(copy.siteId, `${exported.body}${exported.body}`, {
      authorization: `Bearer ${owner.apiKey}`,
      cookie: '',
    })
    expect(twice.json()).toMatchObject({ imported: 0, dropped: { duplicate: 2 * count } })
  }, 60_000)

  it('imports a raw line with its own event_id once', async () => {
    const site = await t.createSite(owner.cookie, owner.organizationId, 'ids.example.com')
    const line = JSON.stringify({
      timestamp: '2026-11-02T10:00:00Z',
      pathname: '/once',
      user_id: 'u',
      event_id: '3f1e2d3c-4b5a-4987-a6b5-c4d3e2f1a0b9',
    })
    expect((await importInto(site.siteId, `${line}\n${line}`)).json()).toMatchObject({
      imported: 1,
      dropped: { duplicate: 1 },
    })
    expect((await importInto(site.siteId, line)).json()).toMatchObject({
      imported: 0,
      dropped: { duplicate: 1 },
    })
  })

  it('reports each bad line by number with the field, stores the rest, and drops bots', async () => {
    const site = await t.createSite(owner.cookie, owner.organizationId, 'bad.example.com')
    const good = (pathname: string, minute: number) =>
      JSON.stringify({ timestamp: `2026-11-01T10:0${minute}:00+01:00`, pathname, user_id: 'u1' })
    const body = [
      good('/one', 0),
      '{not json',
      JSON.stringify({ pathname: '/no-time' }),
      JSON.stringify({ timestamp: '2026-11-01', pathname: '/date-only' }),
      JSON.stringify({ timestamp: '2026-11-01T10:00:00Z', type: 'visit' }),
      JSON.stringify({ timestamp: '2026-11-01T10:00:00Z', pathname: 'x'.repeat(3000) }),
      '[1,2]',
      '',
      JSON.stringify({ timestamp: '2027-01-01T00:00:00Z' }),
      JSON.stringify({ eventId: 'not-a-uuid' }),
      JSON.stringify({
        timestamp: '2026-11-01T10:05:00Z',
        user_agent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      }),
      good('/two', 5),
    ].join('\r\n')
    const response = await importInto(site.siteId, body)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      success: true,
      imported: 2,
      dropped: { 'bot:crawler': 1 },
      rejectedCount: 8,
      rejected: [
        { line: 2, error: 'The line is not valid JSON' },
        { line: 3, error: 'timestamp: is required (ISO 8601 with Z or an offset)' },
        { line: 4, error: 'timestamp: must be an ISO 8601 date-time with Z or an offset' },
        { line: 5, error: expect.stringMatching(/^type: must be one of pageview/) },
        { line: 6, error: 'pathname: must be at most 2048 characters' },
        { line: 7, error: 'The line must be a JSON object' },
        { line: 9, error: 'timestamp: must not be in the future' },
        { line: 10, error: expect.stringMatching(/^eventId: /) },
      ],
    })
    const events = await read(site.siteId, 'events?start_date=2026-11-01&end_date=2026-11-01')
    expect(events.data.map((e: { pathname: string }) => e.pathname)).toEqual(['/two', '/one'])
    expect(new Set(events.data.map((e: { sessionId: string }) => e.sessionId)).size).toBe(1)
    const audit = await read(site.siteId, 'audit-log')
    expect(audit.data[0]).toMatchObject({
      action: 'events.imported',
      actorUserId: owner.userId,
      details: { imported: 2, dropped: { 'bot:crawler': 1 }, rejectedCount: 8 },
    })
  })

  it('stores what was read before the body failed, then answers the failure', async () => {
    const site = await t.createSite(owner.cookie, owner.organizationId, 'cut.example.com')
    const row = await findSite(t.services.metadata.db, site.siteId)
    async function* cutShort(): AsyncGenerator<ImportEntry> {
      yield { line: 1, raw: { timestamp: '2026-11-01T10:00:00Z', pathname: '/a', user_id: 'u' } }
      yield { line: 2, raw: { timestamp: '2026-11-01T10:01:00Z', pathname: '/b', user_id: 'u' } }
      throw new AppError(413, 'The body is over 10 bytes; the lines before were imported')
    }
    const deps = { ingest: t.services.ingest.deps, events: t.services.events, db: t.services.metadata.db }
    await expect(importEvents(deps, row as SiteRow, cutShort(), owner.userId)).rejects.toMatchObject({
      status: 413,
    })
    const events = await read(site.siteId, 'events?start_date=2026-11-01&end_date=2026-11-01')
    expect(events.data.map((e: { pathname: string }) => e.pathname)).toEqual(['/b', '/a'])
  })

  it('takes NDJSON only, from admins and owners; a member gets 403, another organization 404', async () => {
    const line = JSON.stringify({ timestamp: '2026-11-01T10:00:00Z' })
    const json = await importInto(owner.site.siteId, line, { 'content-type': 'application/json' })
    expect(json.statusCode).toBe(415)
    expect(json.json().error).toBe(
      'The body must be NDJSON (Content-Type: application/x-ndjson), with format=umami text/csv, or with format=plausible application/zip',
    )
    const text = await importInto(owner.site.siteId, line, { 'content-type': 'text/csv' })
    expect(text.statusCode).toBe(400)
    expect(text.json().error).toMatch(/^Invalid format: /)
    const member = await t.signUp()
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/organizations/${owner.organizationId}/members`,
      headers: { cookie: owner.cookie },
      payload: { email: (await whoIs(member.cookie)).email, role: 'member' },
    })
    expect(added.statusCode, added.body).toBe(201)
    const asMember = await importInto(owner.site.siteId, line, { cookie: member.cookie })
    expect(asMember.statusCode).toBe(403)
    const memberExport = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${owner.site.siteId}/export?start_date=2026-11-01&end_date=2026-11-01`,
      headers: { cookie: member.cookie },
    })
    expect(memberExport.statusCode).toBe(200)
    const outsider = await t.signUp()
    const elsewhere = await importInto(owner.site.siteId, line, { cookie: outsider.cookie })
    expect(elsewhere.statusCode).toBe(404)
    const anonymous = await importInto(owner.site.siteId, line, { cookie: '' })
    expect(anonymous.statusCode).toBe(401)
    const otherExport = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${owner.site.siteId}/export`,
      headers: { cookie: outsider.cookie },
    })
    expect(otherExport.statusCode).toBe(404)
    const badQuery = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${owner.site.siteId}/export?page=2`,
      headers: { cookie: owner.cookie },
    })
    expect(badQuery.statusCode).toBe(400)
    expect(badQuery.json().error).toBe('Invalid page: page is not a parameter of the export')
  })
})
