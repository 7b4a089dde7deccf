/**
 * `time_on_page` over raw events, as the dashboard's pages report defines it (`query/page-stats.ts`):
 * the mean seconds from a pageview to the next pageview of its session (next in `EVENT_ORDER`), over
 * the pageviews that pass the filter tree and have a next one; null when none has. Grouped by the
 * query's dimensions (its `event:page` the pageview's page).
 */
import type { CompiledQuery } from '../query/compiled-query.js'
import { EVENT_ORDER, SESSION_KEY } from '../query/metrics.js'
import { createBinder, filterSql } from './filter-sql.js'
import { dimensionsSqlOf, scopeSql, sessionRowSql } from './raw-sql.js'
import type { ReportQuery, ResolvedRange } from './report-query.js'

/** Rows `d0`, `d1`, ... and `time_on_page` (seconds, unrounded; null without a measurable pageview). */
export function timeOnPageSql(query: ReportQuery, range: ResolvedRange): CompiledQuery {
  const binder = createBinder(query.goals)
  const scope = scopeSql(query, range, binder)
  const tree = query.filters.length === 0 ? '1' : query.filters.map((f) => filterSql(f, binder)).join(' AND ')
  const dimensions = dimensionsSqlOf(query, query.dimensions, binder)
  const d = dimensions.map((_, i) => `d${i}`)
  const lines = [
    `SELECT ${[...dimensions.map((sql, i) => `toString(${sql}) AS d${i}`), "avgIf(dateDiff('millisecond', timestamp, next_at) / 1000, next_at IS NOT NULL) AS time_on_page"].join(', ')}`,
    `FROM (SELECT *, property_map, leadInFrame(toNullable(timestamp)) OVER (PARTITION BY ${SESSION_KEY} ORDER BY ${EVENT_ORDER}`,
    `  ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) AS next_at FROM events WHERE ${scope} AND type = 'pageview') AS events`,
    `INNER JOIN (${sessionRowSql(scope)}) AS s ON s.session_key = cityHash64(events.session_id)`,
    `WHERE ${tree}`,
    ...(d.length > 0 ? [`GROUP BY ${d.join(', ')}`] : []),
  ]
  return { sql: lines.join('\n'), params: binder.params }
}
