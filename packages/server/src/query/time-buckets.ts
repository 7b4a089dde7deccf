/**
 * Time buckets for time series: the start of every bucket of a range, aligned to the wall clock of
 * the request's time zone, and the ClickHouse expression that puts an event into its bucket.
 * - minute, hour: every minute / hour from the start of the range (for zones whose offsets are whole
 *   hours or half hours, as all but one are, local and UTC hour starts coincide up to that offset;
 *   a day with a DST change has 23 or 25 hourly buckets);
 * - day: each calendar day's start; week: Mondays (ISO weeks); month: the 1st. The first week or
 *   month bucket may start before the range (only events in the range are counted).
 * A series holds at most `MAX_BUCKETS` buckets; more is a 400.
 */
import { invalidParameters, type QueryParams } from './params.js'
import { addDays, addMonths, daysBetween, isoWeekday, startOfDayIn } from './zoned-time.js'

/**
 * Bucket sizes this module computes. Each route declares in `@pathlight/protocol` the sizes it accepts,
 * a subset of these (`errorBucketUnits` all of them, `seriesBuckets` all but minute); passing a
 * route's value here type-checks that subset.
 */
export const bucketUnits = ['minute', 'hour', 'day', 'week', 'month'] as const
/** One bucket size. */
export type BucketUnit = (typeof bucketUnits)[number]

/** Most buckets one series may have (minute buckets cover at most ~6.9 days). */
export const MAX_BUCKETS = 10_000

/**
 * Bucket of each event as epoch seconds (UInt32) of the bucket's start; the zone is the `{tz:String}`
 * placeholder. ClickHouse computes these in the zone, with its own copy of the zone rules.
 */
export const bucketExpressions: Record<BucketUnit, string> = {
  minute: bucketExpression('minute', 'timestamp'),
  hour: bucketExpression('hour', 'timestamp'),
  day: bucketExpression('day', 'timestamp'),
  week: bucketExpression('week', 'timestamp'),
  month: bucketExpression('month', 'timestamp'),
}

/** The bucket expression over another time column (e.g. a rollup's `hour`). */
export function bucketExpression(unit: BucketUnit, column: string): string {
  switch (unit) {
    case 'minute':
      return `toUnixTimestamp(toStartOfMinute(${column}, {tz:String}))`
    case 'hour':
      return `toUnixTimestamp(toStartOfHour(${column}, {tz:String}))`
    case 'day':
      return `toUnixTimestamp(toStartOfDay(${column}, {tz:String}))`
    case 'week':
      return `toUnixTimestamp(toDateTime(toMonday(${column}, {tz:String}), {tz:String}))`
    case 'month':
      return `toUnixTimestamp(toDateTime(toStartOfMonth(${column}, {tz:String}), {tz:String}))`
  }
}

const MINUTE_MS = 60_000
const HOUR_MS = 3_600_000

/** How many buckets a range has, without building them. */
export function bucketCount(
  params: Pick<QueryParams, 'startDate' | 'endDate' | 'from' | 'to'>,
  unit: BucketUnit,
): number {
  switch (unit) {
    case 'minute':
      return Math.ceil((params.to - params.from) / MINUTE_MS)
    case 'hour':
      return Math.ceil((params.to - params.from) / HOUR_MS)
    case 'day':
      return daysBetween(params.startDate, params.endDate) + 1
    case 'week':
      return (
        Math.floor((daysBetween(params.startDate, params.endDate) + isoWeekday(params.startDate) - 1) / 7) + 1
      )
    case 'month': {
      const [y1, m1] = params.startDate.split('-').map(Number) as [number, number]
      const [y2, m2] = params.endDate.split('-').map(Number) as [number, number]
      return (y2 - y1) * 12 + (m2 - m1) + 1
    }
  }
}

/**
 * The start of every bucket of the range, ascending, as epoch ms.
 * @throws AppError 400 naming `bucket` when there would be more than MAX_BUCKETS
 */
export function bucketStarts(params: QueryParams, unit: BucketUnit): number[] {
  const count = bucketCount(params, unit)
  if (count > MAX_BUCKETS) {
    throw invalidParameters({
      bucket: [
        `too many buckets: ${count} ${unit} buckets in the range, at most ${MAX_BUCKETS}; choose a larger bucket or a shorter range`,
      ],
    })
  }
  const starts: number[] = []
  if (unit === 'minute' || unit === 'hour') {
    const step = unit === 'minute' ? MINUTE_MS : HOUR_MS
    for (let t = params.from; t < params.to; t += step) starts.push(t)
    return starts
  }
  if (unit === 'day') {
    for (let day = params.startDate; day <= params.endDate; day = addDays(day, 1)) {
      starts.push(startOfDayIn(day, params.timeZone))
    }
    return starts
  }
  if (unit === 'week') {
    const monday = addDays(params.startDate, 1 - isoWeekday(params.startDate))
    for (let day = monday; day <= params.endDate; day = addDays(day, 7)) {
      starts.push(startOfDayIn(day, params.timeZone))
    }
    return starts
  }
  for (
    let first = `${params.startDate.slice(0, 7)}-01`;
    first <= params.endDate;
    first = addMonths(first, 1)
  ) {
    starts.push(startOfDayIn(first, params.timeZone))
  }
  return starts
}
