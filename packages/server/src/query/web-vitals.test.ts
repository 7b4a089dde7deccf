/**
 * Web vitals on real chDB: the SQL pinned, percentiles and bands checked by hand on five performance
 * events (one carrying INP alone), overall, per page, per device type and with a filter.
 *
 * | # | pathname | device  | LCP  | CLS  | INP | FCP  | TTFB |
 * |---|----------|---------|------|------|-----|------|------|
 * | 1 | /        | desktop | 1000 | 0.05 | 100 | 900  | 200  |
 * | 2 | /        | desktop | 2000 | 0.1  | 200 | 1800 | 800  |
 * | 3 | /        | mobile  | 3000 | 0.2  | -   | 2500 | 1000 |
 * | 4 | /pricing | mobile  | 5000 | 0.3  | 600 | 3500 | 2000 |
 * | 5 | /pricing | mobile  | -    | -    | 300 | -    | -    |
 *
 * Percentiles interpolate linearly between ranks: of 4 sorted samples, p50 sits at rank 1.5, p75 at
 * 2.25, p90 at 2.7 (0-based).
 */
import type { WebVitalStats } from '@pathlight/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventRow } from '../storage/events/event-row.fixture.js'
import type { EventRow } from '../storage/events/event-row.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { filtersParam, marchScope, openReportStore, SITE } from './report-data.fixture.js'
import { compileWebVitals, queryWebVitals, queryWebVitalsBy, ratingOf } from './web-vitals.js'

type Vitals = Pick<EventRow, 'lcp' | 'cls' | 'inp' | 'fcp' | 'ttfb'>
const perf = (
  pathname: string,
  device_type: string,
  vitals: Vitals,
  timestamp = '2026-03-10T10:00:00.000Z',
) => eventRow({ site_id: SITE, type: 'performance', pathname, device_type, timestamp, ...vitals })

const rows: EventRow[] = [
  perf('/', 'desktop', { lcp: 1000, cls: 0.05, inp: 100, fcp: 900, ttfb: 200 }),
  perf('/', 'desktop', { lcp: 2000, cls: 0.1, inp: 200, fcp: 1800, ttfb: 800 }),
  perf('/', 'mobile', { lcp: 3000, cls: 0.2, inp: null, fcp: 2500, ttfb: 1000 }),
  perf('/pricing', 'mobile', { lcp: 5000, cls: 0.3, inp: 600, fcp: 3500, ttfb: 2000 }),
  perf('/pricing', 'mobile', { lcp: null, cls: null, inp: 300, fcp: null, ttfb: null }),
  // Never counted: a pageview, outside the range, another site.
  eventRow({ site_id: SITE, type: 'pageview', timestamp: '2026-03-10T10:00:00.000Z', lcp: null }),
  perf('/', 'desktop', { lcp: 9000, cls: 1, inp: 900, fcp: 9000, ttfb: 9000 }, '2026-04-01T00:00:00.000Z'),
  { ...perf('/', 'desktop', { lcp: 9000, cls: 1, inp: 900, fcp: 9000, ttfb: 9000 }), site_id: 8 },
]

let store: Awaited<ReturnType<typeof openReportStore>>
let events: EventsStore
beforeAll(async () => {
  store = await openReportStore(rows)
  events = store.events
})
afterAll(() => store.close())

const SCOPE =
  "site_id = {site:UInt32} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')}"
const RANGE = { site: SITE, from: '2026-03-01 00:00:00.000', to: '2026-04-01 00:00:00.000' }
const METRICS = [
  'quantilesExactInclusive(0.5, 0.75, 0.9)(lcp) AS lcp_quantiles, count(lcp) AS lcp_samples, countIf(lcp <= 2500) AS lcp_good, countIf(lcp > 4000) AS lcp_poor',
  'quantilesExactInclusive(0.5, 0.75, 0.9)(inp) AS inp_quantiles, count(inp) AS inp_samples, countIf(inp <= 200) AS inp_good, countIf(inp > 500) AS inp_poor',
  'quantilesExactInclusive(0.5, 0.75, 0.9)(cls) AS cls_quantiles, count(cls) AS cls_samples, countIf(cls <= 0.1) AS cls_good, countIf(cls > 0.25) AS cls_poor',
  'quantilesExactInclusive(0.5, 0.75, 0.9)(fcp) AS fcp_quantiles, count(fcp) AS fcp_samples, countIf(fcp <= 1800) AS fcp_good, countIf(fcp > 3000) AS fcp_poor',
  'quantilesExactInclusive(0.5, 0.75, 0.9)(ttfb) AS ttfb_quantiles, count(ttfb) AS ttfb_samples, countIf(ttfb <= 800) AS ttfb_good, countIf(ttfb > 1800) AS ttfb_poor',
].join(',\n  ')

/** Figures of a metric: samples, p50, p75, p90, then good / needs improvement / poor counts. */
const stats = (
  samples: number,
  [p50, p75, p90]: [number, number, number],
  [good, middle, poor]: [number, number, number],
  rating: WebVitalStats['rating'],
): WebVitalStats => ({
  samples,
  p50,
  p75,
  p90,
  good: good / samples,
  needs_improvement: middle / samples,
  poor: poor / samples,
  rating,
})
const none: WebVitalStats = {
  samples: 0,
  p50: null,
  p75: null,
  p90: null,
  good: 0,
  needs_improvement: 0,
  poor: 0,
  rating: null,
}

