/**
 * The per-session table that session-level reports aggregate over: one row per session with at least
 * one event in the scope, grouped from the events table, keeping only sessions that pass the filters
 * (at least one event passing the event filters, and the session filters on entry/exit page).
 */
import type { CompiledFilters } from './filters.js'
import { SESSION_KEY, sessionColumns } from './metrics.js'
import { SCOPE_SQL } from './report-scope.js'

/** The name of a per-session column (`sessionColumns` in `metrics.ts`). */
export type SessionColumn = keyof typeof sessionColumns

/**
 * `SELECT cityHash64(session_id) AS session_key, <columns> FROM events WHERE <scope>
 *  GROUP BY session_key [HAVING <filters>]` (see `SESSION_KEY` in `metrics.ts`).
 * Uses the scope's placeholders `site`, `from`, `to` and the filters' own.
 * @param columns per-session columns by name, plus `matched_pageview_count` (pageviews passing the event
 *   filters) and extra `expr AS alias` strings
 * @param where an extra condition on the events grouped (e.g. `cityHash64(session_id) IN (...)`)
 */
export function sessionsSubquery(
  filters: CompiledFilters,
  columns: readonly (SessionColumn | 'matched_pageview_count' | { sql: string; as: string })[],
  where?: string,
): string {
  const select = columns.map((column) => {
    if (typeof column === 'object') return `${column.sql} AS ${column.as}`
    if (column === 'matched_pageview_count') {
      return filters.event === null
        ? `${sessionColumns.pageview_count} AS matched_pageview_count`
        : `countIf(type = 'pageview' AND (${filters.event})) AS matched_pageview_count`
    }
    return `${sessionColumns[column]} AS ${column}`
  })
  const having = sessionHaving(filters)
  return [
    `SELECT ${SESSION_KEY} AS session_key, ${select.join(', ')}`,
    'FROM events',
    `WHERE ${SCOPE_SQL}${where ? ` AND ${where}` : ''}`,
    'GROUP BY session_key',
    ...(having ? [`HAVING ${having}`] : []),
  ].join('\n')
}

/** The HAVING condition that keeps sessions passing the filters; null when there are no filters. */
export function sessionHaving(filters: CompiledFilters): string | null {
  const parts = [
    ...(filters.event === null ? [] : [`countIf(${filters.event}) > 0`]),
    ...(filters.session === null ? [] : [filters.session]),
  ]
  return parts.length > 0 ? parts.join(' AND ') : null
}

/**
 * For event-level reports: `<session key> IN (sessions passing the session filters)`, or null when
 * there are no session filters (event filters go into the report's own WHERE).
 */
export function sessionFilterRestriction(filters: CompiledFilters): string | null {
  if (filters.session === null) return null
  return `${SESSION_KEY} IN (SELECT ${SESSION_KEY} AS session_key FROM events WHERE ${SCOPE_SQL} GROUP BY session_key HAVING ${filters.session})`
}
