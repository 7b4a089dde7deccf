/**
 * Experiment results on real chDB: SQL pinned (with and without filters, with and without a goal) and
 * run on a hand-made data set with known answers.
 *
 * Site 7, experiment `checkout-button` (A control, B), goal: custom event `purchase`. March 2026, UTC:
 *
 * | session | events                                                           | counts as            |
 * |---------|------------------------------------------------------------------|----------------------|
 * | a1      | 03-02 10:00 expose A, 10:05 purchase                             | A, converted         |
 * | a2      | 03-02 11:00 expose A                                             | A                    |
 * | a3      | 03-03 09:00 purchase, 09:10 expose A (converted before exposure) | A, not converted     |
 * | a4 (GB) | 03-04 12:00 pageview /pricing, 12:01 expose A, 12:02 purchase    | A, converted         |
 * | a5      | 03-05 08:00:00.000 expose B and expose A at the same instant     | A (tie: id), cross   |
 * | b1      | 03-02 15:00 expose B, 15:30 purchase                             | B, converted         |
 * | b2      | 03-06 10:00 purchase carrying {experiment, variant: B}            | B, converted         |
 * | b3      | 03-07 10:00 expose B, 10:01 expose A, 10:02 purchase             | B, converted, cross  |
 * | x1      | 03-08 expose of experiment `other`                               | not exposed          |
 * | x2      | 03-08 expose of variant `C` (not a variant), purchase            | not exposed          |
 * | x3      | 02-28 23:59 expose A (outside), 03-01 00:01 purchase             | not exposed in range |
 * | x4      | site 8: expose A, purchase                                       | another site         |
 *
 * March: A 5 exposed, 2 conversions (0.4); B 3 exposed, 3 conversions (1.0); crossovers 2 (a5, b3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compareWithControl } from '../experiments/two-proportion-test.js'
import type { GoalDefinition } from '../goals/goal.js'
import { eventRow } from '../storage/events/event-row.fixture.js'
import type { EventRow } from '../storage/events/event-row.js'
import type { EventsStore } from '../storage/events/events-store.js'
import {
  compileExperimentResults,
  type ExperimentPlan,
  queryExperimentResults,
} from './experiment-results.js'
import { EVENT_ORDER_KEY } from './metrics.js'
import { filtersParam, marchScope, openReportStore, SITE } from './report-data.fixture.js'

const experiment: ExperimentPlan = {
  key: 'checkout-button',
  variants: [
    { name: 'A', control: true },
    { name: 'B', control: false },
  ],
}
const purchase: GoalDefinition = { goalType: 'event', config: { eventName: 'purchase' } }

const expose = (session: string, timestamp: string, variant: string, extra: Partial<EventRow> = {}) =>
  eventRow({
    site_id: SITE,
    session_id: session,
    user_id: `u-${session}`,
    timestamp,
    type: 'custom_event',
    event_name: 'experiment_viewed',
    properties: JSON.stringify({ experiment: 'checkout-button', variant }),
    ...extra,
  })
const buy = (session: string, timestamp: string, extra: Partial<EventRow> = {}) =>
  eventRow({
    site_id: SITE,
    session_id: session,
    user_id: `u-${session}`,
    timestamp,
    type: 'custom_event',
    event_name: 'purchase',
    properties: '{"amount":49}',
    ...extra,
  })
const GB = { country: 'GB', region: 'England', city: 'London' }

const rows: EventRow[] = [
  expose('a1', '2026-03-02T10:00:00.000Z', 'A'),
  buy('a1', '2026-03-02T10:05:00.000Z'),
  expose('a2', '2026-03-02T11:00:00.000Z', 'A'),
  buy('a3', '2026-03-03T09:00:00.000Z'),
  expose('a3', '2026-03-03T09:10:00.000Z', 'A'),
  eventRow({
    site_id: SITE,
    session_id: 'a4',
    user_id: 'u-a4',
    timestamp: '2026-03-04T12:00:00.000Z',
    pathname: '/pricing',
    ...GB,
  }),
  expose('a4', '2026-03-04T12:01:00.000Z', 'A', GB),
  buy('a4', '2026-03-04T12:02:00.000Z', GB),
  // A tie: the event with the smaller id comes first (`EVENT_ORDER`), whatever the variant's name.
  expose('a5', '2026-03-05T08:00:00.000Z', 'B', { event_id: 'f0000000-0000-4000-8000-000000000000' }),
  expose('a5', '2026-03-05T08:00:00.000Z', 'A', { event_id: '0f000000-0000-4000-8000-0000000000ff' }),
  expose('b1', '2026-03-02T15:00:00.000Z', 'B'),
  buy('b1', '2026-03-02T15:30:00.000Z'),
  buy('b2', '2026-03-06T10:00:00.000Z', { properties: '{"experiment":"checkout-button","variant":"B"}' }),
  expose('b3', '2026-03-07T10:00:00.000Z', 'B'),
  expose('b3', '2026-03-07T10:01:00.000Z', 'A'),
  buy('b3', '2026-03-07T10:02:00.000Z'),
  expose('x1', '2026-03-08T10:00:00.000Z', 'A', { properties: '{"experiment":"other","variant":"A"}' }),
  expose('x2', '2026-03-08T11:00:00.000Z', 'C'),
  buy('x2', '2026-03-08T11:01:00.000Z'),
  expose('x3', '2026-02-28T23:59:00.000Z', 'A'),
  buy('x3', '2026-03-01T00:01:00.000Z'),
  expose('x4', '2026-03-02T10:00:00.000Z', 'A', { site_id: 8 }),
  buy('x4', '2026-03-02T10:01:00.000Z', { site_id: 8 }),
]

let store: Awaited<ReturnType<typeof openReportStore>>
let events: EventsStore
beforeAll(async () => {
  store = await openReportStore(rows)
  events = store.events
})
afterAll(() => store.close())

const SCOPE_PARAMS = { site: SITE, from: '2026-03-01 00:00:00.000', to: '2026-04-01 00:00:00.000' }
const EXPOSURE =
  "JSONExtractString(properties, 'experiment') = {experiment:String} AND JSONExtractString(properties, 'variant') IN {variants:Array(String)}"
const GOAL = "type = 'custom_event' AND event_name = {g_event:String}"
const SCOPE_SQL =
  "site_id = {site:UInt32} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')}"

describe('compileExperimentResults', () => {
  it('pins one pass over exposures and goal events without filters', () => {
    expect(compileExperimentResults(marchScope(), experiment, purchase)).toEqual({
      sql: [
        'SELECT first_variant AS variant_name, count() AS exposed_sessions, countIf(converted) AS conversions, countIf(variants_seen > 1) AS crossovers',
        'FROM (',
        `SELECT cityHash64(session_id) AS session_key, argMinIf(JSONExtractString(properties, 'variant'), ${EVENT_ORDER_KEY}, ${EXPOSURE}) AS first_variant, uniqExactIf(JSONExtractString(properties, 'variant'), ${EXPOSURE}) AS variants_seen, (countIf(${GOAL}) > 0 AND maxIf(timestamp, ${GOAL}) >= minIf(timestamp, ${EXPOSURE})) AS converted`,
        'FROM events',
        `WHERE ${SCOPE_SQL} AND ((${EXPOSURE}) OR (${GOAL}))`,
        'GROUP BY session_key',
        `HAVING countIf(${EXPOSURE}) > 0`,
        ')',
        'GROUP BY variant_name',
        'ORDER BY variant_name',
      ].join('\n'),
      params: {
        ...SCOPE_PARAMS,
        experiment: 'checkout-button',
        variants: ['A', 'B'],
        g_event: 'purchase',
      },
    })
  })

  it('pins the filtered query: every event of a session is grouped, the filters in HAVING', () => {
    const scope = marchScope(
      filtersParam(['country', 'equals', ['GB']], ['entry_page', 'starts_with', ['/pricing']]),
    )
    expect(compileExperimentResults(scope, experiment, null)).toEqual({
      sql: [
        'SELECT first_variant AS variant_name, count() AS exposed_sessions, countIf(variants_seen > 1) AS crossovers',
        'FROM (',
        `SELECT cityHash64(session_id) AS session_key, argMinIf(JSONExtractString(properties, 'variant'), ${EVENT_ORDER_KEY}, ${EXPOSURE}) AS first_variant, uniqExactIf(JSONExtractString(properties, 'variant'), ${EXPOSURE}) AS variants_seen`,
        'FROM events',
        `WHERE ${SCOPE_SQL}`,
        'GROUP BY session_key',
        `HAVING countIf(${EXPOSURE}) > 0 AND countIf(country IN {f0:Array(String)}) > 0 AND startsWith(argMinIf(pathname, ${EVENT_ORDER_KEY}, type = 'pageview'), {f1_0:String})`,
        ')',
        'GROUP BY variant_name',
        'ORDER BY variant_name',
      ].join('\n'),
      params: {
        ...SCOPE_PARAMS,
        f0: ['GB'],
        f1_0: '/pricing',
        experiment: 'checkout-button',
        variants: ['A', 'B'],
      },
    })
  })
})

describe('queryExperimentResults', () => {
  it('counts first exposures, conversions after exposure and crossovers in March', async () => {
    const results = await queryExperimentResults(events, marchScope(), experiment, purchase)
    const b = compareWithControl({ sessions: 5, conversions: 2 }, { sessions: 3, conversions: 3 })
    expect(results).toEqual({
      variants: [
        {
          name: 'A',
          control: true,
          exposedSessions: 5,
          conversions: 2,
          conversionRate: 0.4,
          uplift: null,
          zScore: null,
          pValue: null,
          ci95: null,
        },
        { name: 'B', control: false, exposedSessions: 3, conversions: 3, conversionRate: 1, ...b },
      ],
      crossovers: 2,
      totalExposedSessions: 8,
    })
    // By hand: uplift (1 - 0.4) / 0.4 = 1.5; pooled 5/8, SE √(0.625·0.375·(1/5 + 1/3)) = √0.125,
    // z = 0.6 / √0.125 = 1.6970563; p = 2Φ(-z) = 0.0896860 (scipy: 0.08968602177036462);
    // Wald SE √(0.4·0.6/5) = √0.048.
    expect(b.uplift).toBeCloseTo(1.5, 12)
    expect(b.zScore).toBeCloseTo(0.6 / Math.sqrt(0.125), 12)
    expect(b.pValue).toBeCloseTo(0.08968602177036462, 12)
    expect(b.ci95?.[0]).toBeCloseTo(0.6 - 1.959963984540054 * Math.sqrt(0.048), 12)
    expect(b.ci95?.[1]).toBeCloseTo(0.6 + 1.959963984540054 * Math.sqrt(0.048), 12)
  })

  it('gives the same figures through the filtered query shape (a filter every session passes)', async () => {
    const scope = marchScope(filtersParam(['country', 'not_equals', ['FR']]))
    const [plain, filtered] = await Promise.all([
      queryExperimentResults(events, marchScope(), experiment, purchase),
      queryExperimentResults(events, scope, experiment, purchase),
    ])
    expect(filtered).toEqual(plain)
  })

  it('restricts sessions by filters and by the range', async () => {
    const gb = await queryExperimentResults(
      events,
      marchScope(filtersParam(['country', 'equals', ['GB']])),
      experiment,
      purchase,
    )
    expect(gb.variants.map((v) => [v.name, v.exposedSessions, v.conversions, v.conversionRate])).toEqual([
      ['A', 1, 1, 1],
      ['B', 0, 0, null],
    ])
    expect(gb.variants[1]).toMatchObject({ uplift: null, zScore: null, pValue: null, ci95: null })
    expect(gb.totalExposedSessions).toBe(1)

    const entry = await queryExperimentResults(
      events,
      marchScope(filtersParam(['entry_page', 'equals', ['/pricing']])),
      experiment,
      purchase,
    )
    expect(entry.variants.map((v) => v.exposedSessions)).toEqual([1, 0])

    // 03-02 only: a1 (A, converted), a2 (A), b1 (B, converted).
    const day = await queryExperimentResults(
      events,
      marchScope({ start_date: '2026-03-02', end_date: '2026-03-02' }),
      experiment,
      purchase,
    )
    expect(day.variants.map((v) => [v.exposedSessions, v.conversions])).toEqual([
      [2, 1],
      [1, 1],
    ])
    expect(day.crossovers).toBe(0)
  })

  it('reports exposures only when the goal is gone, and zeros for a variant nobody saw', async () => {
    const three: ExperimentPlan = {
      key: 'checkout-button',
      variants: [
        { name: 'B', control: false },
        { name: 'A', control: true },
        { name: 'C2', control: false },
      ],
    }
    const results = await queryExperimentResults(events, marchScope(), three, null)
    const none = {
      conversions: null,
      conversionRate: null,
      uplift: null,
      zScore: null,
      pValue: null,
      ci95: null,
    }
    expect(results).toEqual({
      variants: [
        { name: 'B', control: false, exposedSessions: 3, ...none },
        { name: 'A', control: true, exposedSessions: 5, ...none },
        { name: 'C2', control: false, exposedSessions: 0, ...none },
      ],
      crossovers: 2,
      totalExposedSessions: 8,
    })
  })

  it('counts exposures under their own key only; nothing for an unknown key', async () => {
    const other = await queryExperimentResults(
      events,
      marchScope(),
      { key: 'other', variants: experiment.variants },
      purchase,
    )
    expect(other.variants.map((v) => [v.exposedSessions, v.conversions])).toEqual([
      [1, 0],
      [0, 0],
    ])
    const unknown = await queryExperimentResults(
      events,
      marchScope(),
      { key: 'nobody', variants: experiment.variants },
      purchase,
    )
    expect(unknown.totalExposedSessions).toBe(0)
    expect(unknown.variants[0]).toMatchObject({ exposedSessions: 0, conversions: 0, conversionRate: null })
  })
})
