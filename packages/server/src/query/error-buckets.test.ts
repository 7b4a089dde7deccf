/**
 * One error message over time on real chDB: SQL pinned; hour, day, week, month and minute buckets in
 * Europe/Berlin across the DST change of 2026-03-29 (02:00 CET -> 03:00 CEST, at 01:00 UTC), in
 * America/New_York across 2026-03-08, and in Asia/Kolkata (UTC+05:30); empty buckets filled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventRow } from '../storage/events/event-row.fixture.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { compileErrorBuckets, queryErrorBuckets } from './error-buckets.js'
import { parseQueryParams } from './params.js'
import { openReportStore } from './report-data.fixture.js'
import type { ReportScope } from './report-scope.js'

const SITE = 9

/** Error 'boom' at these instants (UTC), with their Berlin wall-clock times. */
const boom = [
  '2026-03-27T22:59:59.999Z', // 03-27 23:59:59.999 CET: before the range
  '2026-03-27T23:30:00.000Z', // 03-28 00:30 CET
  '2026-03-28T22:30:00.000Z', // 03-28 23:30 CET
  '2026-03-28T23:30:00.000Z', // 03-29 00:30 CET
  '2026-03-29T00:59:59.999Z', // 03-29 01:59:59.999 CET, the last instant before the change
  '2026-03-29T01:00:00.000Z', // 03-29 03:00 CEST
  '2026-03-29T01:30:00.000Z', // 03-29 03:30 CEST
  '2026-03-29T21:59:59.999Z', // 03-29 23:59:59.999 CEST
  '2026-03-29T22:00:00.000Z', // 03-30 00:00 CEST
  '2026-03-30T21:59:59.999Z', // 03-30 23:59:59.999 CEST
  '2026-03-30T22:00:00.000Z', // 03-31 00:00 CEST: after the range
  '2026-03-08T06:30:00.000Z', // New York 03-08 01:30 EST
  '2026-03-08T07:00:00.000Z', // New York 03-08 03:00 EDT (02:00-03:00 does not exist)
  '2026-03-09T19:10:00.000Z', // Kolkata 03-10 00:40 IST
]

let store: Awaited<ReturnType<typeof openReportStore>>
let events: EventsStore
beforeAll(async () => {
  const error = (timestamp: string, error_message = 'boom') =>
    eventRow({ site_id: SITE, type: 'error', timestamp, error_message, event_name: 'Error' })
  store = await openReportStore([
    ...boom.map((t) => error(t)),
    error('2026-03-29T01:10:00.000Z', 'another message'),
    eventRow({ site_id: SITE, type: 'pageview', timestamp: '2026-03-29T01:20:00.000Z' }),
    { ...error('2026-03-29T01:20:00.000Z'), site_id: 10 },
  ])
  events = store.events
})
afterAll(() => store.close())

const scope = (query: Record<string, string>): ReportScope => ({
  siteId: SITE,
  params: parseQueryParams(query, 0),
})
const berlin = scope({ start_date: '2026-03-28', end_date: '2026-03-30', time_zone: 'Europe/Berlin' })

/** The nonzero buckets of a series, as [time, count]. */
const nonzero = (series: { time: string; error_count: number }[]) =>
  series.filter((b) => b.error_count > 0).map((b) => [b.time, b.error_count])

describe('compileErrorBuckets', () => {
  it('pins the SQL and parameters', () => {
    expect(compileErrorBuckets(berlin, 'boom', 'hour')).toEqual({
      sql: [
        'SELECT toUnixTimestamp(toStartOfHour(timestamp, {tz:String})) AS bucket, count() AS error_count',
        'FROM events',
        "WHERE site_id = {site:UInt32} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')} AND type = 'error' AND error_message = {message:String}",
        'GROUP BY bucket',
        'ORDER BY bucket',
      ].join('\n'),
      params: {
        site: SITE,
        from: '2026-03-27 23:00:00.000',
        to: '2026-03-30 22:00:00.000',
        message: 'boom',
        tz: 'Europe/Berlin',
      },
    })
    expect(compileErrorBuckets(berlin, 'boom', 'week').sql).toContain(
      'SELECT toUnixTimestamp(toDateTime(toMonday(timestamp, {tz:String}), {tz:String})) AS bucket',
    )
  })
})

