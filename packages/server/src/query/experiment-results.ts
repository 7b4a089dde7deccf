/**
 * An A/B experiment's results over a range, per variant, in one query.
 *
 * Definitions:
 * - An exposure is an event of the site in the range (any type; typically a custom event) whose
 *   `properties` JSON object holds `"experiment"` equal to the experiment's key and `"variant"` equal
 *   to one of its variant names (exact, case-sensitive string comparison; other variant names and
 *   non-string values are not exposures).
 * - A session is exposed when it has an exposure in the range, and counts for the variant of its first
 *   exposure (its first in `EVENT_ORDER`: earliest timestamp, equal timestamps by event id). A session
 *   exposed to two or more variants (a crossover: the site's assignment was not sticky) still counts
 *   once, in its first variant; `crossovers` says how many sessions did so.
 * - A conversion is an exposed session with an event matching the goal (`goal-condition.ts`) at or
 *   after its first exposure (an event can be both). Goal events before the first exposure do not
 *   count: the variant cannot have caused them.
 * - Only a session's events in the range count (as everywhere, `metrics.ts`): a session whose first
 *   exposure fell before the range counts from its first exposure inside it, if any.
 * - Filters restrict which sessions count (`filters.ts`): a session counts when at least one of its
 *   events in the range passes the event filters and it passes the session filters; its exposures and
 *   goal events need not pass them themselves.
 * Statistics per variant against the control: `experiments/two-proportion-test.ts`.
 * Pipeline: plan (`ReportScope` + experiment + goal) -> `compileExperimentResults` -> `runReport` ->
 * `toExperimentResults`.
 */
import type { Experiment, ExperimentResults, VariantResult } from '../experiments/experiment.js'
import { compareWithControl } from '../experiments/two-proportion-test.js'
import type { GoalDefinition } from '../goals/goal.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { goalCondition } from './goal-condition.js'
import { EVENT_ORDER_KEY, SESSION_KEY } from './metrics.js'
import { filtersOf, type ReportScope, SCOPE_SQL, scopeOf } from './report-scope.js'
import { runReport } from './run-report.js'
import { sessionHaving } from './sessions-subquery.js'

/** What the query needs of an experiment. */
export type ExperimentPlan = Pick<Experiment, 'key' | 'variants'>

/** One row per variant that has exposed sessions. `conversions` only when there is a goal. */
export interface ExperimentResultRow {
  variant_name: string
  exposed_sessions: number | string
  conversions?: number | string
  crossovers: number | string
}

const VARIANT = "JSONExtractString(properties, 'variant')"
const EXPOSURE =
  "JSONExtractString(properties, 'experiment') = {experiment:String}" +
  ` AND ${VARIANT} IN {variants:Array(String)}`

/**
 * Group the scope's events by session, keep the exposed sessions that pass the filters, and count
 * them per first variant. Without filters only exposures and goal events are read into the groups
 * (nothing else can change the figures). Placeholders: the scope's `site`, `from`, `to`; the
 * filters' `f*`; `experiment` (the key), `variants` (the variant names); the goal's `g_*`.
 * @param goal the goal's definition; null (its goal was deleted) leaves conversions out
 */
export function compileExperimentResults(
  scope: ReportScope,
  experiment: ExperimentPlan,
  goal: GoalDefinition | null,
): CompiledQuery {
  const filters = filtersOf(scope)
  const params: Record<string, unknown> = {
    ...scopeOf(scope).params,
    ...filters.params,
    experiment: experiment.key,
    variants: experiment.variants.map((v) => v.name),
  }
  const condition = goal === null ? null : goalCondition(goal, 'g')
  if (condition) Object.assign(params, condition.params)

  const perSession = [
    `${SESSION_KEY} AS session_key`,
    `argMinIf(${VARIANT}, ${EVENT_ORDER_KEY}, ${EXPOSURE}) AS first_variant`,
    `uniqExactIf(${VARIANT}, ${EXPOSURE}) AS variants_seen`,
    ...(condition
      ? [
          `(countIf(${condition.sql}) > 0` +
            ` AND maxIf(timestamp, ${condition.sql}) >= minIf(timestamp, ${EXPOSURE})) AS converted`,
        ]
      : []),
  ]
  const unfiltered = filters.event === null && filters.session === null
  const relevant = condition ? `(${EXPOSURE}) OR (${condition.sql})` : EXPOSURE
  const filterHaving = sessionHaving(filters)
  const having = `countIf(${EXPOSURE}) > 0${filterHaving ? ` AND ${filterHaving}` : ''}`
  const perVariant = [
    'first_variant AS variant_name',
    'count() AS exposed_sessions',
    ...(condition ? ['countIf(converted) AS conversions'] : []),
    'countIf(variants_seen > 1) AS crossovers',
  ]
  return {
    sql: [
      `SELECT ${perVariant.join(', ')}`,
      'FROM (',
      `SELECT ${perSession.join(', ')}`,
      'FROM events',
      `WHERE ${SCOPE_SQL}${unfiltered ? ` AND (${relevant})` : ''}`,
      'GROUP BY session_key',
      `HAVING ${having}`,
      ')',
      'GROUP BY variant_name',
      'ORDER BY variant_name',
    ].join('\n'),
    params,
  }
}

/**
 * Per-variant figures and statistics from the rows, in the experiment's variant order (a variant
 * without a row has 0 exposed sessions).
 * @param hasGoal false when the goal was deleted: conversions, rates and statistics are null
 */
export function toExperimentResults(
  experiment: ExperimentPlan,
  hasGoal: boolean,
  rows: readonly ExperimentResultRow[],
): ExperimentResults {
  const byName = new Map(rows.map((row) => [row.variant_name, row]))
  const counts = experiment.variants.map((variant) => {
    const row = byName.get(variant.name)
    return {
      variant,
      sessions: Number(row?.exposed_sessions ?? 0),
      conversions: Number(row?.conversions ?? 0),
    }
  })
  const control = counts.find((c) => c.variant.control)
  const variants = counts.map(({ variant, sessions, conversions }): VariantResult => {
    const comparison =
      hasGoal && control && !variant.control
        ? compareWithControl(control, { sessions, conversions })
        : { uplift: null, zScore: null, pValue: null, ci95: null }
    return {
      name: variant.name,
      control: variant.control,
      exposedSessions: sessions,
      conversions: hasGoal ? conversions : null,
      conversionRate: hasGoal && sessions > 0 ? conversions / sessions : null,
      ...comparison,
    }
  })
  return {
    variants,
    crossovers: rows.reduce((sum, row) => sum + Number(row.crossovers), 0),
    totalExposedSessions: variants.reduce((sum, v) => sum + v.exposedSessions, 0),
  }
}

/**
 * An experiment's results over the scope (see the module comment for the definitions).
 * @param goal the experiment's goal; null when it has none (deleted): exposures only
 * @throws AppError 400 when the store refuses a request value (`runReport`)
 */
export async function queryExperimentResults(
  events: EventsStore,
  scope: ReportScope,
  experiment: ExperimentPlan,
  goal: GoalDefinition | null,
): Promise<ExperimentResults> {
  const rows = await runReport<ExperimentResultRow>(
    events,
    compileExperimentResults(scope, experiment, goal),
    'experiment-results',
  )
  return toExperimentResults(experiment, goal !== null, rows)
}
