/**
 * Heatmap benchmark. Run from the repository root:
 *
 *   npx tsx bench/heatmap/run.ts
 *   BENCH_ROWS=200000 npx tsx bench/heatmap/run.ts
 *
 * Stores `BENCH_ROWS` (default 1,000,000) `heatmap_click` events of one page of one site in one month
 * (200 elements, positions spread over each box, a tenth rage, a tenth dead, three viewport classes),
 * plus as many pageviews of other pages of the site, straight into the events store (SQLite + chDB of a
 * test instance), then times, best of 5: (1) the page's heatmap (`queryHeatmap`: clicks per element on
 * a 20 × 20 grid, rage and dead counts, and the scroll reach) and (2) with the mobile viewport filter,
 * each beside the baseline of a plain `count()` of the same page's clicks over the same rows. The last
 * stdout line is the figures as one JSON object.
 */
import { performance } from 'node:perf_hooks'
import { queryHeatmap } from '../../packages/server/src/query/heatmap.js'
import { parseQueryParams } from '../../packages/server/src/query/params.js'
import { eventRow } from '../../packages/server/src/storage/events/event-row.fixture.js'
import type { EventRow } from '../../packages/server/src/storage/events/event-row.js'
import { openTestInstance } from '../../packages/server/src/testing/test-instance.js'

const rows = Number(process.env.BENCH_ROWS ?? 1_000_000)
const log = (message: string) => process.stderr.write(`[bench:heatmap] ${message}\n`)

const t = await openTestInstance()
const SITE = 9_100
const ELEMENTS = 200
const month = Date.parse('2026-03-01T00:00:00.000Z')
const viewports = ['desktop', 'tablet', 'mobile'] as const

log(`inserting ${rows} clicks of /pricing and ${rows} pageviews of other pages`)
let batch: EventRow[] = []
const flush = async () => {
  await t.services.events.insert(batch)
  batch = []
}
for (let i = 0; i < rows * 2; i++) {
  const click = i % 2 === 0
  const visitor = `u${i % 50_000}`
  const k = i >> 1
  // A 32-bit mix of the click's number: positions spread over each box, not periodic in the element.
  const h = Math.imul(k ^ (k >>> 7), 0x9e3779b1) >>> 0
  batch.push(
    eventRow({
      site_id: SITE,
      type: click ? 'heatmap_click' : 'pageview',
      timestamp: new Date(month + ((i * 7919) % (28 * 86_400_000))).toISOString(),
      pathname: click ? '/pricing' : `/p${i % 50}`,
      user_id: visitor,
      session_id: `${visitor}-${Math.floor(i / 200_000)}`,
      properties: click
        ? JSON.stringify({
            selector: `#main > section:nth-of-type(${(k * 31) % ELEMENTS}) > button`,
            x: (h % 1000) / 1000,
            y: ((h >>> 12) % 1000) / 1000,
            viewport: viewports[k % 3],
            rage: k % 10 === 0 ? 1 : 0,
            dead: k % 10 === 4 ? 1 : 0,
          })
        : '',
    }),
  )
  if (batch.length === 100_000) await flush()
}
if (batch.length > 0) await flush()
log('inserted; timing')

const scope = {
  siteId: SITE,
  params: parseQueryParams({ start_date: '2026-03-01', end_date: '2026-03-31' }, Date.now()),
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
const countOf = (viewport?: string) =>
  t.services.events.query<{ clicks: number }>(
    `SELECT count() AS clicks FROM events WHERE site_id = {site:UInt32} AND timestamp >= {from:DateTime64(3, 'UTC')}
     AND timestamp < {to:DateTime64(3, 'UTC')} AND type = 'heatmap_click' AND pathname = '/pricing'
     ${viewport ? 'AND click_viewport = {viewport:String}' : ''}`,
    {
      site: SITE,
      from: '2026-03-01 00:00:00.000',
      to: '2026-04-01 00:00:00.000',
      ...(viewport ? { viewport } : {}),
    },
  )

const heatmap = await queryHeatmap(t.services.events, scope, { page: '/pricing' })
const counted = Number((await countOf())[0]?.clicks)
if (heatmap.total_clicks !== counted || counted !== rows)
  throw new Error(`heatmap counts ${heatmap.total_clicks} clicks, count() ${counted}, inserted ${rows}`)
const heatmapMs = await best(() => queryHeatmap(t.services.events, scope, { page: '/pricing' }))
const countMs = await best(() => countOf())
const mobileMs = await best(() =>
  queryHeatmap(t.services.events, scope, { page: '/pricing', viewport: 'mobile' }),
)
const mobileCountMs = await best(() => countOf('mobile'))
await t.close()

const figures = {
  clicks: rows,
  elements: heatmap.elements.length,
  bins: heatmap.elements.reduce((n, e) => n + e.bins.length, 0),
  heatmap_ms: Math.round(heatmapMs),
  count_ms: Math.round(countMs),
  heatmap_over_count: Number((heatmapMs / countMs).toFixed(2)),
  mobile_heatmap_ms: Math.round(mobileMs),
  mobile_count_ms: Math.round(mobileCountMs),
  mobile_over_count: Number((mobileMs / mobileCountMs).toFixed(2)),
}
console.log(
  `heatmap of a page with ${rows} clicks (${figures.elements} elements, ${figures.bins} bins): ${figures.heatmap_ms} ms, ` +
    `plain count ${figures.count_ms} ms (x${figures.heatmap_over_count}); mobile only ${figures.mobile_heatmap_ms} ms, ` +
    `count ${figures.mobile_count_ms} ms (x${figures.mobile_over_count})`,
)
console.log(JSON.stringify(figures))
