/**
 * Custom event names of the scope with their counts: `events` (occurrences) and `sessions` (distinct
 * sessions that fired it), most frequent first, paginated; `total` is the number of distinct names.
 * Rows are the protocol's `EventName` (also `visitors`: distinct visitors that fired it).
 */
import type { EventName } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { eventMetrics } from './metrics.js'
import { offsetOf } from './params.js'
import { filtersOf, type ReportScope, SCOPE_SQL, scopeOf } from './report-scope.js'
import { runReport } from './run-report.js'
import { sessionFilterRestriction } from './sessions-subquery.js'

export function compileEventNames(scope: ReportScope): CompiledQuery {
  const filters = filtersOf(scope)
  const where = [SCOPE_SQL, "type = 'custom_event'"]
  if (filters.event) where.push(`(${filters.event})`)
  const restriction = sessionFilterRestriction(filters)
  if (restriction) where.push(restriction)
  return {
    sql: [
      `SELECT event_name AS name, count() AS events, ${eventMetrics.sessions.sql} AS sessions,`,
      `  ${eventMetrics.visitors.sql} AS visitors, count() OVER () AS total_names`,
      'FROM events',
      `WHERE ${where.join(' AND ')}`,
      'GROUP BY name',
      'ORDER BY events DESC, name ASC',
      'LIMIT {limit:UInt32} OFFSET {offset:UInt32}',
    ].join('\n'),
    params: {
      ...scopeOf(scope).params,
      ...filters.params,
      limit: scope.params.limit,
      offset: offsetOf(scope.params),
    },
  }
}

export async function queryEventNames(
  events: EventsStore,
  scope: ReportScope,
): Promise<{ data: EventName[]; total: number }> {
  const rows = await runReport<Record<string, unknown>>(events, compileEventNames(scope), 'event-names')
  return {
    data: rows.map((r) => ({
      name: String(r.name),
      events: Number(r.events),
      sessions: Number(r.sessions),
      visitors: Number(r.visitors),
    })),
    total: rows.length > 0 ? Number(rows[0]?.total_names) : 0,
  }
}
