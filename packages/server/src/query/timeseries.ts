/**
 * The overview as a time series: visitors, sessions and pageviews per bucket (hour, day, week, month,
 * aligned in the request's time zone; see `time-buckets.ts`), every bucket of the range present
 * (empty ones 0). Counted per bucket from the events in it (`eventMetrics`): a visitor active in two
 * buckets counts in both. Points are the protocol's `SeriesCounts` (`time`: the bucket's start, ISO 8601
 * UTC with ms) with the counts asked for; all three make a `SeriesPoint`. Unfiltered series over
 * whole-hour ranges read the hourly rollup (`rollups/`): counts stay exact, visitors and sessions per
 * bucket are then `uniqCombined64` estimates (within 1 %), each a merge of a state per hour, so a
 * count left out is time saved (pageviews alone need no state merged; bench/README.md "The chart asks
 * for the one figure it shows"). Imported days (another tool's daily totals) add to day, week and
 * month points before the site's first own event, unfiltered only (`imported-series.ts`).
 */
import { type SeriesCounts, type SeriesMetric, seriesMetrics } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { withImportedSeries } from './imported-series.js'
import { eventMetrics } from './metrics.js'
import { rolledFor } from './plan-report.js'
import { filtersOf, type ReportScope, SCOPE_SQL, scopeOf } from './report-scope.js'
import { ROLLED_DIMENSION_SQL, rolledEventMetrics } from './rollups/rolled-events.js'
import { runReport } from './run-report.js'
import { sessionFilterRestriction } from './sessions-subquery.js'
import { type BucketUnit, bucketExpression, bucketExpressions, bucketStarts } from './time-buckets.js'

/**
 * The series' SQL: a row per bucket with data (`bucket`, epoch seconds) and a column per metric.
 * @param metrics the counts to compute, at least one
 */
export function compileTimeseries(
  scope: ReportScope,
  unit: BucketUnit,
  metrics: readonly SeriesMetric[] = seriesMetrics,
): CompiledQuery {
  // From the hourly rollup when every bucket starts on a whole UTC hour (`planReport`).
  if (rolledFor(scope, { kind: 'series', unit })) {
    const counts = metrics.map((metric) => `${rolledEventMetrics[metric]} AS ${metric}`)
    return {
      sql: [
        `SELECT ${bucketExpression(unit, 'hour')} AS bucket, ${counts.join(', ')}`,
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
  const counts = metrics.map((metric) => `${eventMetrics[metric].sql} AS ${metric}`)
  return {
    sql: [
      `SELECT ${bucketExpressions[unit]} AS bucket, ${counts.join(', ')}`,
      'FROM events',
      `WHERE ${where.join(' AND ')}`,
      'GROUP BY bucket',
      'ORDER BY bucket',
    ].join('\n'),
    params: { ...scopeOf(scope).params, ...filters.params, tz: scope.params.timeZone },
  }
}

/**
 * The series of the scope in `unit` buckets, oldest first, each point with the `metrics` asked for
 * (default all three) and no others; imported days added where they count (`imported-series.ts`).
 * @throws AppError 400 naming `bucket` when the range has too many buckets
 */
export async function queryTimeseries<Metric extends SeriesMetric = SeriesMetric>(
  events: EventsStore,
  scope: ReportScope,
  unit: BucketUnit,
  metrics: readonly Metric[] = seriesMetrics as readonly SeriesMetric[] as readonly Metric[],
): Promise<(SeriesCounts & Record<Metric, number>)[]> {
  const starts = bucketStarts(scope.params, unit)
  const rows = await runReport<Record<string, number>>(
    events,
    compileTimeseries(scope, unit, metrics),
    'timeseries',
  )
  const byStart = new Map(rows.map((r) => [Number(r.bucket) * 1000, r]))
  const times = [...new Set([...starts, ...byStart.keys()])].sort((a, b) => a - b)
  const points = times.map((t) => {
    const row = byStart.get(t)
    const counts = Object.fromEntries(metrics.map((metric) => [metric, Number(row?.[metric] ?? 0)]))
    return { time: new Date(t).toISOString(), ...counts } as SeriesCounts & Record<Metric, number>
  })
  return withImportedSeries(events, scope, unit, metrics, points)
}
