/**
 * One tenant's hostile requests never reach another tenant's: regex filters the events store would
 * refuse, sent to every kind of read route, interleaved with a second tenant's reports, event lists,
 * export and import, on SQLite and on PostgreSQL + Redis. Every hostile request answers 400 naming its
 * filter; every normal one succeeds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { storeRefusedRegexes } from '../testing/hostile-values.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const RANGE = 'period=custom&start_date=2026-01-01&end_date=2026-01-31'

describe.each([
  ['SQLite', false],
  ['PostgreSQL + Redis', true],
])('tenant isolation on %s', (_store, postgres) => {
  let t: TestInstance
  let attacker: { apiKey: string; site: Site; cookie: string }
  let victim: { apiKey: string; site: Site; cookie: string }

  beforeAll(async () => {
    t = await openTestInstance({ postgres, redis: postgres })
    attacker = await t.seed()
    const cookie = (await t.signUp('victim@example.com')).cookie
    const organizationId = await t.createOrganization(cookie, 'Victim')
    victim = { cookie, site: await t.createSite(cookie, organizationId, 'victim.example'), apiKey: '' }
    victim.apiKey = await t.createApiKey(cookie)
    const lines = Array.from({ length: 40 }, (_, i) =>
      JSON.stringify({
        timestamp: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}T10:00:0${i % 10}Z`,
        pathname: `/page-${i % 5}`,
        user_id: `visitor-${i % 7}`,
      }),
    )
    // Both sites hold events in the range: a regex the store refuses fails only once it meets a row.
    for (const tenant of [attacker, victim]) {
      const imported = await t.app.inject({
        method: 'POST',
        url: `/api/sites/${tenant.site.siteId}/import`,
        headers: { cookie: tenant.cookie, 'content-type': 'application/x-ndjson' },
        payload: `${lines.join('\n')}\n`,
      })
      expect(imported.statusCode, imported.body).toBe(200)
    }
  }, 120_000)

  afterAll(async () => {
    await t?.close()
  })

  it('answers every hostile regex 400 and every normal request of another tenant 2xx, interleaved', async () => {
    const a = attacker.site.siteId
    const v = victim.site.siteId
    const hostile = storeRefusedRegexes.flatMap((pattern) => {
      const filters = encodeURIComponent(
        JSON.stringify([{ parameter: 'pathname', type: 'regex', value: [pattern] }]),
      )
      const withCookie = { cookie: attacker.cookie }
      return [
        { url: `/api/sites/${a}/stats?${RANGE}&filters=${filters}`, headers: withCookie },
        { url: `/api/sites/${a}/events?${RANGE}&filters=${filters}`, headers: withCookie },
        { url: `/api/sites/${a}/breakdown/pages?${RANGE}&filters=${filters}`, headers: withCookie },
        {
          url: `/api/v1/sites/${a}/events?${RANGE}&filters=${filters}`,
          headers: { authorization: `Bearer ${attacker.apiKey}` },
        },
      ]
    })
    const victimHeaders = { authorization: `Bearer ${victim.apiKey}` }
    const normal = [
      `/api/sites/${v}/stats?${RANGE}`,
      `/api/sites/${v}/events?${RANGE}`,
      `/api/v1/sites/${v}/events?${RANGE}`,
      `/api/v1/sites/${v}/stats?${RANGE}`,
      `/api/sites/${v}/export`,
    ]
    // Rounds of every hostile request beside every normal one, all in flight at once.
    for (let round = 0; round < 3; round++) {
      const hostileAnswers = hostile.map((request) => t.app.inject({ method: 'GET', ...request }))
      const normalAnswers = normal.map((url) =>
        t.app.inject({
          method: 'GET',
          url,
          headers: url.startsWith('/api/v1/') ? victimHeaders : { cookie: victim.cookie },
        }),
      )
      const imports = t.app.inject({
        method: 'POST',
        url: `/api/sites/${v}/import`,
        headers: { ...victimHeaders, 'content-type': 'application/x-ndjson' },
        payload: `${JSON.stringify({ timestamp: `2026-01-0${round + 1}T12:00:00Z`, pathname: '/again', user_id: 'late' })}\n`,
      })
      for (const [i, answer] of (await Promise.all(hostileAnswers)).entries()) {
        expect(answer.statusCode, `${hostile[i]?.url}: ${answer.body}`).toBe(400)
        expect(answer.json().error).toMatch(/filters/)
      }
      for (const [i, answer] of (await Promise.all(normalAnswers)).entries()) {
        expect(answer.statusCode, `${normal[i]}: ${answer.body}`).toBe(200)
      }
      const imported = await imports
      expect(imported.statusCode, imported.body).toBe(200)
      expect(imported.json().imported).toBe(1)
    }
    const stats = await t.app.inject({
      method: 'GET',
      url: `/api/v1/sites/${v}/stats?${RANGE}`,
      headers: victimHeaders,
    })
    // The 40 imported pageviews and one per round, counted by the victim's own report.
    expect(stats.json().data.current.pageviews).toBe(43)
    const health = await t.app.inject({ method: 'GET', url: '/api/health' })
    expect(health.statusCode, health.body).toBe(200)
  })
})
