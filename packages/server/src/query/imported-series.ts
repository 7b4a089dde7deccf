/**
 * Imported days (`imported_days`, `imported-totals.ts`) in a time series: each imported day of the
 * scope's span (before the site's first own event, no filters) adds its visitors, visits (as
 * sessions) and pageviews to the point of the bucket holding that calendar day in the request's time
 * zone (the day's own point, its ISO week's Monday, its month's 1st). Daily totals cannot be split
 * into hours, so minute and hour series leave imported days out, as Plausible shows imported data at
 * day granularity and above only.
 */
import type { SeriesCounts, SeriesMetric } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import { IMPORTED_DAYS } from '../storage/events/rollup-schema/imported-days.js'
import { importedSpan } from './imported-totals.js'
import type { ReportScope } from './report-scope.js'
import type { BucketUnit } from './time-buckets.js'
import { addDays, isoWeekday, startOfDayIn } from './zoned-time.js'

/** Bucket sizes imported days show in. */
export const IMPORTED_SERIES_UNITS: ReadonlySet<BucketUnit> = new Set(['day', 'week', 'month'])

/** The imported columns each series metric adds. */
const importedColumn: Record<SeriesMetric, 'visitors' | 'visits' | 'pageviews'> = {
  visitors: 'visitors',
  sessions: 'visits',
  pageviews: 'pageviews',
}

/**
 * The start (epoch ms) of the `unit` bucket holding calendar day `day` in `timeZone`.
 * @param unit day, week or month
 */
export function bucketOfDay(day: string, unit: 'day' | 'week' | 'month', timeZone: string): number {
  if (unit === 'day') return startOfDayIn(day, timeZone)
  if (unit === 'week') return startOfDayIn(addDays(day, 1 - isoWeekday(day)), timeZone)
  return startOfDayIn(`${day.slice(0, 7)}-01`, timeZone)
}

/**
 * `points` (the scope's own series in `unit` buckets, `time` ISO 8601 UTC) with the imported days of
 * the scope added to the `metrics` they carry; unchanged for minute and hour buckets, under a filter,
 * or when no imported day falls in the span.
 */
export async function withImportedSeries<Point extends SeriesCounts & Partial<Record<SeriesMetric, number>>>(
  events: EventsStore,
  scope: ReportScope,
  unit: BucketUnit,
  metrics: readonly SeriesMetric[],
  points: Point[],
): Promise<Point[]> {
  if (unit !== 'day' && unit !== 'week' && unit !== 'month') return points
  const span = await importedSpan(events, scope)
  if (!span) return points
  const rows = await events.query<{
    date: string
    visitors: number | string
    visits: number | string
    pageviews: number | string
  }>(
    `SELECT toString(day) AS date, sum(visitors) AS visitors, sum(visits) AS visits, sum(pageviews) AS pageviews
     FROM ${IMPORTED_DAYS}
     WHERE site_id = {site:UInt32} AND dimension = 'visitors'
       AND day >= toDate({from:String}) AND day <= toDate({to:String})
     GROUP BY date`,
    { site: scope.siteId, from: span.from, to: span.to },
    { label: 'imported-totals' },
  )
  const added = new Map<number, Record<'visitors' | 'visits' | 'pageviews', number>>()
  for (const row of rows) {
    const start = bucketOfDay(row.date, unit, scope.params.timeZone)
    const sums = added.get(start) ?? { visitors: 0, visits: 0, pageviews: 0 }
    sums.visitors += Number(row.visitors)
    sums.visits += Number(row.visits)
    sums.pageviews += Number(row.pageviews)
    added.set(start, sums)
  }
  return points.map((point) => {
    const sums = added.get(Date.parse(point.time))
    if (!sums) return point
    const next: Point = { ...point }
    for (const metric of metrics) {
      next[metric] = ((point[metric] ?? 0) + sums[importedColumn[metric]]) as Point[typeof metric]
    }
    return next
  })
}
