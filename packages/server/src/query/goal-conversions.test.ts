/**
 * Goal conditions and conversions on real chDB with the fixture of `report-data.fixture.ts`:
 * SQL pinned, conversions of every kind of goal (exact path, prefix, event, event with a string,
 * number and boolean property) checked by hand, with and without filters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Goal, GoalDefinition } from '../goals/goal.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { goalCondition } from './goal-condition.js'
import { compileGoalConversions, queryGoalConversions } from './goal-conversions.js'
import { filtersParam, marchScope, openReportStore, SITE } from './report-data.fixture.js'

let store: Awaited<ReturnType<typeof openReportStore>>
let events: EventsStore
beforeAll(async () => {
  store = await openReportStore()
  events = store.events
})
afterAll(() => store.close())

let nextId = 1
const goal = (definition: GoalDefinition): Goal => ({
  ...definition,
  goalId: nextId++,
  name: `goal ${nextId}`,
  createdAt: '2026-03-01T00:00:00.000Z',
})

describe('goalCondition', () => {
  it('matches a path exactly, or by prefix with a trailing *', () => {
    expect(goalCondition({ goalType: 'path', config: { pathPattern: '/pricing' } }, 'g0')).toEqual({
      sql: "type = 'pageview' AND pathname = {g0_path:String}",
      params: { g0_path: '/pricing' },
    })
    expect(goalCondition({ goalType: 'path', config: { pathPattern: '/blog/*' } }, 'g1')).toEqual({
      sql: "type = 'pageview' AND startsWith(pathname, {g1_path:String})",
      params: { g1_path: '/blog/' },
    })
  })

  it('matches a scroll-depth goal on engagement events of the path at or past the depth', () => {
    expect(
      goalCondition({ goalType: 'path', config: { pathPattern: '/pricing', scrollDepth: 75 } }, 'g2'),
    ).toEqual({
      sql: "type = 'engagement' AND pathname = {g2_path:String} AND scroll_depth >= {g2_depth:UInt8}",
      params: { g2_path: '/pricing', g2_depth: 75 },
    })
    expect(
      goalCondition({ goalType: 'path', config: { pathPattern: '/blog/*', scrollDepth: 50 } }, 'g3'),
    ).toEqual({
      sql: "type = 'engagement' AND startsWith(pathname, {g3_path:String}) AND scroll_depth >= {g3_depth:UInt8}",
      params: { g3_path: '/blog/', g3_depth: 50 },
    })
  })

  it('matches an event by name, and by a property value of the right JSON type', () => {
    expect(goalCondition({ goalType: 'event', config: { eventName: 'signup' } }, 'g')).toEqual({
      sql: "type = 'custom_event' AND event_name = {g_event:String}",
      params: { g_event: 'signup' },
    })
    const text = goalCondition(
      {
        goalType: 'event',
        config: { eventName: 'signup', eventPropertyKey: 'plan', eventPropertyValue: 'pro' },
      },
      'g',
    )
    expect(text).toEqual({
      sql: "type = 'custom_event' AND event_name = {g_event:String} AND multiIf(JSONType(properties, {g_key:String}) = 'String', JSONExtractString(properties, {g_key:String}) = {g_text:String}, JSONType(properties, {g_key:String}) = 'Bool', JSONExtractRaw(properties, {g_key:String}) = {g_text:String}, 0)",
      params: { g_event: 'signup', g_key: 'plan', g_text: 'pro' },
    })
    const number = goalCondition(
      {
        goalType: 'event',
        config: { eventName: 'signup', eventPropertyKey: 'seats', eventPropertyValue: 3 },
      },
      'g',
    )
    expect(number).toEqual({
      sql: "type = 'custom_event' AND event_name = {g_event:String} AND multiIf(JSONType(properties, {g_key:String}) = 'String', JSONExtractString(properties, {g_key:String}) = {g_text:String}, JSONType(properties, {g_key:String}) = 'Bool', JSONExtractRaw(properties, {g_key:String}) = {g_text:String}, JSONType(properties, {g_key:String}) IN ('Int64', 'UInt64', 'Double'), JSONExtractFloat(properties, {g_key:String}) = {g_number:Float64}, 0)",
      params: { g_event: 'signup', g_key: 'seats', g_text: '3', g_number: 3 },
    })
  })
})

describe('compileGoalConversions', () => {
  it('pins one pass over the events without filters', () => {
    const goals = [
      goal({ goalType: 'path', config: { pathPattern: '/blog/*' } }),
      goal({ goalType: 'event', config: { eventName: 'signup' } }),
    ]
    expect(compileGoalConversions(marchScope(), goals)).toEqual({
      sql: [
        "SELECT uniqExact(cityHash64(session_id)) AS total_sessions, [uniqExactIf(cityHash64(session_id), type = 'pageview' AND startsWith(pathname, {g0_path:String})), uniqExactIf(cityHash64(session_id), type = 'custom_event' AND event_name = {g1_event:String})] AS conversions",
        'FROM events',
        "WHERE site_id = {site:UInt32} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')}",
      ].join('\n'),
      params: {
        site: SITE,
        from: '2026-03-01 00:00:00.000',
        to: '2026-04-01 00:00:00.000',
        g0_path: '/blog/',
        g1_event: 'signup',
      },
    })
  })

  it('pins one query for a page of goals with filters, over sessions', () => {
    const goals = [
      goal({ goalType: 'path', config: { pathPattern: '/pricing' } }),
      goal({ goalType: 'event', config: { eventName: 'signup' } }),
    ]
    const scope = marchScope(filtersParam(['country', 'equals', ['US']]))
    expect(compileGoalConversions(scope, goals)).toEqual({
      sql: [
        'SELECT count() AS total_sessions, [countIf(goal_0 > 0), countIf(goal_1 > 0)] AS conversions',
        'FROM (',
        "SELECT cityHash64(session_id) AS session_key, countIf(type = 'pageview' AND pathname = {g0_path:String}) AS goal_0, countIf(type = 'custom_event' AND event_name = {g1_event:String}) AS goal_1",
        'FROM events',
        "WHERE site_id = {site:UInt32} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')}",
        'GROUP BY session_key',
        'HAVING countIf(country IN {f0:Array(String)}) > 0',
        ')',
      ].join('\n'),
      params: {
        site: SITE,
        from: '2026-03-01 00:00:00.000',
        to: '2026-04-01 00:00:00.000',
        f0: ['US'],
        g0_path: '/pricing',
        g1_event: 'signup',
      },
    })
  })
})

describe('queryGoalConversions', () => {
  const definitions: [string, GoalDefinition, number][] = [
    ['path /pricing (s1, s3)', { goalType: 'path', config: { pathPattern: '/pricing' } }, 2],
    ['path /blog/* (s2, s6)', { goalType: 'path', config: { pathPattern: '/blog/*' } }, 2],
    ['path /blog without * (none)', { goalType: 'path', config: { pathPattern: '/blog' } }, 0],
    ['path /* (every session with a pageview)', { goalType: 'path', config: { pathPattern: '/*' } }, 5],
    ['event signup (s1, s3)', { goalType: 'event', config: { eventName: 'signup' } }, 2],
    [
      'signup with plan "pro" (s1)',
      {
        goalType: 'event',
        config: { eventName: 'signup', eventPropertyKey: 'plan', eventPropertyValue: 'pro' },
      },
      1,
    ],
    [
      'signup with seats 3: number 3 (s1) and string "3" (s3)',
      {
        goalType: 'event',
        config: { eventName: 'signup', eventPropertyKey: 'seats', eventPropertyValue: 3 },
      },
      2,
    ],
    [
      'signup with seats "3" as a string: both too',
      {
        goalType: 'event',
        config: { eventName: 'signup', eventPropertyKey: 'seats', eventPropertyValue: '3' },
      },
      2,
    ],
    [
      'signup with seats 3.0 (numbers compare as numbers; the string "3" does not match "3.0")',
      {
        goalType: 'event',
        config: { eventName: 'signup', eventPropertyKey: 'seats', eventPropertyValue: '3.0' },
      },
      1,
    ],
    [
      'signup with seats 4 (none)',
      {
        goalType: 'event',
        config: { eventName: 'signup', eventPropertyKey: 'seats', eventPropertyValue: 4 },
      },
      0,
    ],
    [
      'newsletter with confirmed "true" (a JSON boolean, s5)',
      {
        goalType: 'event',
        config: { eventName: 'newsletter', eventPropertyKey: 'confirmed', eventPropertyValue: 'true' },
      },
      1,
    ],
    [
      'signup with a missing key (none)',
      {
        goalType: 'event',
        config: { eventName: 'signup', eventPropertyKey: 'coupon', eventPropertyValue: '' },
      },
      0,
    ],
  ]

  it('counts the sessions that completed each goal, of 6 sessions in March', async () => {
    const goals = definitions.map(([, definition]) => goal(definition))
    const result = await queryGoalConversions(events, marchScope(), goals)
    expect(result.map((g) => [g.total_conversions, g.total_sessions])).toEqual(
      definitions.map(([, , conversions]) => [conversions, 6]),
    )
    expect(result[0]).toEqual({
      ...goals[0],
      total_conversions: 2,
      total_sessions: 6,
      conversion_rate: 2 / 6,
    })
  })

  it('counts only filtered sessions, and the goal event need not pass the event filters', async () => {
    const goals = [
      goal({ goalType: 'event', config: { eventName: 'signup' } }),
      goal({ goalType: 'path', config: { pathPattern: '/checkout' } }),
    ]
    // Sessions that viewed /pricing: s1 and s3; both signed up (on /pricing and /checkout), s3 checked out.
    const pricing = marchScope(filtersParam(['pathname', 'equals', ['/pricing']]))
    expect((await queryGoalConversions(events, pricing, goals)).map((g) => g.conversion_rate)).toEqual([
      1, 0.5,
    ])
    // GB only: s3.
    const gb = marchScope(filtersParam(['country', 'equals', ['GB']]))
    expect(
      (await queryGoalConversions(events, gb, goals)).map((g) => [g.total_conversions, g.total_sessions]),
    ).toEqual([
      [1, 1],
      [1, 1],
    ])
    // Entered on '/': s1 and s4; s1 signed up.
    const home = marchScope(filtersParam(['entry_page', 'equals', ['/']]))
    expect((await queryGoalConversions(events, home, goals)).map((g) => g.conversion_rate)).toEqual([0.5, 0])
  })

  it('answers 0 rates without sessions, and runs no query without goals', async () => {
    const empty = marchScope({ start_date: '2025-01-01', end_date: '2025-01-02' })
    const [only] = await queryGoalConversions(events, empty, [
      goal({ goalType: 'event', config: { eventName: 'x' } }),
    ])
    expect(only).toMatchObject({ total_conversions: 0, total_sessions: 0, conversion_rate: 0 })
    expect(await queryGoalConversions(events, marchScope(), [])).toEqual([])
  })
})
