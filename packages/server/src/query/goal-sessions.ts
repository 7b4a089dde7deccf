/**
 * The sessions that completed a goal (spec "Session", the protocol's `Session`), newest first (by
 * first event, then session id descending), paginated. A session is listed when it is counted (passes
 * the filters, see `filters.ts`) and has at least one event in the range matching the goal; its fields
 * are computed from all its events in the range (`sessionColumns` in `metrics.ts`).
 * Pipeline: plan (`ReportScope` + goal) -> `compileGoalSessions` -> `runReport` -> `toSession`.
 */
import type { Session } from '@pathlight/protocol'
import type { GoalDefinition } from '../goals/goal.js'
import { fromClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { goalCondition } from './goal-condition.js'
import { SESSION_KEY } from './metrics.js'
import { offsetOf } from './params.js'
import { filtersOf, type ReportScope, SCOPE_SQL, scopeOf } from './report-scope.js'
import { runReport } from './run-report.js'
import { type SessionColumn, sessionsSubquery } from './sessions-subquery.js'

/**
 * The per-session columns a Session object (the protocol's `Session`: timestamps ISO 8601 UTC with ms,
 * `session_duration` whole seconds, `referrer` the first event's referrer URL or '') is made of (shared with `session-list.ts`). */
export const sessionObjectColumns = [
  'session_uuid',
  'visitor_id',
  'entry_country',
  'entry_browser',
  'entry_operating_system',
  'entry_device_type',
  'entry_page',
  'exit_page',
  'pageview_count',
  'duration_seconds',
  'started_at',
  'ended_at',
  'entry_referrer',
  'entry_channel',
] as const satisfies readonly SessionColumn[]

type SessionRow = Record<(typeof sessionObjectColumns)[number], string | number>

/** The page of converted sessions. */
export function compileGoalSessions(scope: ReportScope, goal: GoalDefinition): CompiledQuery {
  const filters = filtersOf(scope)
  const condition = goalCondition(goal, 'g')
  const converted = `${SESSION_KEY} IN (SELECT ${SESSION_KEY} FROM events WHERE ${SCOPE_SQL} AND ${condition.sql})`
  return {
    sql: [
      'SELECT *, count() OVER () AS total_sessions FROM (',
      sessionsSubquery(filters, sessionObjectColumns, converted),
      ')',
      'ORDER BY started_at DESC, session_uuid DESC',
      'LIMIT {limit:UInt32} OFFSET {offset:UInt32}',
    ].join('\n'),
    params: {
      ...scopeOf(scope).params,
      ...filters.params,
      ...condition.params,
      limit: scope.params.limit,
      offset: offsetOf(scope.params),
    },
  }
}

/** Shape one result row. */
export function toSession(row: SessionRow): Session {
  return {
    session_id: String(row.session_uuid),
    user_id: String(row.visitor_id),
    country: String(row.entry_country),
    browser: String(row.entry_browser),
    operating_system: String(row.entry_operating_system),
    device_type: String(row.entry_device_type),
    entry_page: String(row.entry_page),
    exit_page: String(row.exit_page),
    pageviews: Number(row.pageview_count),
    session_duration: Number(row.duration_seconds),
    session_start: fromClickHouseTime(String(row.started_at)),
    session_end: fromClickHouseTime(String(row.ended_at)),
    referrer: String(row.entry_referrer),
    channel: String(row.entry_channel),
  }
}

/** A page of the sessions of the scope that completed the goal, and how many all pages hold. */
export async function queryGoalSessions(
  events: EventsStore,
  scope: ReportScope,
  goal: GoalDefinition,
): Promise<{ data: Session[]; total: number }> {
  const rows = await runReport<SessionRow & { total_sessions: number }>(
    events,
    compileGoalSessions(scope, goal),
    'goal-sessions',
  )
  return { data: rows.map(toSession), total: rows.length > 0 ? Number(rows[0]?.total_sessions) : 0 }
}
