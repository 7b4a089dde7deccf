/**
 * Plausible's behavioural filters `has_done` / `has_not_done` through the real app: the visits with
 * (without) an event passing the inner filter, nested in `and`/`or`/`not`, in UTC and Europe/Berlin;
 * every figure compared with a count in plain code over the generated lines (`signup` custom events in
 * about a third of the sessions). A visit dimension inside is a 400 naming the filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { queryApiClient } from './query-api-client.fixture.js'
import {
  exportedLine,
  type FixtureSession,
  fixtureEvents,
  midnightIn,
  sessionsIn,
} from './query-api-events.fixture.js'

const NOW = Date.parse('2026-03-20T12:00:00.000Z')
const events = fixtureEvents({
  seed: 9,
  startMs: Date.parse('2026-03-01T00:00:00Z'),
  days: 10,
  sessions: 300,
  visitors: 100,
})

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
}, 120_000)
afterAll(() => t?.close())

const { query, answer } = queryApiClient(() => ({ t, key, siteId: site.siteId }), {
  date_range: ['2026-03-02', '2026-03-08'],
})

const figures = (sessions: readonly FixtureSession[]) => [
  new Set(sessions.map((s) => s.first.userId)).size,
  sessions.length,
  sessions.flatMap((s) => s.events).filter((e) => e.type === 'pageview').length,
]
const signedUp = (s: FixtureSession) => s.events.some((e) => e.eventName === 'signup')
const sawDocs = (s: FixtureSession) => s.events.some((e) => e.type === 'pageview' && e.pathname === '/docs')

describe('POST /api/v2/query: has_done and has_not_done', () => {
  for (const timeZone of ['UTC', 'Europe/Berlin']) {
    it(`keeps the visits with or without a matching event, nested (${timeZone})`, async () => {
      const sessions = sessionsIn(
        events,
        midnightIn('2026-03-02', timeZone),
        midnightIn('2026-03-09', timeZone),
      )
      const metrics = ['visitors', 'visits', 'pageviews']
      const run = async (filters: unknown[]) =>
        (await answer({ metrics, filters, time_zone: timeZone })).results[0].metrics
      const signup = ['is', 'event:name', ['signup']]
      expect(sessions.filter(signedUp).length).toBeGreaterThan(10)
      expect(await run([['has_done', signup]])).toEqual(figures(sessions.filter(signedUp)))
      expect(await run([['has_not_done', signup]])).toEqual(figures(sessions.filter((s) => !signedUp(s))))
      // Signed up and not from Germany, or saw the docs without signing up.
      const nested = [
        [
          'or',
          [
            [
              'and',
              [
                ['has_done', signup],
                ['not', ['is', 'visit:country', ['DE']]],
              ],
            ],
            [
              'and',
              [
                ['has_done', ['is', 'event:page', ['/docs']]],
                ['has_not_done', signup],
              ],
            ],
          ],
        ],
      ]
      expect(await run(nested)).toEqual(
        figures(
          sessions.filter((s) => (signedUp(s) && s.first.country !== 'DE') || (sawDocs(s) && !signedUp(s))),
        ),
      )
      // The negation of has_done is has_not_done.
      expect(await run([['not', ['has_done', signup]]])).toEqual(
        figures(sessions.filter((s) => !signedUp(s))),
      )
    })
  }

  it('refuses a visit dimension or a segment inside, naming the filter', async () => {
    for (const inner of [
      ['is', 'visit:country', ['DE']],
      ['is', 'segment', [1]],
    ]) {
      const response = await query({ metrics: ['visitors'], filters: [['has_done', inner]] })
      expect(response.statusCode).toBe(400)
      expect(response.json().error).toMatch(/filters.*has_done takes event dimensions only/)
    }
    const twoArgs = await query({
      metrics: ['visitors'],
      filters: [['has_done', ['is', 'event:page', ['/']], 1]],
    })
    expect(twoArgs.statusCode).toBe(400)
  })
})
