/**
 * Breakdown reports on real chDB with the fixture of `report-data.fixture.ts`: SQL pinned for both
 * kinds of dimension, every breakdown's rows checked by hand, filters and pagination.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventsStore } from '../storage/events/events-store.js'
import { compileBreakdown, queryBreakdown } from './breakdown.js'
import { EVENT_ORDER_KEY } from './metrics.js'
import { filtersParam, marchScope, openReportStore, SITE } from './report-data.fixture.js'

let store: Awaited<ReturnType<typeof openReportStore>>
let events: EventsStore
beforeAll(async () => {
  store = await openReportStore()
  events = store.events
})
afterAll(() => store.close())

const SCOPE =
  "site_id = {site:UInt32} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')}"
const RANGE = { site: SITE, from: '2026-03-01 00:00:00.000', to: '2026-04-01 00:00:00.000' }

describe('compileBreakdown', () => {
  it('pins an event dimension (pages)', () => {
    expect(compileBreakdown({ ...marchScope(), rollups: false }, 'pages')).toEqual({
      sql: [
        "SELECT pathname AS value, uniqExact(cityHash64(user_id)) AS visitors, uniqExact(cityHash64(session_id)) AS sessions, countIf(type = 'pageview') AS pageviews, count() OVER () AS total_values",
        'FROM events',
        `WHERE ${SCOPE} AND type = 'pageview'`,
        'GROUP BY value',
        'ORDER BY pageviews DESC, value ASC',
        'LIMIT {limit:UInt32} OFFSET {offset:UInt32}',
      ].join('\n'),
      params: { ...RANGE, limit: 50, offset: 0 },
    })
  })

  it('pins an event dimension with event and session filters', () => {
    const scope = marchScope({
      ...filtersParam(['pathname', 'not_contains', ['blog']], ['exit_page', 'equals', ['/checkout']]),
      page: '3',
      limit: '10',
    })
    expect(compileBreakdown(scope, 'countries')).toEqual({
      sql: [
        "SELECT country AS value, uniqExact(cityHash64(user_id)) AS visitors, uniqExact(cityHash64(session_id)) AS sessions, countIf(type = 'pageview') AS pageviews, count() OVER () AS total_values",
        'FROM events',
        `WHERE ${SCOPE} AND NOT multiSearchAnyCaseInsensitiveUTF8(pathname, {f0:Array(String)}) AND cityHash64(session_id) IN (SELECT cityHash64(session_id) AS session_key FROM events WHERE ${SCOPE} GROUP BY session_key HAVING argMaxIf(pathname, ${EVENT_ORDER_KEY}, type = 'pageview') IN {f1:Array(String)})`,
        'GROUP BY value',
        'ORDER BY visitors DESC, value ASC',
        'LIMIT {limit:UInt32} OFFSET {offset:UInt32}',
      ].join('\n'),
      params: { ...RANGE, f0: ['blog'], f1: ['/checkout'], limit: 10, offset: 20 },
    })
  })

  it('pins a session dimension (referrers)', () => {
    const scope = marchScope(filtersParam(['browser', 'equals', ['Chrome']]))
    expect(compileBreakdown(scope, 'referrers')).toEqual({
      sql: [
        'SELECT entry_referrer_domain AS value, uniqExact(visitor_key) AS visitors, count() AS sessions, sum(matched_pageview_count) AS pageviews, count() OVER () AS total_values',
        'FROM (',
        `SELECT cityHash64(session_id) AS session_key, cityHash64(any(user_id)) AS visitor_key, countIf(type = 'pageview' AND (browser IN {f0:Array(String)})) AS matched_pageview_count, argMin(referrer_domain, ${EVENT_ORDER_KEY}) AS entry_referrer_domain`,
        'FROM events',
        `WHERE ${SCOPE}`,
        'GROUP BY session_key',
        'HAVING countIf(browser IN {f0:Array(String)}) > 0',
        ')',
        "WHERE entry_referrer_domain != ''",
        'GROUP BY value',
        'ORDER BY visitors DESC, value ASC',
        'LIMIT {limit:UInt32} OFFSET {offset:UInt32}',
      ].join('\n'),
      params: { ...RANGE, f0: ['Chrome'], limit: 50, offset: 0 },
    })
  })
})

const r = (value: string, visitors: number, sessions: number, pageviews: number) => ({
  value,
  visitors,
  sessions,
  pageviews,
})

describe('queryBreakdown', () => {
  it.each([
    [
      'pages',
      [
        r('/', 2, 2, 2),
        r('/pricing', 2, 2, 2),
        r('/blog/post-1', 1, 1, 1),
        r('/blog/post-2', 1, 1, 1),
        r('/checkout', 1, 1, 1),
        r('/docs/intro', 1, 1, 1),
      ],
    ],
    ['referrers', [r('google.com', 1, 1, 3), r('news.ycombinator.com', 1, 1, 1), r('t.co', 1, 1, 1)]],
    [
      'channels',
      [
        r('Direct', 2, 3, 3),
        r('Organic Search', 1, 1, 3),
        r('Organic Social', 1, 1, 1),
        r('Referral', 1, 1, 1),
      ],
    ],
    [
      'entry_pages',
      [r('/', 2, 2, 4), r('/blog/post-1', 1, 1, 1), r('/blog/post-2', 1, 1, 1), r('/pricing', 1, 1, 2)],
    ],
    [
      'exit_pages',
      [
        r('/', 1, 1, 1),
        r('/blog/post-1', 1, 1, 1),
        r('/blog/post-2', 1, 1, 1),
        r('/checkout', 1, 1, 2),
        r('/docs/intro', 1, 1, 3),
      ],
    ],
    ['countries', [r('US', 2, 3, 5), r('DE', 1, 2, 1), r('GB', 1, 1, 2)]],
    ['browsers', [r('Chrome', 2, 3, 5), r('Firefox', 1, 1, 2), r('Safari', 1, 2, 1)]],
    // ClickHouse orders strings by bytes: upper case before lower case.
    [
      'operating_systems',
      [r('Android', 1, 1, 1), r('Windows', 1, 2, 4), r('iOS', 1, 2, 1), r('macOS', 1, 1, 2)],
    ],
    ['device_types', [r('desktop', 2, 3, 6), r('mobile', 2, 3, 2)]],
  ] as const)('%s over March 2026', async (name, rows) => {
    expect(await queryBreakdown(events, marchScope(), name)).toEqual({ rows, total: rows.length })
  })

  it('pages through the values: total stays the number of distinct values', async () => {
    const second = await queryBreakdown(events, marchScope({ page: '2', limit: '4' }), 'pages')
    expect(second).toEqual({ rows: [r('/checkout', 1, 1, 1), r('/docs/intro', 1, 1, 1)], total: 6 })
    const beyond = await queryBreakdown(events, marchScope({ page: '3', limit: '4' }), 'pages')
    expect(beyond).toEqual({ rows: [], total: 0 })
  })

  it('applies event filters to events and session filters to whole sessions', async () => {
    // Mobile events only: u3 (s4, s5) and u4 (s6).
    const mobile = marchScope(filtersParam(['device_type', 'equals', ['mobile']]))
    expect(await queryBreakdown(events, mobile, 'pages')).toEqual({
      rows: [r('/', 1, 1, 1), r('/blog/post-2', 1, 1, 1)],
      total: 2,
    })
    expect(await queryBreakdown(events, mobile, 'channels')).toEqual({
      rows: [r('Direct', 1, 2, 1), r('Referral', 1, 1, 1)],
      total: 2,
    })
    // Sessions that ended on /checkout (s3 only): every event of s3 counts.
    const checkout = marchScope(filtersParam(['exit_page', 'equals', ['/checkout']]))
    expect(await queryBreakdown(events, checkout, 'pages')).toEqual({
      rows: [r('/checkout', 1, 1, 1), r('/pricing', 1, 1, 1)],
      total: 2,
    })
    expect(await queryBreakdown(events, checkout, 'countries')).toEqual({
      rows: [r('GB', 1, 1, 2)],
      total: 1,
    })
    // Both kinds together: US events in sessions that entered on '/'.
    const both = marchScope(filtersParam(['country', 'equals', ['US']], ['entry_page', 'equals', ['/']]))
    expect(await queryBreakdown(events, both, 'pages')).toEqual({
      rows: [r('/', 1, 1, 1), r('/docs/intro', 1, 1, 1), r('/pricing', 1, 1, 1)],
      total: 3,
    })
    expect(await queryBreakdown(events, both, 'referrers')).toEqual({
      rows: [r('google.com', 1, 1, 3)],
      total: 1,
    })
  })
})