describe('compileWebVitals', () => {
  it('pins the overall SQL', () => {
    expect(compileWebVitals(marchScope())).toEqual({
      sql: `SELECT ${METRICS}\nFROM events\nWHERE ${SCOPE} AND type = 'performance'`,
      params: RANGE,
    })
  })

  it('pins the SQL per page, with a filter', () => {
    const scope = marchScope({ ...filtersParam(['device_type', 'equals', ['mobile']]), limit: '10' })
    expect(compileWebVitals(scope, 'pathname')).toEqual({
      sql: [
        'SELECT pathname AS value, count() AS events, count() OVER () AS total_values,',
        `  ${METRICS}`,
        'FROM events',
        `WHERE ${SCOPE} AND type = 'performance' AND (device_type IN {f0:Array(String)})`,
        'GROUP BY value',
        'ORDER BY events DESC, value ASC',
        'LIMIT {limit:UInt32} OFFSET {offset:UInt32}',
      ].join('\n'),
      params: { ...RANGE, f0: ['mobile'], limit: 10, offset: 0 },
    })
  })
})

describe('ratingOf', () => {
  it('puts the limits themselves in the better band', () => {
    expect(ratingOf('lcp', 2500)).toBe('good')
    expect(ratingOf('lcp', 2500.1)).toBe('needs_improvement')
    expect(ratingOf('lcp', 4000)).toBe('needs_improvement')
    expect(ratingOf('lcp', 4000.1)).toBe('poor')
    expect(ratingOf('cls', 0.1)).toBe('good')
    expect(ratingOf('cls', 0.26)).toBe('poor')
    expect(ratingOf('inp', 200)).toBe('good')
    expect(ratingOf('fcp', 3001)).toBe('poor')
    expect(ratingOf('ttfb', 1800)).toBe('needs_improvement')
  })
})

describe('queryWebVitals', () => {
  it('computes percentiles and bands over the range', async () => {
    expect(await queryWebVitals(events, marchScope())).toEqual({
      lcp: stats(4, [2500, 3500, 4400], [2, 1, 1], 'needs_improvement'),
      inp: stats(4, [250, 375, 510], [2, 1, 1], 'needs_improvement'),
      cls: stats(4, [0.15, 0.225, 0.27], [2, 1, 1], 'needs_improvement'),
      fcp: stats(4, [2150, 2750, 3200], [2, 1, 1], 'needs_improvement'),
      ttfb: stats(4, [900, 1250, 1700], [2, 1, 1], 'needs_improvement'),
    })
  })

  it('answers no samples for a range without performance events', async () => {
    const empty = await queryWebVitals(
      events,
      marchScope({ start_date: '2025-01-01', end_date: '2025-01-31' }),
    )
    expect(empty).toEqual({ lcp: none, inp: none, cls: none, fcp: none, ttfb: none })
  })

  it('applies the filters', async () => {
    const mobile = await queryWebVitals(
      events,
      marchScope(filtersParam(['device_type', 'equals', ['mobile']])),
    )
    expect(mobile.lcp).toEqual(stats(2, [4000, 4500, 4800], [0, 1, 1], 'poor'))
    expect(mobile.inp).toEqual(stats(2, [450, 525, 570], [0, 1, 1], 'poor'))
  })
})

describe('queryWebVitalsBy', () => {
  it('groups by page, most performance events first', async () => {
    const { data, total } = await queryWebVitalsBy(events, marchScope(), 'pathname')
    expect(total).toBe(2)
    expect(data.map((row) => [row.value, row.events])).toEqual([
      ['/', 3],
      ['/pricing', 2],
    ])
    // p75 of '/' is exactly the good limit (2500): good.
    expect(data[0]?.lcp).toEqual(stats(3, [2000, 2500, 2800], [2, 1, 0], 'good'))
    expect(data[0]?.inp).toEqual(stats(2, [150, 175, 190], [2, 0, 0], 'good'))
    expect(data[1]?.lcp).toEqual(stats(1, [5000, 5000, 5000], [0, 0, 1], 'poor'))
    expect(data[1]?.inp).toEqual(stats(2, [450, 525, 570], [0, 1, 1], 'poor'))
  })

  it('groups by device type, paginated', async () => {
    const first = await queryWebVitalsBy(events, marchScope({ limit: '1' }), 'device_type')
    expect(first.total).toBe(2)
    expect(first.data.map((row) => [row.value, row.events])).toEqual([['mobile', 3]])
    expect(first.data[0]?.ttfb).toEqual(stats(2, [1500, 1750, 1900], [0, 1, 1], 'needs_improvement'))
    const second = await queryWebVitalsBy(events, marchScope({ limit: '1', page: '2' }), 'device_type')
    expect(second.data.map((row) => [row.value, row.events])).toEqual([['desktop', 2]])
    expect(second.data[0]?.ttfb).toEqual(stats(2, [500, 650, 740], [2, 0, 0], 'good'))
  })
})
