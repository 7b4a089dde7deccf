/**
 * Goal conversions over a range, for a page of goals in one query:
 * - total_sessions: counted sessions (`sessionMetrics.sessions`: sessions with an event in the range
 *   passing the filters);
 * - total_conversions: those of them with at least one event in the range that matches the goal
 *   (the goal's event itself need not pass the event filters: "of the sessions that visited /pricing,
 *   how many signed up");
 * - conversion_rate: total_conversions / total_sessions, a fraction 0..1 (0 when no sessions).
 * Pipeline: plan (`ReportScope` + goals) -> `compileGoalConversions` -> `runReport` -> `toGoalConversions`.
 */
import type { Goal, GoalWithConversions } from '../goals/goal.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { goalCondition } from './goal-condition.js'
import { eventMetrics, SESSION_KEY, sessionMetrics } from './metrics.js'
import { filtersOf, type ReportScope, SCOPE_SQL, scopeOf } from './report-scope.js'
import { runReport } from './run-report.js'
import { sessionsSubquery } from './sessions-subquery.js'

/**
 * One row: `total_sessions` and `conversions`, an array in the order of `goals`. Without filters a
 * single pass counts distinct session keys overall and per goal (faster than grouping by session:
 * bench/README.md "query: the analytics read side"); with filters, sessions are grouped to apply them
 * (`sessionsSubquery`).
 */
export function compileGoalConversions(scope: ReportScope, goals: readonly Goal[]): CompiledQuery {
  const filters = filtersOf(scope)
  const params: Record<string, unknown> = { ...scopeOf(scope).params, ...filters.params }
  const conditions = goals.map((goal, i) => {
    const condition = goalCondition(goal, `g${i}`)
    Object.assign(params, condition.params)
    return condition.sql
  })
  if (filters.event === null && filters.session === null) {
    const conversions = conditions.map((condition) => `uniqExactIf(${SESSION_KEY}, ${condition})`).join(', ')
    return {
      sql: [
        `SELECT ${eventMetrics.sessions.sql} AS total_sessions, [${conversions}] AS conversions`,
        'FROM events',
        `WHERE ${SCOPE_SQL}`,
      ].join('\n'),
      params,
    }
  }
  const inner = sessionsSubquery(
    filters,
    conditions.map((condition, i) => ({ sql: `countIf(${condition})`, as: `goal_${i}` })),
  )
  const conversions = goals.map((_, i) => `countIf(goal_${i} > 0)`).join(', ')
  return {
    sql: [
      `SELECT ${sessionMetrics.sessions.sql} AS total_sessions, [${conversions}] AS conversions`,
      `FROM (\n${inner}\n)`,
    ].join('\n'),
    params,
  }
}

/** Attach the figures to the goals. */
export function toGoalConversions(
  goals: readonly Goal[],
  rows: readonly { total_sessions: number | string; conversions: (number | string)[] }[],
): GoalWithConversions[] {
  const totalSessions = Number(rows[0]?.total_sessions ?? 0)
  return goals.map((goal, i) => {
    const conversions = Number(rows[0]?.conversions[i] ?? 0)
    return {
      ...goal,
      total_conversions: conversions,
      total_sessions: totalSessions,
      conversion_rate: totalSessions === 0 ? 0 : conversions / totalSessions,
    }
  })
}

/** Conversion figures of the given goals over the scope; no query when there are no goals. */
export async function queryGoalConversions(
  events: EventsStore,
  scope: ReportScope,
  goals: readonly Goal[],
): Promise<GoalWithConversions[]> {
  if (goals.length === 0) return []
  const rows = await runReport<{ total_sessions: number; conversions: number[] }>(
    events,
    compileGoalConversions(scope, goals),
    'goal-conversions',
  )
  return toGoalConversions(goals, rows)
}
