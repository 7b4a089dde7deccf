/**
 * The funnel report: per step, the sessions that reached it (`funnel-matches.ts` for the exact
 * definition), the conversion rates, the drop-off and the median time from the previous step;
 * optionally the same per value of a breakdown parameter (top 10 values by sessions at step 1, then
 * value ascending).
 * - `conversionFromPrevious`: sessions / sessions of the previous step, a fraction (1 for step 1 with
 *   sessions; 0 when the previous step has none); `conversionFromStart`: sessions / sessions of step 1.
 * - `dropoff`: sessions of the previous step minus this step's (0 for step 1).
 * - `medianSecondsFromPrevious`: the median over the sessions reaching the step of t(k) - t(k-1), the
 *   middle value, or the mean of the two middle values for an even count (`quantileExactInclusive`),
 *   rounded to whole seconds (half up); null for step 1 and for a step no session reached.
 * Pipeline: plan (`ReportScope` + steps) -> `compileFunnelReport` -> `runReport` -> `toFunnelSteps`.
 */
import type { FunnelStepResult, FunnelReport as WireFunnelReport } from '@pathlight/protocol'
import type { FunnelStep } from '../funnels/funnel.js'
import { stepLabel } from '../funnels/funnel.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import type { FilterParameter } from './filters.js'
import { funnelMatches } from './funnel-matches.js'
import type { ReportScope } from './report-scope.js'
import { runReport } from './run-report.js'

/** Breakdown values listed at most. */
export const FUNNEL_BREAKDOWN_VALUES = 10

/** One row of the report query: per step, sessions and the median milliseconds from the previous one. */
interface FunnelRow {
  /** With a breakdown: 1 on the row over every session, 0 on a value's row. */
  overall?: number | string
  value?: string
  sessions: (number | string)[]
  median_ms: (number | string | null)[]
}

/**
 * One row without a breakdown. With one: the row over every session first (`overall` 1), then up to 10
 * (one per breakdown value, ordered), from one pass over the sessions (`GROUPING SETS`): a second query
 * for the overall row read the range's events again beside the first (bench/README.md "A funnel with a
 * breakdown in one query").
 */
export function compileFunnelReport(
  scope: ReportScope,
  steps: readonly FunnelStep[],
  breakdown?: FilterParameter,
): CompiledQuery {
  const matches = funnelMatches(scope, steps, breakdown)
  const ms = (k: number) => `toUnixTimestamp64Milli(assumeNotNull(t${k}))`
  const sessions = steps.map((_, i) => `countIf(t${i + 1} IS NOT NULL)`)
  const medians = steps.map((_, i) =>
    i === 0 ? 'NULL' : `quantileExactInclusiveIf(0.5)(${ms(i + 1)} - ${ms(i)}, t${i + 1} IS NOT NULL)`,
  )
  const select = `[${sessions.join(', ')}] AS sessions, [${medians.join(', ')}] AS median_ms`
  if (breakdown === undefined) {
    return { sql: `SELECT ${select}\nFROM (\n${matches.sql}\n)`, params: matches.params }
  }
  return {
    sql: [
      `SELECT grouping(breakdown_value) AS overall, breakdown_value AS value, ${select}`,
      `FROM (\n${matches.sql}\n)`,
      'GROUP BY GROUPING SETS ((), (breakdown_value))',
      'ORDER BY overall DESC, sessions[1] DESC, value ASC',
      `LIMIT ${FUNNEL_BREAKDOWN_VALUES + 1}`,
    ].join('\n'),
    params: matches.params,
  }
}

/** Shape one row's figures into the steps of the answer. */
export function toFunnelSteps(steps: readonly FunnelStep[], row: FunnelRow | undefined): FunnelStepResult[] {
  const counts = steps.map((_, i) => Number(row?.sessions[i] ?? 0))
  const start = counts[0] ?? 0
  return steps.map((step, i) => {
    const sessions = counts[i] ?? 0
    const previous = i === 0 ? sessions : (counts[i - 1] ?? 0)
    const median = row?.median_ms[i]
    return {
      step: i + 1,
      name: stepLabel(step),
      sessions,
      conversionFromPrevious: previous === 0 ? 0 : sessions / previous,
      conversionFromStart: start === 0 ? 0 : sessions / start,
      dropoff: previous - sessions,
      medianSecondsFromPrevious:
        i === 0 || sessions === 0 || median === null || median === undefined
          ? null
          : Math.round(Number(median) / 1000),
    }
  })
}

/** A funnel's figures: `steps` overall, and with a breakdown `breakdown` per value (the protocol's). */
export type FunnelReport = WireFunnelReport

/**
 * The funnel's figures over the scope, with a breakdown per value too (one events query either way).
 * @throws AppError 400 when the events store refuses a request value (a regex filter, a time zone)
 */
export async function queryFunnelReport(
  events: EventsStore,
  scope: ReportScope,
  steps: readonly FunnelStep[],
  breakdown?: FilterParameter,
): Promise<FunnelReport> {
  if (breakdown === undefined) {
    const [row] = await runReport<FunnelRow>(events, compileFunnelReport(scope, steps), 'funnel')
    return { steps: toFunnelSteps(steps, row) }
  }
  const rows = await runReport<FunnelRow>(
    events,
    compileFunnelReport(scope, steps, breakdown),
    'funnel-breakdown',
  )
  // No row at all when no session matched step 1: every figure 0, as without a breakdown.
  const isOverall = (row: FunnelRow) => Number(row.overall) === 1
  return {
    steps: toFunnelSteps(steps, rows.find(isOverall)),
    breakdown: {
      parameter: breakdown,
      values: rows
        .filter((row) => !isOverall(row))
        .map((row) => ({ value: String(row.value), steps: toFunnelSteps(steps, row) })),
    },
  }
}