describe('queryErrorBuckets in Europe/Berlin across the change to summer time', () => {
  it('hour: 24 + 23 + 24 buckets, the 01:00 UTC bucket being 03:00 local', async () => {
    const series = await queryErrorBuckets(events, berlin, 'boom', 'hour')
    expect(series).toHaveLength(71)
    expect(series[0]).toEqual({ time: '2026-03-27T23:00:00.000Z', error_count: 1 })
    expect(series.at(-1)).toEqual({ time: '2026-03-30T21:00:00.000Z', error_count: 1 })
    expect(nonzero(series)).toEqual([
      ['2026-03-27T23:00:00.000Z', 1],
      ['2026-03-28T22:00:00.000Z', 1],
      ['2026-03-28T23:00:00.000Z', 1],
      ['2026-03-29T00:00:00.000Z', 1],
      ['2026-03-29T01:00:00.000Z', 2],
      ['2026-03-29T21:00:00.000Z', 1],
      ['2026-03-29T22:00:00.000Z', 1],
      ['2026-03-30T21:00:00.000Z', 1],
    ])
    // Consecutive buckets are one hour apart, also across the change.
    const gaps = new Set(
      series.slice(1).map((b, i) => Date.parse(b.time) - Date.parse(series[i]?.time ?? '')),
    )
    expect([...gaps]).toEqual([3_600_000])
  })

  it('day: local midnights, the 29th being 23 hours long', async () => {
    expect(await queryErrorBuckets(events, berlin, 'boom', 'day')).toEqual([
      { time: '2026-03-27T23:00:00.000Z', error_count: 2 },
      { time: '2026-03-28T23:00:00.000Z', error_count: 5 },
      { time: '2026-03-29T22:00:00.000Z', error_count: 2 },
    ])
  })

  it('week (Mondays) and month: buckets may start before the range', async () => {
    expect(await queryErrorBuckets(events, berlin, 'boom', 'week')).toEqual([
      { time: '2026-03-22T23:00:00.000Z', error_count: 7 },
      { time: '2026-03-29T22:00:00.000Z', error_count: 2 },
    ])
    expect(await queryErrorBuckets(events, berlin, 'boom', 'month')).toEqual([
      { time: '2026-02-28T23:00:00.000Z', error_count: 9 },
    ])
  })

  it('minute: 4,260 buckets with the same counts', async () => {
    const series = await queryErrorBuckets(events, berlin, 'boom', 'minute')
    expect(series).toHaveLength(71 * 60)
    expect(nonzero(series)).toContainEqual(['2026-03-29T00:59:00.000Z', 1])
    expect(series.reduce((sum, b) => sum + b.error_count, 0)).toBe(9)
  })
})

describe('queryErrorBuckets in other zones', () => {
  it('America/New_York on 2026-03-08: 23 hourly buckets', async () => {
    const ny = scope({ start_date: '2026-03-08', end_date: '2026-03-08', time_zone: 'America/New_York' })
    const series = await queryErrorBuckets(events, ny, 'boom', 'hour')
    expect(series).toHaveLength(23)
    expect(series[0]?.time).toBe('2026-03-08T05:00:00.000Z')
    expect(nonzero(series)).toEqual([
      ['2026-03-08T06:00:00.000Z', 1],
      ['2026-03-08T07:00:00.000Z', 1],
    ])
    expect(await queryErrorBuckets(events, ny, 'boom', 'day')).toEqual([
      { time: '2026-03-08T05:00:00.000Z', error_count: 2 },
    ])
  })

  it('Asia/Kolkata: hours start at half past in UTC', async () => {
    const kolkata = scope({ start_date: '2026-03-10', end_date: '2026-03-10', time_zone: 'Asia/Kolkata' })
    const series = await queryErrorBuckets(events, kolkata, 'boom', 'hour')
    expect(series).toHaveLength(24)
    expect(nonzero(series)).toEqual([['2026-03-09T18:30:00.000Z', 1]])
  })

  it('answers only zeros for a message without occurrences, and counts another message apart', async () => {
    const none = await queryErrorBuckets(events, berlin, 'no such message', 'day')
    expect(none.map((b) => b.error_count)).toEqual([0, 0, 0])
    expect(nonzero(await queryErrorBuckets(events, berlin, 'another message', 'day'))).toEqual([
      ['2026-03-28T23:00:00.000Z', 1],
    ])
  })
})
