/**
 * Engagement benchmark. Run from the repository root:
 *
 *   npx tsx bench/engagement/run.ts
 *   BENCH_EVENTS=2000 BENCH_ROWS=1000000 npx tsx bench/engagement/run.ts
 *
 * Prints (1) the ingest cost of an `engagement` event beside a pageview's: `BENCH_EVENTS` (default
 * 2000) pageviews of distinct visitors, then one engagement event each, through `POST /api/track` of
 * the real app in process (Fastify `inject`, SQLite + chDB, the write buffer flushed in the timing),
 * as microseconds per event and the ratio; (2) the time of the pages report's engagement query (scroll
 * depth, engaged time of the 10 top pages) over `BENCH_ROWS` (default 1,000,000) stored engagement
 * events of one site and month, beside the pages report's traffic figures over the same rows' pageviews
 * (`BENCH_ROWS / 4` pageviews), best of 5. The last stdout line is the figures as one JSON object.
 */
import { performance } from 'node:perf_hooks'
import { queryPageEngagement } from '../../packages/server/src/query/page-engagement.js'
import { queryPageStats } from '../../packages/server/src/query/page-stats.js'
import { parseQueryParams } from '../../packages/server/src/query/params.js'
import { eventRow } from '../../packages/server/src/storage/events/event-row.fixture.js'
import type { EventRow } from '../../packages/server/src/storage/events/event-row.js'
import { openTestInstance } from '../../packages/server/src/testing/test-instance.js'

const events = Number(process.env.BENCH_EVENTS ?? 2000)
const rows = Number(process.env.BENCH_ROWS ?? 1_000_000)
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const log = (message: string) => process.stderr.write(`[bench:engagement] ${message}\n`)

const t = await openTestInstance()
const { site } = await t.seed()
const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`

async function send(body: Record<string, unknown>, i: number) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/track',
    headers: { 'content-type': 'text/plain', 'user-agent': CHROME, origin: `https://${site.domain}` },
    payload: JSON.stringify({ site_id: String(site.siteId), hostname: site.domain, pathname: '/a', ...body }),
    remoteAddress: address(i),
  })
  if (response.statusCode !== 200 || response.json().tracked === false) throw new Error(response.body)
}

async function timeIngest(body: Record<string, unknown>): Promise<number> {
  const start = performance.now()
  for (let i = 0; i < events; i++) await send(body, i)
  await t.services.buffer.flush()
  return ((performance.now() - start) * 1000) / events
}

log(`ingest: ${events} pageviews, then ${events} engagement events`)
// Warm-up on other visitors, so neither side pays the JIT.
for (let i = 0; i < 200; i++) await send({}, events + i)
const pageviewUs = await timeIngest({})
const engagementUs = await timeIngest({ type: 'engagement', scroll_depth: 60, engagement_time: 12_000 })

log(`query: inserting ${rows} engagement events and ${rows / 4} pageviews`)
const SITE = 9_000
const PAGES = 50
const month = Date.parse('2026-03-01T00:00:00.000Z')
let batch: EventRow[] = []
for (let i = 0; i < rows + rows / 4; i++) {
  const engagement = i < rows
  const visitor = `u${i % 50_000}`
  batch.push(
    eventRow({
      site_id: SITE,
      type: engagement ? 'engagement' : 'pageview',
      timestamp: new Date(month + ((i * 7919) % (28 * 86_400_000))).toISOString(),
      pathname: `/p${(i * 31) % PAGES}`,
      user_id: visitor,
      session_id: `${visitor}-${Math.floor(i / 200_000)}`,
      properties: engagement
        ? JSON.stringify({ scroll_depth: (i * 13) % 101, engagement_time: (i * 97) % 60_000 })
        : '',
    }),
  )
  if (batch.length === 100_000) {
    await t.services.events.insert(batch)
    batch = []
  }
}
if (batch.length > 0) await t.services.events.insert(batch)

const scope = {
  siteId: SITE,
  params: parseQueryParams({ start_date: '2026-03-01', end_date: '2026-03-31', limit: '10' }, Date.now()),
  rollups: false,
}
const best = async (run: () => Promise<unknown>) => {
  let fastest = Number.POSITIVE_INFINITY
  for (let i = 0; i < 5; i++) {
    const start = performance.now()
    await run()
    fastest = Math.min(fastest, performance.now() - start)
  }
  return fastest
}
const top = (await queryPageStats(t.services.events, scope)).data.map((row) => row.pathname)
const engagementMs = await best(() => queryPageEngagement(t.services.events, scope, top))
const pagesMs = await best(() => queryPageStats(t.services.events, scope))
await t.close()

const figures = {
  ingest_pageview_us: Math.round(pageviewUs),
  ingest_engagement_us: Math.round(engagementUs),
  ingest_ratio: Number((engagementUs / pageviewUs).toFixed(2)),
  engagement_rows: rows,
  engagement_query_ms: Math.round(engagementMs),
  pages_report_ms: Math.round(pagesMs),
  engagement_share_of_pages_report: Number((engagementMs / pagesMs).toFixed(2)),
}
console.log(
  `ingest: pageview ${figures.ingest_pageview_us} µs, engagement ${figures.ingest_engagement_us} µs (x${figures.ingest_ratio})`,
)
console.log(
  `query over ${rows} engagement events: engagement part ${figures.engagement_query_ms} ms of the pages report's ${figures.pages_report_ms} ms`,
)
console.log(JSON.stringify(figures))
