/**
 * Occurrences of one error message (spec "ErrorEvent"), newest first (`EVENT_ORDER` reversed: equal
 * timestamps by event id, descending), paginated by `page`/`limit`:
 * error events in the range passing the filters whose `error_message` equals the message exactly.
 * Rows are the protocol's `ErrorEvent`: `stack` has its lines separated by '\n', `lineNumber` and
 * `columnNumber` are 1-based, 0 when unknown.
 * Pipeline: plan (`ReportScope` + message) -> `compileErrorEvents` -> `runReport` -> `toErrorEvent`.
 */
import type { ErrorEvent } from '@pathlight/protocol'
import { fromClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { errorConditions } from './error-conditions.js'
import { offsetOf } from './params.js'
import type { ReportScope } from './report-scope.js'
import { runReport } from './run-report.js'

const selected = [
  'timestamp',
  'session_id',
  'user_id',
  'pathname',
  'hostname',
  'browser',
  'browser_version',
  'operating_system',
  'device_type',
  'country',
  'error_message',
  'error_stack',
  'error_file',
  'error_line',
  'error_column',
] as const

type ErrorEventRow = Record<(typeof selected)[number], string | number>

/** A page of occurrences of one message (placeholders: scope, filters, `message`, `limit`, `offset`). */
export function compileErrorEvents(scope: ReportScope, message: string): CompiledQuery {
  const { where, params } = errorConditions(scope)
  return {
    sql: [
      `SELECT ${selected.join(', ')}, count() OVER () AS total_events`,
      'FROM events',
      `WHERE ${[...where, 'error_message = {message:String}'].join(' AND ')}`,
      'ORDER BY timestamp DESC, toUInt128(event_id) DESC',
      'LIMIT {limit:UInt32} OFFSET {offset:UInt32}',
    ].join('\n'),
    params: { ...params, message, limit: scope.params.limit, offset: offsetOf(scope.params) },
  }
}

/** Shape one result row (timestamps from ClickHouse text to ISO 8601 UTC). */
export function toErrorEvent(row: ErrorEventRow): ErrorEvent {
  return {
    timestamp: fromClickHouseTime(String(row.timestamp)),
    session_id: String(row.session_id),
    user_id: String(row.user_id),
    pathname: String(row.pathname),
    hostname: String(row.hostname),
    browser: String(row.browser),
    browser_version: String(row.browser_version),
    operating_system: String(row.operating_system),
    device_type: String(row.device_type),
    country: String(row.country),
    message: String(row.error_message),
    stack: String(row.error_stack),
    fileName: String(row.error_file),
    lineNumber: Number(row.error_line),
    columnNumber: Number(row.error_column),
  }
}

/** A page of occurrences of `message` in the scope, and how many all pages hold (0 past the last page). */
export async function queryErrorEvents(
  events: EventsStore,
  scope: ReportScope,
  message: string,
): Promise<{ data: ErrorEvent[]; total: number }> {
  const rows = await runReport<ErrorEventRow & { total_events: number }>(
    events,
    compileErrorEvents(scope, message),
    'error-events',
  )
  return { data: rows.map(toErrorEvent), total: rows.length > 0 ? Number(rows[0]?.total_events) : 0 }
}
