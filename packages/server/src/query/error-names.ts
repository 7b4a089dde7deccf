/**
 * JavaScript errors grouped by message (spec "Error"): per distinct `error_message` of error events
 * in the range passing the filters:
 * - `count`: occurrences; `sessionCount`: distinct sessions with it;
 * - `errorName`: the error class name (the tracking body's `event_name`) seen most often with it;
 * - `percentage`: its share of all error occurrences in the range after filters, in percent 0..100,
 *   rounded to two decimals.
 * Sorted by count descending, then message ascending; paginated by `page`/`limit`. Rows are the
 * protocol's `ErrorName`.
 * Pipeline: plan (`ReportScope`) -> `compileErrorNames` -> `runReport` -> `toErrorName`.
 */
import type { ErrorName } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { errorConditions } from './error-conditions.js'
import { eventMetrics } from './metrics.js'
import { offsetOf } from './params.js'
import type { ReportScope } from './report-scope.js'
import { runReport } from './run-report.js'

/** A page of messages with their counts and share of all errors (computed before paging). */
export function compileErrorNames(scope: ReportScope): CompiledQuery {
  const { where, params } = errorConditions(scope)
  return {
    sql: [
      `SELECT error_message AS value, topK(1)(event_name)[1] AS error_name, count() AS occurrences, ${eventMetrics.sessions.sql} AS affected_sessions, 100 * count() / sum(count()) OVER () AS share, count() OVER () AS total_values`,
      'FROM events',
      `WHERE ${where.join(' AND ')}`,
      'GROUP BY value',
      'ORDER BY occurrences DESC, value ASC',
      'LIMIT {limit:UInt32} OFFSET {offset:UInt32}',
    ].join('\n'),
    params: { ...params, limit: scope.params.limit, offset: offsetOf(scope.params) },
  }
}

type ErrorNameRow = Record<
  'value' | 'error_name' | 'occurrences' | 'affected_sessions' | 'share' | 'total_values',
  string | number
>

/** Shape one result row; `percentage` rounded to two decimals. */
export function toErrorName(row: ErrorNameRow): ErrorName {
  return {
    value: String(row.value),
    errorName: String(row.error_name ?? ''),
    count: Number(row.occurrences),
    sessionCount: Number(row.affected_sessions),
    percentage: Math.round(Number(row.share) * 100) / 100,
  }
}

/** A page of error messages of the scope, and how many messages all pages hold (0 past the last page). */
export async function queryErrorNames(
  events: EventsStore,
  scope: ReportScope,
): Promise<{ data: ErrorName[]; total: number }> {
  const rows = await runReport<ErrorNameRow>(events, compileErrorNames(scope), 'error-names')
  return { data: rows.map(toErrorName), total: rows.length > 0 ? Number(rows[0]?.total_values) : 0 }
}
