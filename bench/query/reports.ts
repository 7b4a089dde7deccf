/**
 * What the query benchmark times: each read route's query function (and the overview primitives the
 * v1 API will expose), paired with its compile step so the same SQL can be run directly on the store.
 */

import type { FunnelStep } from '../../packages/server/src/funnels/funnel.js'
import type { Goal } from '../../packages/server/src/goals/goal.js'
import { compileBreakdown, queryBreakdown } from '../../packages/server/src/query/breakdown.js'
import type { CompiledQuery } from '../../packages/server/src/query/compiled-query.js'
import { compileErrorBuckets, queryErrorBuckets } from '../../packages/server/src/query/error-buckets.js'
import { compileErrorEvents, queryErrorEvents } from '../../packages/server/src/query/error-events.js'
import { compileErrorNames, queryErrorNames } from '../../packages/server/src/query/error-names.js'
import { compileFunnelReport, queryFunnelReport } from '../../packages/server/src/query/funnel-report.js'
import {
  compileGoalConversions,
  queryGoalConversions,
} from '../../packages/server/src/query/goal-conversions.js'
import { compileGoalSessions, queryGoalSessions } from '../../packages/server/src/query/goal-sessions.js'
import { compileJourneys, queryJourneys } from '../../packages/server/src/query/journeys.js'
import { compileOverview, queryOverview } from '../../packages/server/src/query/overview.js'
import type { ReportScope } from '../../packages/server/src/query/report-scope.js'
import { compileRetention, queryRetention } from '../../packages/server/src/query/retention.js'
import type { EventsStore } from '../../packages/server/src/storage/events/events-store.js'

/** One timed report: `run` is the layer (compile, run, shape), `compile` gives the SQL run directly. */
export interface BenchReport {
  name: string
  /** The HTTP route it serves, or 'primitive' for the overview building blocks. */
  route: string
  run(events: EventsStore, scope: ReportScope): Promise<unknown>
  compile(scope: ReportScope): CompiledQuery
  /** A `filters` query value applied on top of the range (to show what filtering costs). */
  filters?: string
}

/** US visitors on desktop who entered on the home page. */
const FILTERS = JSON.stringify([
  { parameter: 'country', type: 'equals', value: ['US'] },
  { parameter: 'device_type', type: 'not_equals', value: ['mobile'] },
  { parameter: 'entry_page', type: 'equals', value: ['/'] },
])

const goal = (goalId: number, definition: Pick<Goal, 'goalType' | 'config'>): Goal =>
  ({ goalId, name: `goal ${goalId}`, createdAt: '2026-01-01T00:00:00.000Z', ...definition }) as Goal

/** Ten goals, as a site might have: paths, prefixes, events, events with a property. */
export const benchGoals: Goal[] = [
  goal(1, { goalType: 'path', config: { pathPattern: '/' } }),
  goal(2, { goalType: 'path', config: { pathPattern: '/blog/*' } }),
  goal(3, { goalType: 'path', config: { pathPattern: '/projects/*' } }),
  goal(4, { goalType: 'path', config: { pathPattern: '/presentations/*' } }),
  goal(5, { goalType: 'event', config: { eventName: 'signup' } }),
  goal(6, { goalType: 'event', config: { eventName: 'add_to_cart' } }),
  goal(7, {
    goalType: 'event',
    config: { eventName: 'signup', eventPropertyKey: 'plan', eventPropertyValue: 'pro' },
  }),
  goal(8, {
    goalType: 'event',
    config: { eventName: 'add_to_cart', eventPropertyKey: 'seats', eventPropertyValue: 3 },
  }),
  goal(9, { goalType: 'event', config: { eventName: 'newsletter' } }),
  goal(10, { goalType: 'event', config: { eventName: 'download' } }),
]

const signup = benchGoals[4] as Goal
/** A 4-step funnel over pages and a custom event the generator produces. */
export const benchFunnel: FunnelStep[] = [
  { type: 'path', pathPattern: '/' },
  { type: 'path', pathPattern: '/blog/*' },
  { type: 'path', pathPattern: '/projects/*' },
  { type: 'event', eventName: 'signup' },
]
/** The most frequent message of the generator (Zipf rank 1). */
export const TOP_ERROR = "Cannot read properties of undefined (reading 'field0')"

