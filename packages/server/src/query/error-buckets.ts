/**
 * One error message over time (spec "ErrorBucket"): occurrences per bucket (minute, hour, day, week,
 * month; see `time-buckets.ts`) of error events in the range passing the filters whose
 * `error_message` equals the message. Every bucket of the range is present, empty ones with 0;
 * `time` is the bucket's start as ISO 8601 UTC. Rows are the protocol's `ErrorBucket`.
 * Pipeline: plan (`ReportScope` + message + unit) -> `compileErrorBuckets` -> `runReport` ->
 * `toErrorBuckets` (fills the series).
 */
import type { ErrorBucket } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { errorConditions } from './error-conditions.js'
import type { ReportScope } from './report-scope.js'
import { runReport } from './run-report.js'
import { type BucketUnit, bucketExpressions, bucketStarts } from './time-buckets.js'

/** Counts per bucket start (epoch seconds, `bucket`) of one message; rows only for non-empty buckets. */
export function compileErrorBuckets(scope: ReportScope, message: string, unit: BucketUnit): CompiledQuery {
  const { where, params } = errorConditions(scope)
  return {
    sql: [
      `SELECT ${bucketExpressions[unit]} AS bucket, count() AS error_count`,
      'FROM events',
      `WHERE ${[...where, 'error_message = {message:String}'].join(' AND ')}`,
      'GROUP BY bucket',
      'ORDER BY bucket',
    ].join('\n'),
    params: { ...params, message, tz: scope.params.timeZone },
  }
}

/**
 * Fill the series: every start in `starts` with its count (0 when absent). A bucket ClickHouse
 * reports that the series lacks (zone rules differing between ICU and ClickHouse) is kept, in order.
 */
export function toErrorBuckets(
  starts: readonly number[],
  rows: readonly { bucket: number | string; error_count: number | string }[],
): ErrorBucket[] {
  const counts = new Map(rows.map((row) => [Number(row.bucket) * 1000, Number(row.error_count)]))
  const times = [...new Set([...starts, ...counts.keys()])].sort((a, b) => a - b)
  return times.map((t) => ({ time: new Date(t).toISOString(), error_count: counts.get(t) ?? 0 }))
}

/** The filled series of one message over the scope. @throws AppError 400 when too many buckets */
export async function queryErrorBuckets(
  events: EventsStore,
  scope: ReportScope,
  message: string,
  unit: BucketUnit,
): Promise<ErrorBucket[]> {
  const starts = bucketStarts(scope.params, unit)
  const rows = await runReport<{ bucket: number; error_count: number }>(
    events,
    compileErrorBuckets(scope, message, unit),
    'error-buckets',
  )
  return toErrorBuckets(starts, rows)
}
