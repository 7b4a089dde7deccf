/**
 * Retention on real chDB: the SQL pinned, and cohorts checked by hand on events placed around the
 * Europe/Berlin DST change (Sunday 2026-03-29, 02:00 CET -> 03:00 CEST) and month boundaries, where
 * the zone's calendar and UTC's disagree.
 *
 * Site 7 (weeks 2026-03-16, 03-23, 03-30 in Berlin; the range 03-16..04-05 starts 03-15T23:00Z and
 * ends 04-05T22:00Z). Each event is its own session; pathname '/' unless noted.
 *
 * | visitor | events (UTC)                          | Berlin            | week |
 * |---------|---------------------------------------|-------------------|------|
 * | a       | 03-16T09:00 pageview                  | Mon 03-16 10:00   | 0    |
 * |         | 03-25T12:00 outbound                  | Wed 03-25         | 1    |
 * |         | 03-29T22:30 pageview /pricing         | Mon 03-30 00:30   | 2    |
 * | b       | 03-22T23:30 pageview /pricing         | Mon 03-23 00:30   | 1    |
 * |         | 04-05T21:59:59.999 pageview /pricing  | Sun 04-05 23:59   | 2    |
 * | c       | 03-15T23:00 pageview                  | Mon 03-16 00:00   | 0    |
 * |         | 03-24 performance, 04-01 error        | (not counted)     |      |
 * | d       | 03-15T22:59:59.999 pageview           | Sun 03-15 (out)   |      |
 * |         | 03-24T12:00 pageview                  | Tue 03-24         | 1    |
 * | e       | 04-01T12:00 custom_event              | Wed 04-01         | 2    |
 * | f       | 03-20T12:00 performance only          | (not counted)     |      |
 * | l       | 03-28T23:30, 03-29T21:59 pageviews    | Sun 03-29 00:30, 23:59 | 1 |
 * |         | 03-29T22:00 pageview                  | Mon 03-30 00:00   | 2    |
 *
 * Site 9 (months in Berlin): g 02-28T23:30Z (Berlin 03-01) and 04-30T21:00Z (April); h 02-10 and
 * 03-31T22:30Z (Berlin 04-01); i 02-20, 03-05, 03-06; k 02-27T10:00Z and 03-02T10:00Z; j only outside
 * February..April in Berlin (01-31T22:59:59Z, 04-30T22:00Z).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../shared/errors.js'
import { eventRow } from '../storage/events/event-row.fixture.js'
import type { EventRow } from '../storage/events/event-row.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { parseQueryParams } from './params.js'
import { filtersParam, openReportStore } from './report-data.fixture.js'
import type { ReportScope } from './report-scope.js'
import { compileRetention, queryRetention, retentionPeriodStarts } from './retention.js'

let sessions = 0
const ev = (site_id: number, user_id: string, timestamp: string, extra: Partial<EventRow> = {}): EventRow =>
  eventRow({ site_id, user_id, session_id: `s${++sessions}`, timestamp, pathname: '/', ...extra })

const rows: EventRow[] = [
  ev(7, 'a', '2026-03-16T09:00:00.000Z'),
  ev(7, 'a', '2026-03-25T12:00:00.000Z', { type: 'outbound' }),
  ev(7, 'a', '2026-03-29T22:30:00.000Z', { pathname: '/pricing' }),
  ev(7, 'b', '2026-03-22T23:30:00.000Z', { pathname: '/pricing' }),
  ev(7, 'b', '2026-04-05T21:59:59.999Z', { pathname: '/pricing' }),
  ev(7, 'c', '2026-03-15T23:00:00.000Z'),
  ev(7, 'c', '2026-03-24T12:00:00.000Z', { type: 'performance', lcp: 1000 }),
  ev(7, 'c', '2026-04-01T12:00:00.000Z', { type: 'error', error_message: 'boom' }),
  ev(7, 'd', '2026-03-15T22:59:59.999Z'),
  ev(7, 'd', '2026-03-24T12:00:00.000Z'),
  ev(7, 'e', '2026-04-01T12:00:00.000Z', { type: 'custom_event', event_name: 'signup' }),
  ev(7, 'f', '2026-03-20T12:00:00.000Z', { type: 'performance', lcp: 1000 }),
  ev(7, 'l', '2026-03-28T23:30:00.000Z'),
  ev(7, 'l', '2026-03-29T21:59:00.000Z'),
  ev(7, 'l', '2026-03-29T22:00:00.000Z'),
  ev(9, 'g', '2026-02-28T23:30:00.000Z'),
  ev(9, 'g', '2026-04-30T21:00:00.000Z'),
  ev(9, 'h', '2026-02-10T12:00:00.000Z'),
  ev(9, 'h', '2026-03-31T22:30:00.000Z'),
  ev(9, 'i', '2026-02-20T12:00:00.000Z'),
  ev(9, 'i', '2026-03-05T12:00:00.000Z'),
  ev(9, 'i', '2026-03-06T12:00:00.000Z'),
  ev(9, 'k', '2026-02-27T10:00:00.000Z'),
  ev(9, 'k', '2026-03-02T10:00:00.000Z'),
  ev(9, 'j', '2026-01-31T22:59:59.000Z'),
  ev(9, 'j', '2026-04-30T22:00:00.000Z'),
  // Another site: never counted.
  ev(8, 'a', '2026-03-17T09:00:00.000Z'),
]

let store: Awaited<ReturnType<typeof openReportStore>>
let events: EventsStore
beforeAll(async () => {
  store = await openReportStore(rows)
  events = store.events
})
afterAll(() => store.close())

const scope = (
  siteId: number,
  start: string,
  end: string,
  query: Record<string, string> = {},
): ReportScope => ({
  siteId,
  params: parseQueryParams({ start_date: start, end_date: end, time_zone: 'Europe/Berlin', ...query }, 0),
})
const berlinWeeks = (query: Record<string, string> = {}) => scope(7, '2026-03-16', '2026-04-05', query)

describe('compileRetention', () => {
  it('groups per visitor, then per (cohort, active period), with every value bound', () => {
    const compiled = compileRetention(berlinWeeks(filtersParam(['pathname', 'equals', ['/pricing']])), 'week')
    const index = 'toRelativeWeekNum(timestamp, {tz:String}) - toRelativeWeekNum({first:Date})'
    expect(compiled.sql).toBe(
      [
        'SELECT periods[1] AS cohort, period, count() AS visitors FROM (',
        '  SELECT cityHash64(user_id) AS visitor_key,',
        `    bitPositionsToArray(groupBitOr(bitShiftLeft(toUInt64(1), ${index}))) AS periods`,
        '  FROM events',
        "  WHERE site_id = {site:UInt32} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')} AND type IN {types:Array(String)} AND (pathname IN {f0:Array(String)})",
        '  GROUP BY visitor_key',
        ')',
        'ARRAY JOIN periods AS period',
        'GROUP BY cohort, period',
        'ORDER BY cohort, period',
      ].join('\n'),
    )
    expect(compiled.params).toEqual({
      site: 7,
      from: '2026-03-15 23:00:00.000',
      to: '2026-04-05 22:00:00.000',
      f0: ['/pricing'],
      types: ['pageview', 'custom_event', 'outbound'],
      tz: 'Europe/Berlin',
      first: '2026-03-16',
    })
  })
})

describe('retentionPeriodStarts', () => {
  it('lists days, Mondays and 1sts of the range, the first week or month reaching back', () => {
    const p = scope(7, '2026-03-01', '2026-04-02').params
    expect(retentionPeriodStarts(p, 'week')).toEqual([
      '2026-02-23',
      '2026-03-02',
      '2026-03-09',
      '2026-03-16',
      '2026-03-23',
      '2026-03-30',
    ])
    expect(retentionPeriodStarts(p, 'month')).toEqual(['2026-03-01', '2026-04-01'])
    expect(retentionPeriodStarts(scope(7, '2026-02-27', '2026-03-02').params, 'day')).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
    ])
  })

  it('refuses more than 256 periods, naming period', () => {
    expect(retentionPeriodStarts(scope(7, '2025-01-01', '2025-09-13').params, 'day')).toHaveLength(256)
    try {
      retentionPeriodStarts(scope(7, '2025-01-01', '2025-09-14').params, 'day')
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(AppError)
      expect((error as AppError).message).toBe(
        'Invalid period: too many periods: 257 days in the range, at most 256; choose a longer period or a shorter range',
      )
    }
  })
})

describe('queryRetention', () => {
  it('weekly across the DST change: cohorts by first counted event in Berlin weeks', async () => {
    expect(await queryRetention(events, berlinWeeks(), 'week')).toEqual([
      { cohort: '2026-03-16', visitors: 2, retained: [2, 1, 1] },
      { cohort: '2026-03-23', visitors: 3, retained: [3, 2] },
      { cohort: '2026-03-30', visitors: 1, retained: [1] },
    ])
  })

  it('daily on the DST day: local midnights of 23-hour and 24-hour days', async () => {
    expect(await queryRetention(events, scope(7, '2026-03-28', '2026-03-30'), 'day')).toEqual([
      { cohort: '2026-03-28', visitors: 0, retained: [0, 0, 0] },
      { cohort: '2026-03-29', visitors: 1, retained: [1, 1] },
      { cohort: '2026-03-30', visitors: 1, retained: [1] },
    ])
  })

  it('in UTC the same events fall into other weeks', async () => {
    expect(await queryRetention(events, berlinWeeks({ time_zone: 'UTC' }), 'week')).toEqual([
      // UTC weeks: a {0, 1}, b {0, 2}, d {1}, l {1}, e {2}; c's only counted event (03-15) is out.
      { cohort: '2026-03-16', visitors: 2, retained: [2, 1, 1] },
      { cohort: '2026-03-23', visitors: 2, retained: [2, 0] },
      { cohort: '2026-03-30', visitors: 1, retained: [1] },
    ])
  })

  it('monthly and daily across month boundaries in Berlin', async () => {
    expect(await queryRetention(events, scope(9, '2026-02-01', '2026-04-30'), 'month')).toEqual([
      { cohort: '2026-02-01', visitors: 3, retained: [3, 2, 1] },
      { cohort: '2026-03-01', visitors: 1, retained: [1, 1] },
      { cohort: '2026-04-01', visitors: 0, retained: [0] },
    ])
    expect(await queryRetention(events, scope(9, '2026-02-27', '2026-03-02'), 'day')).toEqual([
      { cohort: '2026-02-27', visitors: 1, retained: [1, 0, 0, 1] },
      { cohort: '2026-02-28', visitors: 0, retained: [0, 0, 0] },
      { cohort: '2026-03-01', visitors: 1, retained: [1, 0] },
      { cohort: '2026-03-02', visitors: 0, retained: [0] },
    ])
  })

  it('filters restrict the events considered: cohorts by the first matching event', async () => {
    const pricing = [
      { cohort: '2026-03-16', visitors: 0, retained: [0, 0, 0] },
      { cohort: '2026-03-23', visitors: 1, retained: [1, 1] },
      { cohort: '2026-03-30', visitors: 1, retained: [1] },
    ]
    expect(
      await queryRetention(events, berlinWeeks(filtersParam(['pathname', 'equals', ['/pricing']])), 'week'),
    ).toEqual(pricing)
    // Session filter: every /pricing event is a one-pageview session entering on /pricing.
    expect(
      await queryRetention(events, berlinWeeks(filtersParam(['entry_page', 'equals', ['/pricing']])), 'week'),
    ).toEqual(pricing)
    expect(
      await queryRetention(
        events,
        berlinWeeks(filtersParam(['pathname', 'not_equals', ['/pricing']])),
        'week',
      ),
    ).toEqual([
      // a: pageview w0 and outbound w1 (pathname '/'); c {0}; d {1}; e {2}; l {1, 2}.
      { cohort: '2026-03-16', visitors: 2, retained: [2, 1, 0] },
      { cohort: '2026-03-23', visitors: 2, retained: [2, 1] },
      { cohort: '2026-03-30', visitors: 1, retained: [1] },
    ])
  })

  it('uses a 256-bit mask beyond 64 periods, with the same cohorts', async () => {
    const wide = scope(9, '2026-01-01', '2026-04-30')
    expect(compileRetention(wide, 'day').sql).toContain('bitShiftLeft(toUInt256(1), ')
    const days = await queryRetention(events, wide, 'day')
    expect(days).toHaveLength(120)
    // h: 02-10 (day 40) and 04-01 (day 90 in Berlin); g: 03-01 (59) and 04-30 (119).
    expect(days[40]).toMatchObject({ cohort: '2026-02-10', visitors: 1 })
    expect(days[40]?.retained[50]).toBe(1)
    expect(days[59]).toMatchObject({ cohort: '2026-03-01', visitors: 1 })
    expect(days[59]?.retained[60]).toBe(1)
    // g, h, i, k, and j (01-31 23:59:59 in Berlin is in this range).
    expect(days.reduce((sum, c) => sum + c.visitors, 0)).toBe(5)
    expect(days[30]).toMatchObject({ cohort: '2026-01-31', visitors: 1 })
  })

  it('answers every cohort empty when nothing happened', async () => {
    expect(await queryRetention(events, scope(8, '2026-01-01', '2026-02-28'), 'month')).toEqual([
      { cohort: '2026-01-01', visitors: 0, retained: [0, 0] },
      { cohort: '2026-02-01', visitors: 0, retained: [0] },
    ])
  })
})
