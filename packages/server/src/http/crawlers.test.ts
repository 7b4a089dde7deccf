/**
 * Crawler traffic through the real app (SQLite + chDB): an access log sent to `POST .../logs` as
 * text and as a shipper's NDJSON, with a `logs`-scoped key (which may do nothing else) and with a
 * session; the estimate of unseen page views; then the Crawlers report and v1's agents read back,
 * their figures counted from the fixture by hand; the visit reports unchanged by crawler requests.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const FIXTURE = readFileSync(new URL('../crawlers/access-log.fixture.txt', import.meta.url), 'utf8')
const NOW = Date.parse('2025-03-02T12:00:00.000Z')
const MARCH = 'start_date=2025-03-01&end_date=2025-03-01'

describe('crawler traffic', () => {
  let t: TestInstance
  let owner: Awaited<ReturnType<TestInstance['seed']>>
  let logsKey: string

  beforeAll(async () => {
    t = await openTestInstance({ clock: () => NOW })
    owner = await t.seed()
    logsKey = (await t.services.apiKeys.create(owner.userId, { name: 'shipper', scope: 'logs' })).key
  }, 60_000)
  afterAll(() => t?.close())

  const send = (siteId: number, body: string, headers: Record<string, string>, query = '') =>
    t.app.inject({ method: 'POST', url: `/api/sites/${siteId}/logs${query}`, headers, payload: body })

  it('stores the bots of a log sent with a logs key, every line accounted for; the key reads nothing', async () => {
    const site = await t.createSite(owner.cookie, owner.site.organizationId, 'example.com')
    const response = await send(site.siteId, FIXTURE, {
      authorization: `Bearer ${logsKey}`,
      'content-type': 'text/plain',
    })
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    // 16 lines (the body's last line break ends line 16): 8 bots, 3 people, 5 rejected.
    expect(body).toMatchObject({
      success: true,
      lines: 16,
      kept: 8,
      skippedHuman: 3,
      blank: 0,
      rejectedCount: 5,
    })
    expect(body.rejected.map((entry: { line: number }) => entry.line)).toEqual([8, 9, 10, 11, 12])
    expect(body.estimate).toBeUndefined()

    const read = await t.app.inject({
      method: 'GET',
      url: `/api/v1/sites/${site.siteId}/crawlers?${MARCH}`,
      headers: { authorization: `Bearer ${logsKey}` },
    })
    expect(read.statusCode).toBe(403)
    const track = await t.app.inject({
      method: 'POST',
      url: '/api/track',
      headers: { authorization: `Bearer ${logsKey}`, 'content-type': 'application/json' },
      payload: { site_id: String(site.siteId), pathname: '/' },
    })
    expect(track.statusCode).toBe(403)
  })

  it('reads a shipper NDJSON body, estimates unseen page views, and reports the agents', async () => {
    const site = await t.createSite(owner.cookie, owner.site.organizationId, 'example.com')
    const ndjson = FIXTURE.trimEnd()
      .split('\n')
      .map((line) => JSON.stringify({ message: line, host: 'web-1' }))
      .join('\n')
    const response = await send(
      site.siteId,
      ndjson,
      { cookie: owner.cookie, 'content-type': 'application/x-ndjson', origin: 'http://localhost' },
      '?estimate=true',
    )
    expect(response.statusCode, response.body).toBe(200)
    // 2 human page requests in the log (/pricing, /about), no pageview tracked: all unseen.
    expect(response.json()).toMatchObject({
      kept: 8,
      rejectedCount: 5,
      estimate: { humanPageRequests: 2, trackedPageviews: 0, estimatedUnseenShare: 1 },
    })

    const v1 = await t.app.inject({
      method: 'GET',
      url: `/api/v1/sites/${site.siteId}/crawlers?${MARCH}&limit=2`,
      headers: { authorization: `Bearer ${owner.apiKey}` },
    })
    expect(v1.statusCode, v1.body).toBe(200)
    expect(v1.json().meta).toEqual({ total: 6, page: 1, pageSize: 2, totalPages: 3 })
    expect(v1.json().data).toEqual([
      {
        agent: 'GPTBot',
        operator: 'OpenAI',
        category: 'ai_training',
        verified: false,
        verifiedRequests: 1,
        requests: 2,
        pages: 2,
        bytes: 5220,
        firstSeen: '2025-03-01T10:00:05.000Z',
        lastSeen: '2025-03-01T10:00:08.000Z',
      },
      {
        agent: 'Googlebot',
        operator: 'Google',
        category: 'search_engine',
        verified: false,
        verifiedRequests: 1,
        requests: 2,
        pages: 2,
        bytes: 1000,
        firstSeen: '2025-03-01T10:00:00.000Z',
        lastSeen: '2025-03-01T10:00:01.000Z',
      },
    ])

    const page = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${site.siteId}/crawlers?${MARCH}`,
      headers: { cookie: owner.cookie },
    })
    expect(page.statusCode, page.body).toBe(200)
    const report = page.json().data
    expect(report.agents.map((row: { agent: string }) => row.agent)).toEqual([
      'GPTBot',
      'Googlebot',
      'ChatGPT-User',
      'ClaudeBot',
      'OAI-SearchBot',
      'PerplexityBot',
    ])
    expect(report.series).toContainEqual({
      date: '2025-03-01',
      category: 'ai_training',
      agent: 'GPTBot',
      requests: 2,
    })
    expect(report.pages).toContainEqual({ agent: 'Googlebot', pathname: '/wp-login.php', requests: 1 })
    expect(report.statuses).toContainEqual({ agent: 'Googlebot', status: 404, requests: 1, bytes: 0 })

    // Crawler requests are not visits: the site's overview has none.
    const stats = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${site.siteId}/stats?${MARCH}`,
      headers: { cookie: owner.cookie },
    })
    expect(stats.json().data.current).toMatchObject({ pageviews: 0, visitors: 0 })
  })

  it('names the field of a bad request: the media type, the site', async () => {
    const site = await t.createSite(owner.cookie, owner.site.organizationId, 'example.com')
    const wrongType = await send(site.siteId, '{}', {
      authorization: `Bearer ${logsKey}`,
      'content-type': 'application/json',
    })
    expect(wrongType.statusCode).toBe(415)
    const noSite = await send(999_999, FIXTURE, {
      authorization: `Bearer ${logsKey}`,
      'content-type': 'text/plain',
    })
    expect(noSite.statusCode).toBe(404)
    const badQuery = await send(
      site.siteId,
      FIXTURE,
      { authorization: `Bearer ${logsKey}`, 'content-type': 'text/plain' },
      '?estimate=maybe',
    )
    expect(badQuery.statusCode).toBe(400)
    expect(badQuery.json().error).toContain('estimate')
  })
})
