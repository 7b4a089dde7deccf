/**
 * The funnel report on real chDB with the fixture of `report-data.fixture.ts`: SQL pinned, figures by
 * hand, and the shaping of rates, drop-offs and medians.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FunnelStep } from '../funnels/funnel.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { compileFunnelReport, queryFunnelReport, toFunnelSteps } from './funnel-report.js'
import { marchScope, openReportStore } from './report-data.fixture.js'

let store: Awaited<ReturnType<typeof openReportStore>>
let events: EventsStore
beforeAll(async () => {
  store = await openReportStore()
  events = store.events
})
afterAll(() => store.close())

const SCOPE =
  "site_id = {site:UInt32} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')}"
const homeThenSignup: FunnelStep[] = [
  { type: 'path', pathPattern: '/' },
  { type: 'event', eventName: 'signup' },
]

describe('compileFunnelReport', () => {
  it('pins the SQL and parameters', () => {
    const step1 = "type = 'pageview' AND pathname = {s0_path:String}"
    const step2 = "type = 'custom_event' AND event_name = {s1_event:String}"
    const ms = (k: number) => `toUnixTimestamp64Milli(assumeNotNull(t${k}))`
    expect(compileFunnelReport(marchScope(), homeThenSignup)).toEqual({
      sql: [
        `SELECT [countIf(t1 IS NOT NULL), countIf(t2 IS NOT NULL)] AS sessions, [NULL, quantileExactInclusiveIf(0.5)(${ms(2)} - ${ms(1)}, t2 IS NOT NULL)] AS median_ms`,
        'FROM (',
        'SELECT session_key, t1, arrayFirstOrNull(x -> x >= t1, m2) AS t2',
        'FROM (',
        `SELECT cityHash64(session_id) AS session_key, countIf(${step1}) AS n1, minIf(timestamp, ${step1}) AS t1, arraySort(groupArrayIf(timestamp, ${step2})) AS m2`,
        'FROM events',
        `WHERE ${SCOPE} AND ((${step1}) OR (${step2}))`,
        'GROUP BY session_key',
        ')',
        'WHERE n1 > 0',
        ')',
      ].join('\n'),
      params: {
        site: 7,
        from: '2026-03-01 00:00:00.000',
        to: '2026-04-01 00:00:00.000',
        s0_path: '/',
        s1_event: 'signup',
      },
    })
  })
})

describe('queryFunnelReport', () => {
  it('counts sessions in order with medians from the matched times', async () => {
    // s1: /pricing 10:00:30, signup 10:01:10.5 (40.5 s); s3: /pricing 14:00:00, signup 14:05:30 (330 s).
    const report = await queryFunnelReport(events, marchScope(), [
      { type: 'path', pathPattern: '/pricing', name: 'Pricing' },
      { type: 'event', eventName: 'signup' },
    ])
    expect(report.steps.map((s) => [s.sessions, s.dropoff, s.medianSecondsFromPrevious])).toEqual([
      [2, 0, null],
      [2, 0, 185],
    ])
    expect(report.steps.map((s) => s.name)).toEqual(['Pricing', 'signup'])
  })

  it('breaks the steps down by the value of the first event', async () => {
    // '/' pageviews: s1 (then /pricing 30 s later) and s4 (no /pricing); both entered on '/'.
    const report = await queryFunnelReport(
      events,
      marchScope(),
      [
        { type: 'path', pathPattern: '/' },
        { type: 'path', pathPattern: '/pricing' },
      ],
      'entry_page',
    )
    expect(report.steps.map((s) => s.sessions)).toEqual([2, 1])
    expect(report.breakdown?.values.map((v) => [v.value, v.steps.map((s) => s.sessions)])).toEqual([
      ['/', [2, 1]],
    ])
  })

  it('answers the overall steps with a breakdown as without one, from the same query', async () => {
    const steps: FunnelStep[] = [
      { type: 'path', pathPattern: '/pricing' },
      { type: 'event', eventName: 'signup' },
    ]
    for (const breakdown of ['browser', 'entry_page', 'country'] as const) {
      expect(compileFunnelReport(marchScope(), steps, breakdown).sql).toContain('GROUPING SETS')
      const report = await queryFunnelReport(events, marchScope(), steps, breakdown)
      expect(report.steps).toEqual((await queryFunnelReport(events, marchScope(), steps)).steps)
      const perValue = report.breakdown?.values.map((v) => v.steps[0]?.sessions ?? 0) ?? []
      expect(perValue.reduce((sum, n) => sum + n, 0)).toBe(report.steps[0]?.sessions)
    }
    // No session matches: zeros, no values, as without a breakdown.
    const none: FunnelStep[] = [{ type: 'path', pathPattern: '/nowhere' }]
    const empty = await queryFunnelReport(events, marchScope(), none, 'browser')
    expect(empty.steps).toEqual((await queryFunnelReport(events, marchScope(), none)).steps)
    expect(empty.breakdown?.values).toEqual([])
  })
})

describe('toFunnelSteps', () => {
  const steps: FunnelStep[] = [
    { type: 'path', pathPattern: '/' },
    { type: 'event', eventName: 'buy', eventPropertyKey: 'plan', eventPropertyValue: 3 },
    { type: 'path', pathPattern: '/done' },
  ]
  it('derives rates and drop-offs, rounds medians half up, and has nothing for empty steps', () => {
    expect(toFunnelSteps(steps, { sessions: [4, 1, 0], median_ms: [null, 1500, null] })).toEqual([
      {
        step: 1,
        name: '/',
        sessions: 4,
        conversionFromPrevious: 1,
        conversionFromStart: 1,
        dropoff: 0,
        medianSecondsFromPrevious: null,
      },
      {
        step: 2,
        name: 'buy plan=3',
        sessions: 1,
        conversionFromPrevious: 0.25,
        conversionFromStart: 0.25,
        dropoff: 3,
        medianSecondsFromPrevious: 2,
      },
      {
        step: 3,
        name: '/done',
        sessions: 0,
        conversionFromPrevious: 0,
        conversionFromStart: 0,
        dropoff: 1,
        medianSecondsFromPrevious: null,
      },
    ])
    expect(toFunnelSteps(steps, undefined).map((s) => [s.sessions, s.conversionFromPrevious])).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
    ])
  })
})