export const benchReports: BenchReport[] = [
  {
    name: 'goals (10 goals)',
    route: 'GET /api/sites/{site}/goals',
    run: (events, scope) => queryGoalConversions(events, scope, benchGoals),
    compile: (scope) => compileGoalConversions(scope, benchGoals),
  },
  {
    name: 'goal sessions',
    route: 'GET /api/sites/{site}/goals/{goalId}/sessions',
    run: (events, scope) => queryGoalSessions(events, scope, signup),
    compile: (scope) => compileGoalSessions(scope, signup),
  },
  {
    name: 'error names',
    route: 'GET /api/sites/{site}/error-names',
    run: queryErrorNames,
    compile: compileErrorNames,
  },
  {
    name: 'error events',
    route: 'GET /api/sites/{site}/error-events',
    run: (events, scope) => queryErrorEvents(events, scope, TOP_ERROR),
    compile: (scope) => compileErrorEvents(scope, TOP_ERROR),
  },
  {
    name: 'error buckets (hour)',
    route: 'GET /api/sites/{site}/error-bucketed',
    run: (events, scope) => queryErrorBuckets(events, scope, TOP_ERROR, 'hour'),
    compile: (scope) => compileErrorBuckets(scope, TOP_ERROR, 'hour'),
  },
  {
    name: 'goals, 3 filters',
    route: 'GET /api/sites/{site}/goals',
    run: (events, scope) => queryGoalConversions(events, scope, benchGoals),
    compile: (scope) => compileGoalConversions(scope, benchGoals),
    filters: FILTERS,
  },
  {
    name: 'retention (week)',
    route: 'GET /api/sites/{site}/retention',
    run: (events, scope) => queryRetention(events, scope, 'week'),
    compile: (scope) => compileRetention(scope, 'week'),
  },
  {
    name: 'journeys (4 steps)',
    route: 'GET /api/sites/{site}/journeys',
    run: (events, scope) => queryJourneys(events, scope, { steps: 4, limit: 20 }),
    compile: (scope) => compileJourneys(scope, { steps: 4, limit: 20 }),
  },
  {
    name: 'journeys (4 steps from /)',
    route: 'GET /api/sites/{site}/journeys',
    run: (events, scope) => queryJourneys(events, scope, { steps: 4, limit: 20, startPath: '/' }),
    compile: (scope) => compileJourneys(scope, { steps: 4, limit: 20, startPath: '/' }),
  },
  {
    name: 'funnel (4 steps)',
    route: 'POST /api/sites/{site}/funnels/query',
    run: (events, scope) => queryFunnelReport(events, scope, benchFunnel),
    compile: (scope) => compileFunnelReport(scope, benchFunnel),
  },
  {
    name: 'funnel (4 steps) by browser',
    route: 'POST /api/sites/{site}/funnels/query',
    run: (events, scope) => queryFunnelReport(events, scope, benchFunnel, 'browser'),
    compile: (scope) => compileFunnelReport(scope, benchFunnel, 'browser'),
  },
  {
    name: 'funnel (4 steps), 3 filters',
    route: 'POST /api/sites/{site}/funnels/query',
    run: (events, scope) => queryFunnelReport(events, scope, benchFunnel),
    compile: (scope) => compileFunnelReport(scope, benchFunnel),
    filters: FILTERS,
  },
  { name: 'overview', route: 'primitive', run: queryOverview, compile: compileOverview },
  {
    name: 'overview, 3 filters',
    route: 'primitive',
    run: queryOverview,
    compile: compileOverview,
    filters: FILTERS,
  },
  {
    name: 'top pages',
    route: 'primitive',
    run: (events, scope) => queryBreakdown(events, scope, 'pages'),
    compile: (scope) => compileBreakdown(scope, 'pages'),
  },
  {
    name: 'channels',
    route: 'primitive',
    run: (events, scope) => queryBreakdown(events, scope, 'channels'),
    compile: (scope) => compileBreakdown(scope, 'channels'),
  },
  {
    name: 'countries',
    route: 'primitive',
    run: (events, scope) => queryBreakdown(events, scope, 'countries'),
    compile: (scope) => compileBreakdown(scope, 'countries'),
  },
]
