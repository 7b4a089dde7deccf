/**
 * All counted sessions of the scope (the protocol's `Session` objects), newest first, paginated; the
 * v1 API's `/sessions`. Same columns and definitions as the goal sessions listing (`goal-sessions.ts`),
 * without the goal condition; `total` is the number of counted sessions.
 */
import type { Session } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { sessionObjectColumns, toSession } from './goal-sessions.js'
import { offsetOf } from './params.js'
import { filtersOf, type ReportScope, scopeOf } from './report-scope.js'
import { runReport } from './run-report.js'
import { sessionsSubquery } from './sessions-subquery.js'

export function compileSessionList(scope: ReportScope): CompiledQuery {
  const filters = filtersOf(scope)
  return {
    sql: [
      'SELECT *, count() OVER () AS total_sessions FROM (',
      sessionsSubquery(filters, sessionObjectColumns),
      ')',
      'ORDER BY started_at DESC, session_uuid DESC',
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

export async function querySessionList(
  events: EventsStore,
  scope: ReportScope,
): Promise<{ data: Session[]; total: number }> {
  const rows = await runReport<Parameters<typeof toSession>[0] & { total_sessions: number }>(
    events,
    compileSessionList(scope),
    'session-list',
  )
  return { data: rows.map(toSession), total: rows.length > 0 ? Number(rows[0]?.total_sessions) : 0 }
}
