/**
 * The overview as a time series: visitors, sessions and pageviews per bucket (hour, day, week, month,
 * aligned in the request's time zone; see `time-buckets.ts`), every bucket of the range present
 * (empty ones 0). Counted per bucket from the events in it (`eventMetrics`): a visitor active in two
 * buckets counts in both. Points are the protocol's `SeriesPoint` (`time`: the bucket's start, ISO 8601
 * UTC with ms). Unfiltered series over whole-hour ranges read the hourly rollup (`rollups/`): counts
 * stay exact, visitors and sessions per bucket are then `uniqCombined64` estimates (within 1 %).
 */
import type { SeriesPoint } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { eventMetrics } from './metrics.js'
import { filtersOf, type ReportScope, SCOPE_SQL, scopeOf } from './report-scope.js'
import { ROLLED_DIMENSION_SQL, rolledEventMetrics } from './rollups/rolled-events.js'
import { rollupsServe } from './rollups/rollup-scope.js'
import { runReport } from './run-report.js'
import { sessionFilterRestriction } from './sessions-subquery.js'
import { type BucketUnit, bucketExpression, bucketExpressions, bucketStarts } from './time-buckets.js'

const HOUR_MS = 3_600_000

/**
 * The series from the hourly rollup when the scope allows it and every bucket starts on a whole UTC
 * hour (minute buckets never; a zone whose offset changed by half an hour inside the range neither).
 */
function rolledSeries(scope: ReportScope, unit: BucketUnit): boolean {
  return (
    unit !== 'minute' &&
    rollupsServe(scope) &&
    bucketStarts(scope.params, unit).every((start) => start % HOUR_MS === 0)
  )
}

export function compileTimeseries(scope: ReportScope, unit: BucketUnit): CompiledQuery {
  if (rolledSeries(scope, unit)) {
    return {
      sql: [
        `SELECT ${bucketExpression(unit, 'hour')} AS bucket, ${rolledEventMetrics.visitors} AS visitors,`,
        `  ${rolledEventMetrics.sessions} AS sessions, ${rolledEventMetrics.pageviews} AS pageviews`,
        'FROM event_hours',
        `WHERE ${ROLLED_DIMENSION_SQL}`,
        'GROUP BY bucket',
        'ORDER BY bucket',
      ].join('\n'),
      params: { ...scopeOf(scope).params, dimension: '', tz: scope.params.timeZone },
    }
  }
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
