/**
 * Occurrences of one error message (spec "ErrorEvent"), newest first, paginated by `page`/`limit`:
 * error events in the range passing the filters whose `error_message` equals the message exactly.
 * Pipeline: plan (`ReportScope` + message) -> `compileErrorEvents` -> `runReport` -> `toErrorEvent`.
 */
import { fromClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { errorConditions } from './error-conditions.js'
import { offsetOf } from './params.js'
import type { ReportScope } from './report-scope.js'
import { runReport } from './run-report.js'

/** The spec's ErrorEvent. `lineNumber`/`columnNumber` are 1-based, 0 when unknown. */
export interface ErrorEvent {
  timestamp: string
  session_id: string
  user_id: string
  pathname: string
  hostname: string
  browser: string
  browser_version: string
  operating_system: string
  device_type: string
  country: string
  message: string
  /** Stack trace, lines separated by '\n'. */
  stack: string
  fileName: string
  lineNumber: number
  columnNumber: number
}

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
      `SELECT ${selected.join(', ')}`,
      'FROM events',
      `WHERE ${[...where, 'error_message = {message:String}'].join(' AND ')}`,
      'ORDER BY timestamp DESC, event_id DESC',
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

/** A page of occurrences of `message` in the scope. */
export async function queryErrorEvents(
  events: EventsStore,
  scope: ReportScope,
  message: string,
): Promise<ErrorEvent[]> {
  return (await runReport<ErrorEventRow>(events, compileErrorEvents(scope, message))).map(toErrorEvent)
}
