/**
 * The Query API over crawler requests through the real app: generated requests stored in
 * `crawler_requests` (as the access-log ingest stores them), queried with `requests` by the crawler
 * dimensions and by day, filtered, in UTC and Asia/Tokyo; every figure compared with a count in plain
 * code over the generated rows. Crawlers are not visitors: visit metrics, and visit or event
 * dimensions and filters beside crawler ones, are 400s naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CrawlerCategory } from '../crawlers/crawler-agents.js'
import { type CrawlerRequestRow, insertCrawlerRequests } from '../crawlers/crawler-store.js'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { queryApiClient } from './query-api-client.fixture.js'
import { dayOf, midnightIn } from './query-api-events.fixture.js'

const NOW = Date.parse('2026-05-20T12:00:00.000Z')
const AGENTS: [string, string, CrawlerCategory][] = [
  ['GPTBot', 'OpenAI', 'ai_training'],
  ['ClaudeBot', 'Anthropic', 'ai_training'],
  ['PerplexityBot', 'Perplexity', 'ai_search'],
  ['Googlebot', 'Google', 'search_engine'],
  ['AhrefsBot', 'Ahrefs', 'seo'],
]

let t: TestInstance
let site: Site
let key: string
const rows: CrawlerRequestRow[] = []

beforeAll(async () => {
  t = await openTestInstance({ clock: () => NOW })
  const seeded = await t.seed()
  site = seeded.site
  key = seeded.apiKey
  const start = Date.parse('2026-05-01T00:00:00Z')
  for (let i = 0; i < 600; i++) {
    const [agent, operator, category] = AGENTS[(i * 7) % AGENTS.length] as (typeof AGENTS)[0]
    rows.push({
      site_id: site.siteId,
      timestamp: start + ((i * 7919) % (6 * 86_400)) * 1000,
      agent,
      operator,
      category,
      verified: i % 4 !== 0,
      method: 'GET',
      host: 'example.com',
      pathname: ['/', '/blog/one', '/docs'][i % 3] as string,
      status: 200,
      bytes: 1000,
      user_agent: `${agent}/1.0`,
    })
  }
  await insertCrawlerRequests(t.services.events, rows)
}, 120_000)
afterAll(() => t?.close())

const { query, answer } = queryApiClient(() => ({ t, key, siteId: site.siteId }), {
  date_range: ['2026-05-02', '2026-05-05'],
})

const countBy = (list: readonly CrawlerRequestRow[], key: (row: CrawlerRequestRow) => string) => {
  const counts = new Map<string, number>()
  for (const row of list) counts.set(key(row), (counts.get(key(row)) ?? 0) + 1)
  return counts
}

describe('POST /api/v2/query over crawler requests', () => {
  for (const timeZone of ['UTC', 'Asia/Tokyo']) {
    it(`counts requests by crawler, category and day, filtered (${timeZone})`, async () => {
      const from = midnightIn('2026-05-02', timeZone)
      const to = midnightIn('2026-05-06', timeZone)
      const within = rows.filter((r) => r.timestamp >= from && r.timestamp < to)
      const total = await answer({ metrics: ['requests'], time_zone: timeZone })
      expect(total.results).toEqual([{ dimensions: [], metrics: [within.length] }])

      const byAgent = await answer({
        metrics: ['requests'],
        dimensions: ['crawler:name', 'crawler:operator', 'crawler:verified'],
        time_zone: timeZone,
        include: { total_rows: true },
        pagination: { limit: 4 },
      })
      const expected = [
        ...countBy(within, (r) => JSON.stringify([r.agent, r.operator, String(r.verified)])),
      ].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      expect(byAgent.meta.total_rows).toBe(expected.length)
      expect(byAgent.results).toEqual(
        expected.slice(0, 4).map(([k, n]) => ({ dimensions: JSON.parse(k), metrics: [n] })),
      )

      const aiByDay = await answer({
        metrics: ['requests'],
        dimensions: ['time:day', 'crawler:category'],
        filters: [
          ['matches', 'crawler:category', ['^ai_']],
          ['not', ['is', 'crawler:verified', ['false']]],
        ],
        time_zone: timeZone,
      })
      const ai = within.filter((r) => r.category.startsWith('ai_') && r.verified)
      const byDay = countBy(ai, (r) =>
        JSON.stringify([dayOf(new Date(r.timestamp).toISOString(), timeZone), r.category]),
      )
      expect(
        new Map(
          aiByDay.results.map((r: { dimensions: string[]; metrics: number[] }) => [
            JSON.stringify(r.dimensions),
            r.metrics[0],
          ]),
        ),
      ).toEqual(byDay)
    })
  }

  it('refuses visit metrics, and visit or event dimensions and filters beside crawler ones', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ metrics: ['visitors'], dimensions: ['crawler:name'] }, 'metrics', /crawlers are not visitors/],
      [{ metrics: ['requests', 'pageviews'] }, 'metrics', /pageviews cannot be queried over crawler/],
      [
        { metrics: ['requests'], dimensions: ['crawler:name', 'event:page'] },
        'dimensions',
        /event:page cannot be mixed/,
      ],
      [
        { metrics: ['requests'], filters: [['is', 'visit:country', ['DE']]] },
        'filters',
        /crawler filters only/,
      ],
      [
        { metrics: ['visitors'], filters: [['is', 'crawler:name', ['GPTBot']]] },
        'metrics',
        /crawlers are not visitors/,
      ],
    ]
    for (const [body, field, message] of cases) {
      const response = await query(body)
      expect(response.statusCode, JSON.stringify(body)).toBe(400)
      expect(response.json().error, JSON.stringify(body)).toMatch(message)
      expect(Object.keys(response.json().details.fieldErrors), JSON.stringify(body)).toContain(field)
    }
  })
})
