/**
 * All counted sessions of the scope (the protocol's `Session` objects), newest first, paginated; the
 * v1 API's `/sessions`. Same columns and definitions as the goal sessions listing (`goal-sessions.ts`),
 * without the goal condition; `total` is the number of counted sessions. With `onlyReplayed`, only the
 * sessions holding a live session replay recording (`replay` table, rows not past `expires_at`), and
 * `total` counts those.
 */
import type { Session } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { sessionObjectColumns, toSession } from './goal-sessions.js'
import { offsetOf } from './params.js'
import { filtersOf, type ReportScope, scopeOf } from './report-scope.js'
import { runReport } from './run-report.js'
import { sessionsSubquery } from './sessions-subquery.js'

/** Events of sessions with a live recording (both tables live in the events store). */
export const REPLAYED_SESSIONS_SQL =
  'session_id IN (SELECT session_id FROM replay WHERE site_id = {site:UInt32} AND expires_at > now())'

/** What narrows the list beyond the scope and its filters. */
export interface SessionListOptions {
  /** Only sessions with a session replay recording (`has_replay=true`). */
  onlyReplayed?: boolean
}

/** The page of sessions of `scope` (see the module comment). */
export function compileSessionList(scope: ReportScope, options: SessionListOptions = {}): CompiledQuery {
  const filters = filtersOf(scope)
  return {
    sql: [
      'SELECT *, count() OVER () AS total_sessions FROM (',
      sessionsSubquery(
        filters,
        sessionObjectColumns,
        options.onlyReplayed ? REPLAYED_SESSIONS_SQL : undefined,
      ),
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

/** Run `compileSessionList`: the page's sessions and the number of sessions in all. */
export async function querySessionList(
  events: EventsStore,
  scope: ReportScope,
  options: SessionListOptions = {},
): Promise<{ data: Session[]; total: number }> {
  const rows = await runReport<Parameters<typeof toSession>[0] & { total_sessions: number }>(
    events,
    compileSessionList(scope, options),
    'session-list',
  )
  return { data: rows.map(toSession), total: rows.length > 0 ? Number(rows[0]?.total_sessions) : 0 }
}
