/**
 * The conversion reports of a site as report functions (`report-part.ts`): its goals with their
 * conversions and the sessions that completed one, a saved funnel's figures and the sessions behind
 * one of its steps, and the same two for an ad-hoc funnel, whose steps come in the body (a POST that
 * only reads). The saved goals and funnels come from the metadata store: the reports whose path names
 * one find it first (`conversionReportLookups`), as the route checks access, so an unknown id answers
 * 404 before invalid input answers 400. The dashboard's routes register them from the report registry
 * (`reports.ts`); the experiments have no dashboard read (their results are the v1 API's alone).
 * Failures are AppError 400 naming the parameter (`query/params.ts`, the funnel step selection).
 */
import type {
  FunnelSessionsQuery,
  funnelFiguresEndpoint,
  funnelSessionsEndpoint,
  getFunnelEndpoint,
  goalSessionsEndpoint,
  listGoalsEndpoint,
  QueryOf,
  savedFunnelSessionsEndpoint,
} from '@pathlight/protocol'
import type { Funnel, FunnelStep } from '../funnels/funnel.js'
import { toFunnelSteps } from '../funnels/funnel-input.js'
import { findFunnel } from '../funnels/funnels.js'
import type { Goal } from '../goals/goal.js'
import { findGoal, listGoals } from '../goals/goals.js'
import { queryFunnelReport } from '../query/funnel-report.js'
import { type FunnelSelection, queryFunnelSessions } from '../query/funnel-sessions.js'
import { queryGoalConversions } from '../query/goal-conversions.js'
import { queryGoalSessions } from '../query/goal-sessions.js'
import { invalidParameters, offsetOf } from '../query/params.js'
import { pageMeta } from './page-meta.js'
import {
  metadataOf,
  type PathOf,
  type Prepared,
  type ReportLookup,
  type ReportPartDeps,
  reportScope,
} from './report-part.js'

/**
 * The sessions reports' selection (a step, reached or dropped after it, a breakdown's value), checked
 * against the funnel's steps. @throws AppError 400 naming the parameter
 */
function selectionOf(query: FunnelSessionsQuery, steps: readonly FunnelStep[]): FunnelSelection {
  const outcome = query.outcome ?? 'reached'
  if (query.step > steps.length) throw invalidParameters({ step: [`step must be at most ${steps.length}`] })
  if (outcome === 'dropped' && query.step === steps.length) {
    throw invalidParameters({ step: ['no session drops after the last step: give a step before it'] })
  }
  if ((query.breakdown === undefined) !== (query.breakdown_value === undefined)) {
    throw invalidParameters({ breakdown_value: ['breakdown and breakdown_value go together'] })
  }
  return {
    step: query.step,
    outcome,
    ...(query.breakdown === undefined || query.breakdown_value === undefined
      ? {}
      : { breakdown: { parameter: query.breakdown, value: query.breakdown_value } }),
  }
}

/** The saved funnel a path names (`:funnelId`). @throws AppError 404 for none of the site's */
const savedFunnel: ReportLookup = (deps, siteId, params) =>
  findFunnel(metadataOf(deps, 'saved funnel'), siteId, params.funnelId)

/**
 * The lookups of the reports below whose path names a saved goal or funnel, by report name.
 * @throws AppError 404 for a goal or funnel that is not the site's (a malformed id included)
 */
export const conversionReportLookups = {
  'goal-sessions': (deps, siteId, params) =>
    findGoal(metadataOf(deps, 'goal sessions'), siteId, params.goalId),
  'saved-funnel': savedFunnel,
  'saved-funnel-sessions': savedFunnel,
} satisfies Record<string, ReportLookup>

/**
 * The conversion reports, by their name in the registry. Each takes the common query parameters;
 * the funnels' also `breakdown=<filter parameter>` (figures per value), their sessions' the step
 * selection. Answers are those of their contracts (`contracts/goals.ts`, `contracts/funnels.ts`).
 * @throws AppError 400 naming the invalid parameter, before anything runs
 */
export const conversionReportParts = {
  /** A page of the site's goals, oldest first, each with its conversions over the range. */
  goals(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof listGoalsEndpoint>,
  ): Prepared<typeof listGoalsEndpoint> {
    const scope = reportScope(deps, siteId, query)
    const db = metadataOf(deps, 'goals')
    return async () => {
      const { goals, total } = await listGoals(db, siteId, {
        offset: offsetOf(scope.params),
        limit: scope.params.limit,
      })
      return {
        data: await queryGoalConversions(deps.events, scope, goals),
        meta: pageMeta(scope.params, total),
      }
    }
  },

  /** The sessions that completed the path's goal, newest first, paginated. */
  'goal-sessions'(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof goalSessionsEndpoint>,
    path: PathOf<typeof goalSessionsEndpoint, Goal>,
  ): Prepared<typeof goalSessionsEndpoint> {
    const scope = reportScope(deps, siteId, query)
    return async () => {
      const { data, total } = await queryGoalSessions(deps.events, scope, path.found)
      return { data, meta: pageMeta(scope.params, total) }
    }
  },

  /** The path's saved funnel with its figures over the range (`results`). */
  'saved-funnel'(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof getFunnelEndpoint>,
    path: PathOf<typeof getFunnelEndpoint, Funnel>,
  ): Prepared<typeof getFunnelEndpoint> {
    const scope = reportScope(deps, siteId, query)
    const saved = path.found
    return async () => ({
      data: { ...saved, results: await queryFunnelReport(deps.events, scope, saved.steps, query.breakdown) },
    })
  },

  /** The sessions behind one step of the path's saved funnel, newest first, paginated. */
  'saved-funnel-sessions'(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof savedFunnelSessionsEndpoint>,
    path: PathOf<typeof savedFunnelSessionsEndpoint, Funnel>,
  ): Prepared<typeof savedFunnelSessionsEndpoint> {
    const scope = reportScope(deps, siteId, query)
    const { steps } = path.found
    const selection = selectionOf(query, steps)
    return async () => {
      const { data, total } = await queryFunnelSessions(deps.events, scope, steps, selection)
      return { data, meta: pageMeta(scope.params, total) }
    }
  },

  /** The figures of the body's ad-hoc funnel over the range. */
  'funnel-figures'(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof funnelFiguresEndpoint>,
    path: PathOf<typeof funnelFiguresEndpoint>,
  ): Prepared<typeof funnelFiguresEndpoint> {
    const scope = reportScope(deps, siteId, query)
    const steps = toFunnelSteps(path.body.steps)
    return async () => ({ data: await queryFunnelReport(deps.events, scope, steps, query.breakdown) })
  },

  /** The sessions behind one step of the body's ad-hoc funnel, newest first, paginated. */
  'funnel-sessions'(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof funnelSessionsEndpoint>,
    path: PathOf<typeof funnelSessionsEndpoint>,
  ): Prepared<typeof funnelSessionsEndpoint> {
    const scope = reportScope(deps, siteId, query)
    const steps = toFunnelSteps(path.body.steps)
    const selection = selectionOf(query, steps)
    return async () => {
      const { data, total } = await queryFunnelSessions(deps.events, scope, steps, selection)
      return { data, meta: pageMeta(scope.params, total) }
    }
  },
}
