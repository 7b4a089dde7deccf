/**
 * Identified users in the Query API through the real app: `visit:user_id` as a dimension and a
 * filter, and `user:trait:<key>` filters resolved from the profiles in the metadata store, nested in
 * `and`/`or`/`not`, in UTC and America/New_York; every figure compared with a count in plain code over
 * the generated lines and the traits given here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { mergeTraits } from '../users/user-profiles.js'
import { queryApiClient } from './query-api-client.fixture.js'
import { exportedLine, fixtureEvents, midnightIn, sessionsIn } from './query-api-events.fixture.js'

const NOW = Date.parse('2026-03-20T12:00:00.000Z')
const events = fixtureEvents({
  seed: 3,
  startMs: Date.parse('2026-03-01T00:00:00Z'),
  days: 10,
  sessions: 200,
  visitors: 50,
})
/** Traits of the first 30 visitors: plan alternating, seats their number. */
const traits = new Map(
  Array.from({ length: 30 }, (_, i) => [`visitor-${i}`, { plan: i % 2 === 0 ? 'pro' : 'free', seats: i }]),
)

let t: TestInstance
let site: Site
let key: string

beforeAll(async () => {
  t = await openTestInstance({ clock: () => NOW })
  const seeded = await t.seed()
  site = seeded.site
  key = seeded.apiKey
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/sites/${site.siteId}/import`,
    headers: { cookie: seeded.cookie, 'content-type': 'application/x-ndjson' },
    payload: `${events.map(exportedLine).join('\n')}\n`,
  })
  expect(response.statusCode, response.body).toBe(200)
  for (const [userId, values] of traits) {
    await mergeTraits(t.services.metadata.db, site.siteId, userId, values, '2026-03-01T00:00:00.000Z')
  }
}, 120_000)
afterAll(() => t?.close())

const { query, answer } = queryApiClient(() => ({ t, key, siteId: site.siteId }), {
  date_range: ['2026-03-02', '2026-03-08'],
})

const sessionsOf = (timeZone: string) =>
  sessionsIn(events, midnightIn('2026-03-02', timeZone), midnightIn('2026-03-09', timeZone))

describe('POST /api/v2/query: identified users', () => {
  for (const timeZone of ['UTC', 'America/New_York']) {
    it(`visits and pageviews by visit:user_id under a trait filter (${timeZone})`, async () => {
      // Pro users with more than 10 seats, or user visitor-1, but not visitor-12.
      const filters = [
        [
          'or',
          [
            [
              'and',
              [
                ['is', 'user:trait:plan', ['PRO'], { case_sensitive: false }],
                ['matches', 'user:trait:seats', ['^[1-9][0-9]$']],
              ],
            ],
            ['is', 'visit:user_id', ['visitor-1']],
          ],
        ],
        ['not', ['is', 'visit:user_id', ['visitor-12']]],
      ]
      const body = await answer({
        metrics: ['visits', 'pageviews'],
        dimensions: ['visit:user_id'],
        filters,
        time_zone: timeZone,
      })
      const kept = (userId: string) => {
        const trait = traits.get(userId)
        const proMany = trait !== undefined && trait.plan === 'pro' && trait.seats >= 10
        return (proMany || userId === 'visitor-1') && userId !== 'visitor-12'
      }
      const expected = new Map<string, [number, number]>()
      for (const session of sessionsOf(timeZone)) {
        if (!kept(session.first.userId)) continue
        const seen = expected.get(session.first.userId) ?? [0, 0]
        seen[0] += 1
        seen[1] += session.events.filter((e) => e.type === 'pageview').length
        expected.set(session.first.userId, seen)
      }
      expect(expected.size).toBeGreaterThan(3)
      expect(
        new Map(
          body.results.map((r: { dimensions: string[]; metrics: number[] }) => [r.dimensions[0], r.metrics]),
        ),
      ).toEqual(expected)
    })
  }

  it('a trait no user has, and a negated trait, keep only users with the key', async () => {
    const none = await answer({ metrics: ['visitors'], filters: [['is', 'user:trait:team', ['x']]] })
    expect(none.results).toEqual([{ dimensions: [], metrics: [0] }])
    const notPro = await answer({ metrics: ['visitors'], filters: [['is_not', 'user:trait:plan', ['pro']]] })
    const free = new Set(
      sessionsOf('UTC')
        .map((s) => s.first.userId)
        .filter((u) => traits.get(u)?.plan === 'free'),
    )
    expect(notPro.results).toEqual([{ dimensions: [], metrics: [free.size] }])
    const badPattern = await query({
      metrics: ['visitors'],
      filters: [['matches', 'user:trait:plan', ['(?=p)']]],
    })
    expect(badPattern.statusCode).toBe(400)
    expect(badPattern.json().error).toContain('filters')
    const asDimension = await query({ metrics: ['visitors'], dimensions: ['user:trait:plan'] })
    expect(asDimension.statusCode).toBe(400)
    expect(asDimension.json().error).toContain('dimensions')
  })
})
