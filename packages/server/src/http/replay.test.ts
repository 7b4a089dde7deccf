/**
 * Session replay through the real app (inject) on SQLite + chDB + in-process state: `POST /api/replay`
 * (gzip and JSON bodies, the site switch, sampling, the caps, the keyless checks, the session it joins)
 * and reading and deleting a recording (`GET`/`DELETE /api/sites/{siteId}/sessions/{sessionId}/replay`).
 */
import crypto from 'node:crypto'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_REPLAY_LIMITS } from '../replay/replay-limits.js'
import type { Site } from '../sites/site.js'
import { DESKTOP_CHROME_UA, openTestInstance, type TestInstance } from '../testing/test-instance.js'

const GOOGLEBOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

describe('session replay', () => {
  let t: TestInstance
  let owner: { cookie: string; organizationId: string }
  let site: Site

  beforeAll(async () => {
    t = await openTestInstance()
    const seeded = await t.seed()
    owner = seeded
    site = seeded.site
    await configure(site, { sessionReplay: true })
  }, 60_000)
  afterAll(() => t.close())

  async function configure(target: Site, config: Record<string, unknown>) {
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/sites/${target.siteId}/config`,
      headers: { cookie: owner.cookie },
      payload: config,
    })
    expect(response.statusCode, response.body).toBe(200)
  }

  /** A fresh site of the owner's organization with replay on (a visitor of its own). */
  async function replaySite(config: Record<string, unknown> = {}) {
    const fresh = await t.createSite(owner.cookie, owner.organizationId, 'example.com')
    await configure(fresh, { sessionReplay: true, ...config })
    return fresh
  }

  const batch = (target: Site, sequence: number, times: number[], extra: Record<string, unknown> = {}) => ({
    site_id: target.siteId,
    sequence,
    events: times.map((timestamp, i) => ({ type: 3, timestamp, data: { source: 1, i } })),
    ...extra,
  })

  const send = (body: unknown, headers: Record<string, string> = {}, ip = '203.0.113.7') =>
    t.app.inject({
      method: 'POST',
      url: '/api/replay',
      remoteAddress: ip,
      headers: {
        'content-type': 'text/plain',
        'user-agent': DESKTOP_CHROME_UA,
        origin: 'https://example.com',
        ...headers,
      },
      payload: Buffer.isBuffer(body) ? body : JSON.stringify(body),
    })

  const storedRows = (target: Site) =>
    t.services.events.query<{ session_id: string; sequence: number; bytes: number; encoding: string }>(
      'SELECT session_id, sequence, bytes, encoding FROM replay WHERE site_id = {site:UInt32} ORDER BY sequence',
      { site: target.siteId },
    )

  const read = (
    target: Site,
    sessionId: string,
    headers: Record<string, string> = { cookie: owner.cookie },
  ) =>
    t.app.inject({ method: 'GET', url: `/api/sites/${target.siteId}/sessions/${sessionId}/replay`, headers })

  it('stores a gzip batch and a JSON batch and reads them back in sequence order', async () => {
    const target = await replaySite()
    const gzip = zlib.gzipSync(JSON.stringify(batch(target, 1, [3000, 4500])))
    const second = await send(gzip)
    expect(second.json()).toEqual({ success: true, recorded: true })
    expect(second.headers['access-control-allow-origin']).toBe('*')
    const first = await send(batch(target, 0, [1000, 2000]))
    expect(first.json()).toEqual({ success: true, recorded: true })

    const rows = await storedRows(target)
    expect(rows.map((row) => [row.sequence, row.encoding])).toEqual([
      [0, 'json'],
      [1, 'gzip'],
    ])
    expect(rows[1]?.bytes).toBe(gzip.length)
    expect(new Set(rows.map((row) => row.session_id)).size).toBe(1)

    const answer = await read(target, rows[0]?.session_id ?? '')
    expect(answer.statusCode, answer.body).toBe(200)
    const { data } = answer.json() as {
      data: { events: { timestamp: number; data: { i: number } }[]; meta: Record<string, unknown> }
    }
    expect(data.events.map((event) => event.timestamp)).toEqual([1000, 2000, 3000, 4500])
    expect(data.events[3]).toEqual({ type: 3, timestamp: 4500, data: { source: 1, i: 1 } })
    expect(data.meta).toEqual({
      durationMs: 3500,
      bytes: Number(rows[0]?.bytes) + gzip.length,
      truncated: false,
    })
  })

  it('calls a recording incomplete only when a part of it is missing, not when its numbers jump at a page', async () => {
    /** A page's batch (its first event a Meta event, as rrweb begins a page) or a later batch. */
    const part = (target: Site, sequence: number, times: number[], opensPage: boolean) => {
      const body = batch(target, sequence, times)
      if (opensPage) body.events[0] = { type: 4, timestamp: times[0] ?? 0, data: { source: 0, i: 0 } }
      return body
    }
    const meta = async (target: Site, bodies: ReturnType<typeof part>[], ip: string) => {
      for (const body of bodies) expect((await send(body, {}, ip)).json()).toMatchObject({ recorded: true })
      const [row] = await storedRows(target)
      const answer = await read(target, row?.session_id ?? '')
      expect(answer.statusCode, answer.body).toBe(200)
      return (answer.json() as { data: { meta: { truncated: boolean } } }).data.meta
    }
    // Two pages recorded without storage: numbered from the time, each page's first batch opens it.
    const twoPages = await replaySite()
    expect(
      await meta(
        twoPages,
        [
          part(twoPages, 3_000, [1000, 2000], true),
          part(twoPages, 3_001, [3000], false),
          part(twoPages, 3_090, [9000], true),
        ],
        '203.0.113.61',
      ),
    ).toMatchObject({ truncated: false })
    // A batch lost in the middle of a page, or the batch that opened the recording: incomplete.
    const lostMiddle = await replaySite()
    expect(
      await meta(
        lostMiddle,
        [part(lostMiddle, 0, [1000], true), part(lostMiddle, 2, [3000], false)],
        '203.0.113.62',
      ),
    ).toMatchObject({ truncated: true })
    const lostStart = await replaySite()
    expect(await meta(lostStart, [part(lostStart, 1, [2000], false)], '203.0.113.63')).toMatchObject({
      truncated: true,
    })
  })

  it('records nothing when the site has replay off', async () => {
    const off = await t.createSite(owner.cookie, owner.organizationId, 'example.com')
    const response = await send(batch(off, 0, [1000]))
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ success: true, recorded: false, reason: 'replay is off for this site' })
    expect(await storedRows(off)).toEqual([])
  })

  it('records nothing for a session outside the sample', async () => {
    const target = await replaySite({ replaySampleRate: 0 })
    const response = await send(batch(target, 0, [1000]))
    expect(response.json()).toEqual({ success: true, recorded: false, reason: 'not sampled' })
    expect(await storedRows(target)).toEqual([])
  })

  it('refuses a body over 1 MB with 413 and stores nothing', async () => {
    const target = await replaySite()
    const big = batch(target, 0, [1000], {})
    ;(big.events[0] as Record<string, unknown>).data = { text: 'x'.repeat(2 * 1024 * 1024) }
    const response = await send(big)
    expect(response.statusCode).toBe(413)
    expect(response.json()).toEqual({ success: false, error: 'Request body is too large' })
    expect(await storedRows(target)).toEqual([])
  })

  it('acknowledges and drops batches once a session holds its cap, counted as JSON', async () => {
    const target = await replaySite()
    const { maxSessionBytes } = DEFAULT_REPLAY_LIMITS
    // Gzip bodies of a few KB, each 4 MiB of JSON: the cap counts the JSON.
    const pad = 'x'.repeat(4 * 1024 * 1024)
    let sequence = 0
    let sentJson = 0
    let last: { recorded: boolean; reason?: string } = { recorded: true }
    while (last.recorded && sequence < 40) {
      const json = JSON.stringify(batch(target, sequence, [1000 + sequence], { pad }))
      last = (await send(zlib.gzipSync(json), {}, '203.0.113.50')).json()
      if (last.recorded) sentJson += Buffer.byteLength(json)
      sequence++
    }
    expect(last).toEqual({ success: true, recorded: false, reason: 'session over its replay cap' })
    const rows = await t.services.events.query<{ bytes: number; json_bytes: number }>(
      'SELECT bytes, json_bytes FROM replay WHERE site_id = {site:UInt32}',
      { site: target.siteId },
    )
    const json = rows.reduce((sum, row) => sum + Number(row.json_bytes), 0)
    expect(json).toBe(sentJson)
    expect(json).toBeGreaterThanOrEqual(maxSessionBytes)
    expect(json).toBeLessThan(maxSessionBytes + 4.1 * 1024 * 1024)
    expect(rows.reduce((sum, row) => sum + Number(row.bytes), 0)).toBeLessThan(1024 * 1024)
    const [row] = await storedRows(target)
    const answer = await read(target, row?.session_id ?? '')
    expect((answer.json() as { data: { meta: { truncated: boolean } } }).data.meta.truncated).toBe(true)
  }, 60_000)

  it('refuses a wrong Origin and a bot like /api/track does', async () => {
    const target = await replaySite()
    const foreign = await send(batch(target, 0, [1000]), { origin: 'https://evil.example' })
    expect(foreign.statusCode).toBe(403)
    expect(foreign.json()).toEqual({ success: false, error: 'Domain not allowed for this site' })
    const bot = await send(batch(target, 0, [1000]), { 'user-agent': GOOGLEBOT_UA })
    expect(bot.statusCode).toBe(403)
    expect(bot.json()).toEqual({ success: false, error: 'Bot detected' })
    expect(await storedRows(target)).toEqual([])
  })

  it('refuses invalid batches with 400 naming the field, and unknown sites with 404', async () => {
    const invalid = await send({ site_id: site.siteId, sequence: -1, events: [] })
    expect(invalid.statusCode).toBe(400)
    expect(Object.keys((invalid.json() as { details: { fieldErrors: object } }).details.fieldErrors)).toEqual(
      expect.arrayContaining(['sequence', 'events']),
    )
    expect((await send(batch({ ...site, siteId: 999_999 }, 0, [1000]))).statusCode).toBe(404)
  })

  it('joins the session a pageview of the same visitor got (same IP and UA, or same user_id)', async () => {
    const target = await replaySite()
    const ip = '198.51.100.23'
    const pageview = await t.app.inject({
      method: 'POST',
      url: '/api/track',
      remoteAddress: ip,
      headers: {
        'content-type': 'application/json',
        'user-agent': DESKTOP_CHROME_UA,
        origin: 'https://example.com',
      },
      payload: { site_id: String(target.siteId), pathname: '/' },
    })
    expect(pageview.statusCode, pageview.body).toBe(200)
    expect((await send(batch(target, 0, [1000]), {}, ip)).json()).toMatchObject({ recorded: true })

    const withUser = await t.app.inject({
      method: 'POST',
      url: '/api/track',
      remoteAddress: '198.51.100.24',
      headers: {
        'content-type': 'application/json',
        'user-agent': DESKTOP_CHROME_UA,
        origin: 'https://example.com',
      },
      payload: { site_id: String(target.siteId), pathname: '/', user_id: 'customer-7' },
    })
    expect(withUser.statusCode).toBe(200)
    // Another address and browser, but the same user_id: the same visitor.
    const other = await send(
      batch(target, 0, [2000], { user_id: 'customer-7' }),
      {
        'user-agent':
          'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/121.0.0.0 Safari/537.36',
      },
      '192.0.2.9',
    )
    expect(other.json()).toMatchObject({ recorded: true })

    await t.services.buffer.flush()
    const sessions = await t.services.events.query<{ session_id: string; user_id: string }>(
      'SELECT session_id, user_id FROM events WHERE site_id = {site:UInt32} ORDER BY timestamp',
      { site: target.siteId },
    )
    expect(sessions).toHaveLength(2)
    const replayed = (await storedRows(target)).map((row) => row.session_id).sort()
    expect(replayed).toEqual(sessions.map((row) => row.session_id).sort())

    // The dashboard's session list marks the sessions with a recording.
    const today = new Date().toISOString().slice(0, 10)
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${target.siteId}/sessions?start_date=${today}&end_date=${today}`,
      headers: { cookie: owner.cookie },
    })
    expect(list.statusCode, list.body).toBe(200)
    const listed = (list.json() as { data: { hasReplay: boolean }[] }).data
    expect(listed.map((row) => row.hasReplay)).toEqual([true, true])
  })

  it('reads only within the organization, and deletes for admins (audited), not members', async () => {
    const target = await replaySite()
    await send(batch(target, 0, [1000]))
    const [row] = await storedRows(target)
    const sessionId = row?.session_id ?? ''

    const outsider = await t.signUp(`outsider-${crypto.randomUUID()}@example.com`)
    expect((await read(target, sessionId, { cookie: outsider.cookie })).statusCode).toBe(404)
    expect((await read(target, sessionId, {})).statusCode).toBe(401)
    expect((await read(target, crypto.randomUUID())).statusCode).toBe(404)

    const member = await t.signUp(`member-${crypto.randomUUID()}@example.com`)
    await t.services.metadata.db
      .insertInto('member')
      .values({
        id: crypto.randomUUID(),
        organization_id: owner.organizationId,
        user_id: member.userId,
        role: 'member',
        created_at: new Date().toISOString(),
      })
      .execute()
    const url = `/api/sites/${target.siteId}/sessions/${sessionId}/replay`
    expect((await read(target, sessionId, { cookie: member.cookie })).statusCode).toBe(200)
    const refused = await t.app.inject({ method: 'DELETE', url, headers: { cookie: member.cookie } })
    expect(refused.statusCode).toBe(403)

    const removed = await t.app.inject({ method: 'DELETE', url, headers: { cookie: owner.cookie } })
    expect(removed.statusCode, removed.body).toBe(200)
    expect(removed.json()).toEqual({ success: true })
    expect(await storedRows(target)).toEqual([])
    expect((await read(target, sessionId)).statusCode).toBe(404)
    expect(
      (await t.app.inject({ method: 'DELETE', url, headers: { cookie: owner.cookie } })).statusCode,
    ).toBe(404)

    const audit = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${target.siteId}/audit-log`,
      headers: { cookie: owner.cookie },
    })
    const entries = (audit.json() as { data: { action: string; details: Record<string, unknown> }[] }).data
    expect(entries.find((entry) => entry.action === 'replay.deleted')?.details).toMatchObject({ sessionId })
  })

  it('validates the replay settings, naming the field', async () => {
    const target = await replaySite()
    for (const [field, value] of [
      ['replaySampleRate', 1.5],
      ['replaySampleRate', 'half'],
      ['replayRetentionDays', 0],
      ['replayRetentionDays', 2.5],
      ['replayRetentionDays', 400],
    ] as const) {
      const response = await t.app.inject({
        method: 'PUT',
        url: `/api/sites/${target.siteId}/config`,
        headers: { cookie: owner.cookie },
        payload: { [field]: value },
      })
      expect(response.statusCode).toBe(400)
      expect(
        Object.keys((response.json() as { details: { fieldErrors: object } }).details.fieldErrors),
      ).toEqual([field])
    }
    const config = await t.app.inject({
      method: 'PUT',
      url: `/api/sites/${target.siteId}/config`,
      headers: { cookie: owner.cookie },
      payload: { replaySampleRate: 0.25, replayRetentionDays: 7 },
    })
    expect(config.json()).toMatchObject({ config: { replaySampleRate: 0.25, replayRetentionDays: 7 } })
  })

  it('lists only the sessions with a recording with has_replay=true, here and in v1', async () => {
    const target = await replaySite()
    const track = (ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/track',
        remoteAddress: ip,
        headers: {
          'content-type': 'application/json',
          'user-agent': DESKTOP_CHROME_UA,
          origin: 'https://example.com',
        },
        payload: { site_id: String(target.siteId), pathname: '/' },
      })
    for (const ip of ['198.51.100.61', '198.51.100.62', '198.51.100.63']) {
      expect((await track(ip)).statusCode).toBe(200)
    }
    expect((await send(batch(target, 0, [1000]), {}, '198.51.100.62')).json()).toMatchObject({
      recorded: true,
    })
    await t.services.buffer.flush()
    const [replayed] = await storedRows(target)

    const today = new Date().toISOString().slice(0, 10)
    const list = async (query: string) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/sites/${target.siteId}/sessions?start_date=${today}&end_date=${today}${query}`,
        headers: { cookie: owner.cookie },
      })
      expect(response.statusCode, response.body).toBe(200)
      return response.json() as {
        data: { session_id: string; hasReplay: boolean }[]
        meta: { total: number }
      }
    }
    const all = await list('')
    expect(all.meta.total).toBe(3)
    expect((await list('&has_replay=false')).meta.total).toBe(3)
    const only = await list('&has_replay=true')
    expect(only.meta.total).toBe(1)
    expect(only.data).toEqual([
      expect.objectContaining({ session_id: replayed?.session_id, hasReplay: true }),
    ])

    const invalid = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${target.siteId}/sessions?has_replay=yes`,
      headers: { cookie: owner.cookie },
    })
    expect(invalid.statusCode).toBe(400)
    expect(Object.keys((invalid.json() as { details: { fieldErrors: object } }).details.fieldErrors)).toEqual(
      ['has_replay'],
    )

    const key = await t.createApiKey(owner.cookie)
    const v1 = await t.app.inject({
      method: 'GET',
      url: `/api/v1/sites/${target.siteId}/sessions?start_date=${today}&end_date=${today}&has_replay=true`,
      headers: { authorization: `Bearer ${key}` },
    })
    expect(v1.statusCode, v1.body).toBe(200)
    expect((v1.json() as { meta: { total: number } }).meta.total).toBe(1)
    expect((v1.json() as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ session_id: replayed?.session_id, hasReplay: true }),
    ])
    const v1All = await t.app.inject({
      method: 'GET',
      url: `/api/v1/sites/${target.siteId}/sessions?start_date=${today}&end_date=${today}`,
      headers: { authorization: `Bearer ${key}` },
    })
    const flags = (v1All.json() as { data: { hasReplay: boolean }[] }).data.map((row) => row.hasReplay)
    expect(flags.sort()).toEqual([false, false, true])
  })

  it("deletes a site's recordings with the site", async () => {
    const target = await replaySite()
    await send(batch(target, 0, [1000]))
    expect(await storedRows(target)).toHaveLength(1)
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/sites/${target.siteId}`,
      headers: { cookie: owner.cookie },
    })
    expect(gone.statusCode, gone.body).toBe(200)
    expect(await storedRows(target)).toEqual([])
  })
})
