/**
 * The overview as a time series: visitors, sessions and pageviews per bucket (hour, day, week, month,
 * aligned in the request's time zone; see `time-buckets.ts`), every bucket of the range present
 * (empty ones 0). Counted per bucket from the events in it (`eventMetrics`): a visitor active in two
 * buckets counts in both. Points are the protocol's `SeriesPoint` (`time`: the bucket's start, ISO 8601
 * UTC with ms).
 */
import type { SeriesPoint } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { eventMetrics } from './metrics.js'
import { filtersOf, type ReportScope, SCOPE_SQL, scopeOf } from './report-scope.js'
import { runReport } from './run-report.js'
import { sessionFilterRestriction } from './sessions-subquery.js'
import { type BucketUnit, bucketExpressions, bucketStarts } from './time-buckets.js'

export function compileTimeseries(scope: ReportScope, unit: BucketUnit): CompiledQuery {
  const filters = filtersOf(scope)
  const where = [SCOPE_SQL]
  if (filters.event) where.push(`(${filters.event})`)
  const restriction = sessionFilterRestriction(filters)
  if (restriction) where.push(restriction)
  return {
    sql: [
      `SELECT ${bucketExpressions[unit]} AS bucket, ${eventMetrics.visitors.sql} AS visitors,`,
      `  ${eventMetrics.sessions.sql} AS sessions, ${eventMetrics.pageviews.sql} AS pageviews`,
      'FROM events',
      `WHERE ${where.join(' AND ')}`,
      'GROUP BY bucket',
      'ORDER BY bucket',
    ].join('\n'),
    params: { ...scopeOf(scope).params, ...filters.params, tz: scope.params.timeZone },
  }
}

/** @throws AppError 400 naming `bucket` when the range has too many buckets */
export async function queryTimeseries(
  events: EventsStore,
  scope: ReportScope,
  unit: BucketUnit,
): Promise<SeriesPoint[]> {
  const starts = bucketStarts(scope.params, unit)
  const rows = await runReport<Record<string, number>>(events, compileTimeseries(scope, unit), 'timeseries')
  const byStart = new Map(rows.map((r) => [Number(r.bucket) * 1000, r]))
  const times = [...new Set([...starts, ...byStart.keys()])].sort((a, b) => a - b)
  return times.map((t) => {
    const row = byStart.get(t)
    return {
      time: new Date(t).toISOString(),
      visitors: Number(row?.visitors ?? 0),
      sessions: Number(row?.sessions ?? 0),
      pageviews: Number(row?.pageviews ?? 0),
    }
  })
}
