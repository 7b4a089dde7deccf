/**
 * The overview report on real chDB with the fixture of `report-data.fixture.ts`: the SQL pinned, the
 * figures checked by hand, every filter type and their combinations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../shared/errors.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { EVENT_ORDER_KEY } from './metrics.js'
import { compileOverview, queryOverview } from './overview.js'
import { filtersParam, marchScope, openReportStore, SITE } from './report-data.fixture.js'

let store: Awaited<ReturnType<typeof openReportStore>>
let events: EventsStore
beforeAll(async () => {
  store = await openReportStore()
  events = store.events
})
afterAll(() => store.close())

const SESSIONS_UNFILTERED = [
  "SELECT cityHash64(session_id) AS session_key, cityHash64(any(user_id)) AS visitor_key, countIf(type = 'pageview') AS pageview_count, countIf(type = 'pageview') AS matched_pageview_count, countIf(type IN ('custom_event', 'outbound')) AS interaction_count, intDiv(toUnixTimestamp64Milli(max(timestamp)) - toUnixTimestamp64Milli(min(timestamp)), 1000) AS duration_seconds",
  'FROM events',
  "WHERE site_id = {site:UInt32} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')}",
  'GROUP BY session_key',
].join('\n')

const OUTER =
  'SELECT uniqExact(visitor_key) AS visitors, count() AS sessions, sum(matched_pageview_count) AS pageviews, if(count() = 0, 0, countIf(pageview_count = 1 AND interaction_count = 0) / count()) AS bounce_rate, if(count() = 0, 0, avg(duration_seconds)) AS session_duration, if(count() = 0, 0, sum(pageview_count) / count()) AS pages_per_session'

describe('compileOverview', () => {
  it('pins the SQL and parameters without filters', () => {
    expect(compileOverview({ ...marchScope(), rollups: false })).toEqual({
      sql: `${OUTER}\nFROM (\n${SESSIONS_UNFILTERED}\n)`,
      params: { site: SITE, from: '2026-03-01 00:00:00.000', to: '2026-04-01 00:00:00.000' },
    })
  })

  it('pins the SQL and parameters with an event filter and a session filter', () => {
    const scope = marchScope(
      filtersParam(['country', 'equals', ['US']], ['entry_page', 'starts_with', ['/', '/x']]),
    )
    expect(compileOverview(scope)).toEqual({
      sql: [
        OUTER,
        'FROM (',
        "SELECT cityHash64(session_id) AS session_key, cityHash64(any(user_id)) AS visitor_key, countIf(type = 'pageview') AS pageview_count, countIf(type = 'pageview' AND (country IN {f0:Array(String)})) AS matched_pageview_count, countIf(type IN ('custom_event', 'outbound')) AS interaction_count, intDiv(toUnixTimestamp64Milli(max(timestamp)) - toUnixTimestamp64Milli(min(timestamp)), 1000) AS duration_seconds",
        'FROM events',
        "WHERE site_id = {site:UInt32} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')}",
        'GROUP BY session_key',
        `HAVING countIf(country IN {f0:Array(String)}) > 0 AND (startsWith(argMinIf(pathname, ${EVENT_ORDER_KEY}, type = 'pageview'), {f1_0:String}) OR startsWith(argMinIf(pathname, ${EVENT_ORDER_KEY}, type = 'pageview'), {f1_1:String}))`,
        ')',
      ].join('\n'),
      params: {
        site: SITE,
        from: '2026-03-01 00:00:00.000',
        to: '2026-04-01 00:00:00.000',
        f0: ['US'],
        f1_0: '/',
        f1_1: '/x',
      },
    })
  })
})

describe('queryOverview', () => {
  it('counts March 2026 (UTC) without filters', async () => {
    expect(await queryOverview(events, marchScope())).toEqual({
      visitors: 4,
      sessions: 6,
      pageviews: 8,
      bounce_rate: 2 / 6,
      session_duration: (125 + 0 + 330 + 15 + 0 + 45) / 6,
      pages_per_session: 8 / 6,
    })
  })

  it('answers zeros for a range without events', async () => {
    const scope = marchScope({ start_date: '2025-01-01', end_date: '2025-01-31' })
    expect(await queryOverview(events, scope)).toEqual({
      visitors: 0,
      sessions: 0,
      pageviews: 0,
      bounce_rate: 0,
      session_duration: 0,
      pages_per_session: 0,
    })
  })

  it('takes the range as calendar days in the time zone', async () => {
    // 2026-02-28T23:59:59.999Z is 15:59 on 02-28 in Los Angeles (outside); 04-01T00:00Z is 03-31 17:00 (inside).
    const la = await queryOverview(events, marchScope({ time_zone: 'America/Los_Angeles' }))
    expect(la).toMatchObject({ sessions: 7, pageviews: 9 })
    // In Tokyo (UTC+9) March starts 02-28T15:00Z: the 02-28 event is inside, the 04-01 one outside.
    const tokyo = await queryOverview(events, marchScope({ time_zone: 'Asia/Tokyo' }))
    expect(tokyo).toMatchObject({ sessions: 7, pageviews: 9 })
    // One day only: 2026-03-10 holds s1.
    const day = await queryOverview(events, marchScope({ start_date: '2026-03-10', end_date: '2026-03-10' }))
    expect(day).toEqual({
      visitors: 1,
      sessions: 1,
      pageviews: 3,
      bounce_rate: 0,
      session_duration: 125,
      pages_per_session: 3,
    })
  })

  // Each row: filters, then sessions, visitors, pageviews, bounce rate, mean duration, pages per session.
  it.each([
    ['country equals US', [['country', 'equals', ['US']]], 3, 2, 5, 1 / 3, (125 + 0 + 45) / 3, 5 / 3],
    ['country equals US or GB', [['country', 'equals', ['US', 'GB']]], 4, 3, 7, 1 / 4, 500 / 4, 7 / 4],
    ['country not_equals US', [['country', 'not_equals', ['US']]], 3, 2, 3, 1 / 3, 345 / 3, 3 / 3],
    [
      'pathname contains BLOG (any case)',
      [['pathname', 'contains', ['BLOG']]],
      2,
      2,
      2,
      1 / 2,
      45 / 2,
      2 / 2,
    ],
    // Events not on a blog page: all of s1, s3, s4, s5 pass; their pageviews on other pages count.
    ['pathname not_contains blog', [['pathname', 'not_contains', ['blog']]], 4, 3, 6, 1 / 4, 470 / 4, 6 / 4],
    ['pathname starts_with /docs', [['pathname', 'starts_with', ['/docs']]], 1, 1, 1, 0, 125, 3],
    [
      'pathname regex ^/blog/post-[0-9]$',
      [['pathname', 'regex', ['^/blog/post-[0-9]$']]],
      2,
      2,
      2,
      1 / 2,
      45 / 2,
      1,
    ],
    [
      'pathname regex with two patterns',
      [['pathname', 'regex', ['^/checkout$', '(?i)^/DOCS']]],
      2,
      2,
      2,
      0,
      455 / 2,
      5 / 2,
    ],
    // Event-level: the session counts because one event passes; its other pageviews count per session only.
    ['pathname equals /pricing', [['pathname', 'equals', ['/pricing']]], 2, 2, 2, 0, 455 / 2, 5 / 2],
    ['event_name equals signup', [['event_name', 'equals', ['signup']]], 2, 2, 0, 0, 455 / 2, 5 / 2],
    ['referrer (domain) equals google.com', [['referrer', 'equals', ['google.com']]], 1, 1, 1, 0, 125, 3],
    ['channel equals Direct', [['channel', 'equals', ['Direct']]], 3, 2, 3, 1 / 3, 345 / 3, 1],
    ['browser equals Chrome', [['browser', 'equals', ['Chrome']]], 3, 2, 5, 1 / 3, 170 / 3, 5 / 3],
    ['operating_system equals iOS', [['operating_system', 'equals', ['iOS']]], 2, 1, 1, 1 / 2, 15 / 2, 1 / 2],
    ['device_type equals mobile', [['device_type', 'equals', ['mobile']]], 3, 2, 2, 1 / 3, 60 / 3, 2 / 3],
    ['region equals Berlin', [['region', 'equals', ['Berlin']]], 2, 1, 1, 1 / 2, 15 / 2, 1 / 2],
    ['city equals London', [['city', 'equals', ['London']]], 1, 1, 2, 0, 330, 2],
    ['language starts_with en', [['language', 'starts_with', ['en']]], 4, 3, 7, 1 / 4, 500 / 4, 7 / 4],
    ['hostname equals other.example', [['hostname', 'equals', ['other.example']]], 0, 0, 0, 0, 0, 0],
    ['utm_source equals x (none tagged)', [['utm_source', 'equals', ['x']]], 0, 0, 0, 0, 0, 0],
    ['entry_page equals /', [['entry_page', 'equals', ['/']]], 2, 2, 4, 1 / 2, 140 / 2, 4 / 2],
    ['exit_page regex ^/blog', [['exit_page', 'regex', ['^/blog']]], 2, 2, 2, 1 / 2, 45 / 2, 1],
    [
      'exit_page not_equals /checkout',
      [['exit_page', 'not_equals', ['/checkout']]],
      5,
      3,
      6,
      2 / 5,
      185 / 5,
      6 / 5,
    ],
    // Combinations are AND-ed.
    [
      'country US and pathname contains blog',
      [
        ['country', 'equals', ['US']],
        ['pathname', 'contains', ['blog']],
      ],
      2,
      2,
      2,
      1 / 2,
      45 / 2,
      1,
    ],
    [
      'browser Chrome and exit_page starts_with /docs',
      [
        ['browser', 'equals', ['Chrome']],
        ['exit_page', 'starts_with', ['/docs']],
      ],
      1,
      1,
      3,
      0,
      125,
      3,
    ],
    [
      'device desktop, not GB, entry page /',
      [
        ['device_type', 'equals', ['desktop']],
        ['country', 'not_equals', ['GB']],
        ['entry_page', 'equals', ['/']],
      ],
      1,
      1,
      3,
      0,
      125,
      3,
    ],
  ] as const)(
    'filter %s',
    async (_label, filters, sessions, visitors, pageviews, bounce, duration, perSession) => {
      const scope = marchScope(filtersParam(...(filters as unknown as [string, string, string[]][])))
      const overview = await queryOverview(events, scope)
      expect(overview).toEqual({
        sessions,
        visitors,
        pageviews,
        bounce_rate: expect.closeTo(bounce, 12),
        session_duration: expect.closeTo(duration, 9),
        pages_per_session: expect.closeTo(perSession, 12),
      })
    },
  )

  it('answers 400, not 500, when the store’s RE2 refuses a pattern', async () => {
    // Parsing refuses it first (re2 would rewrite this JavaScript syntax); past parsing, as here, the
    // store's refusal is still a 400.
    expect(() => marchScope(filtersParam(['pathname', 'regex', ['\\p{Script=Greek}']]))).toThrow(
      /JavaScript syntax/,
    )
    const march = marchScope()
    const scope = {
      ...march,
      params: {
        ...march.params,
        filters: [{ parameter: 'pathname' as const, type: 'regex' as const, value: ['\\p{Script=Greek}'] }],
      },
    }
    const error = await queryOverview(events, scope).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect(error).toMatchObject({
      status: 400,
      message: 'Invalid filters: a regex filter is not valid RE2 syntax',
    })
  })
})
