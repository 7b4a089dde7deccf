/**
 * The countries, regions, cities, languages, browsers, operating systems, device types and UTM
 * breakdowns from the `session_dimension_hours` rollup
 * (`storage/events/migrations/004-session-dimension-hours.ts`) instead of raw events. Its rows carry
 * each session's and visitor's hash with the values their events had in an hour: pageviews are
 * summed exactly; visitors and sessions are counted over the same hashes the raw report counts
 * (`VISITOR_KEY`, `SESSION_KEY` of `metrics.ts`) with `uniqCombined64`, exact for small sets and
 * within 1 % above, as the other rolled reports estimate them. `uniqExact` gave the raw figures
 * to the unit but was much slower over a year (bench/README.md "Regions, cities, languages and UTM from
 * `session_dimension_hours`"). A session cut by the range's edge keeps only its
 * hours inside, as the raw report keeps only its events inside.
 */
import type { BreakdownMetric } from '@pathlight/protocol'
import {
  SESSION_DIMENSION_COLUMNS,
  type SessionDimensionColumn,
} from '../../storage/events/rollup-schema/session-dimension-hours.js'
import { ROLLUP_SCOPE_SQL } from './rolled-sessions.js'

/** Each count of a breakdown row over `session_dimension_hours` rows. */
const rolledDimensionCounts: Record<BreakdownMetric, string> = {
  visitors: 'uniqCombined64(visitor)',
  sessions: 'uniqCombined64(session_key)',
  pageviews: 'sum(pageview_count)',
}

/** Whether `session_dimension_hours` holds the `events` column. */
export const isSessionDimensionColumn = (column: string): column is SessionDimensionColumn =>
  (SESSION_DIMENSION_COLUMNS as readonly string[]).includes(column)

/**
 * A breakdown by `column` over the scope's hours (placeholders `site`, `from`, `to`), rows `value`, the
 * `counts` (visitors among them) and `total_values`, sorted by visitors then value, as the raw breakdown.
 * @param condition extra condition on the table's columns (the filters on the broken-down column), or null
 * @param page the `LIMIT ... OFFSET ...` clause
 */
export function rolledDimensionBreakdownSql(
  column: SessionDimensionColumn,
  counts: readonly BreakdownMetric[],
  condition: string | null,
  page: string,
): string {
  const select = counts.map((count) => `${rolledDimensionCounts[count]} AS ${count}`).join(', ')
  return [
    `SELECT ${column} AS value, ${select}, count() OVER () AS total_values`,
    'FROM session_dimension_hours',
    `WHERE ${ROLLUP_SCOPE_SQL}${condition === null ? '' : ` AND ${condition}`}`,
    'GROUP BY value',
    'ORDER BY visitors DESC, value ASC',
    page,
  ].join('\n')
}
