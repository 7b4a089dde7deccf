/**
 * Retention cohorts: visitors grouped by the calendar period (day, week from Monday, month; in the
 * request's time zone) of their first counted event in the range, and for each cohort how many of its
 * visitors had a counted event k periods later.
 *
 * Definitions (README "Behaviour analytics"):
 * - Counted events are the visitor's own actions: pageviews, custom events and outbound-link clicks.
 *   Web vitals (`performance`) and errors are automatic by-products of a page left open and do not
 *   make a visitor active.
 * - Filters restrict the events considered, as everywhere (`filters.ts`): event filters keep the
 *   events passing them, session filters (entry/exit page) keep the events of sessions passing them.
 *   A visitor's cohort is the period of their first event passing the filters in the range, and
 *   `retained[k]` counts periods with an event passing them ("visitors from DE", "who viewed /pricing").
 * - The cohort is the first event *in the range*: a visitor seen before the range starts a cohort too.
 * - Every period that meets the range is a cohort, empty ones included (visitors 0); the first week or
 *   month may start before `start_date` and the last may end after `end_date` (partial periods count
 *   as periods; only events in the range count). A cohort's `retained` has one entry per period from
 *   its own to the range's last, so the answer is a triangle: the first cohort has `periods` entries,
 *   the last one.
 *
 * SQL: a two-level GROUP BY, exact (visitors keyed by `VISITOR_KEY`, see `metrics.ts`): per visitor,
 * the set of period indexes with activity as a bit mask (`groupBitOr` of `1 << index`, UInt64 up to 64
 * periods, UInt256 up to 256), whose lowest set bit is the cohort; then `ARRAY JOIN` of the mask's
 * bit positions and, over visitors, the count per (cohort, active period). Period indexes are counted
 * from the range's first period in SQL (`toRelative{Day,Week,Month}Num` in the zone: calendar
 * arithmetic, so DST changes do not shift them; ClickHouse's relative weeks start on Monday).
 * The mask measured faster than `min(index)` with `groupUniqArray(index)` (bench/README.md "query: the
 * analytics read side"). ClickHouse's `retention` aggregate needs one condition
 * per period relative to a fixed first one, so it would take one query per cohort.
 * Pipeline: plan (`ReportScope` + period) -> `compileRetention` -> `runReport` -> `toCohorts`.
 */

import type { RetentionCohort, RetentionPeriod } from '@pathlight/protocol'
import { MAX_RETENTION_PERIODS } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { VISITOR_KEY } from './metrics.js'
import { invalidParameters } from './params.js'
import { filtersOf, type ReportScope, SCOPE_SQL, scopeOf } from './report-scope.js'
import { runReport } from './run-report.js'
import { sessionFilterRestriction } from './sessions-subquery.js'
import { bucketCount } from './time-buckets.js'
import { addDays, addMonths, isoWeekday } from './zoned-time.js'

/** Most periods (cohorts) one report may have: the bits of the widest mask (UInt256); the protocol's. */
export { MAX_RETENTION_PERIODS }

/** The event types that make a visitor active. */
export const RETENTION_EVENT_TYPES = ['pageview', 'custom_event', 'outbound'] as const

/**
 * Index of an event's period, counted from the period holding `{first:Date}` (the range's first day):
 * 0 for the range's first period. Uses the `{tz:String}` placeholder.
 */
export const periodIndexExpressions: Record<RetentionPeriod, string> = {
  day: 'toRelativeDayNum(timestamp, {tz:String}) - toRelativeDayNum({first:Date})',
  week: 'toRelativeWeekNum(timestamp, {tz:String}) - toRelativeWeekNum({first:Date})',
  month: 'toRelativeMonthNum(timestamp, {tz:String}) - toRelativeMonthNum({first:Date})',
}

/**
 * The start of every period of the range, ascending, as 'YYYY-MM-DD' in the range's zone.
 * @throws AppError 400 naming `period` when there would be more than MAX_RETENTION_PERIODS
 */
export function retentionPeriodStarts(params: ReportScope['params'], period: RetentionPeriod): string[] {
  const count = bucketCount(params, period)
  if (count > MAX_RETENTION_PERIODS) {
    throw invalidParameters({
      period: [
        `too many periods: ${count} ${period}s in the range, at most ${MAX_RETENTION_PERIODS}; choose a longer period or a shorter range`,
      ],
    })
  }
  const first =
    period === 'day'
      ? params.startDate
      : period === 'week'
        ? addDays(params.startDate, 1 - isoWeekday(params.startDate))
        : `${params.startDate.slice(0, 7)}-01`
  return Array.from({ length: count }, (_, i) =>
    period === 'month' ? addMonths(first, i) : addDays(first, period === 'week' ? 7 * i : i),
  )
}

/** One result row: visitors of cohort `cohort` active in period `period` (both period indexes). */
export interface RetentionRow {
  cohort: number
  period: number
  visitors: number
}

/** The counts per (cohort, active period), ordered by both. */
export function compileRetention(scope: ReportScope, period: RetentionPeriod): CompiledQuery {
  const filters = filtersOf(scope)
  const where = [SCOPE_SQL, 'type IN {types:Array(String)}']
  if (filters.event) where.push(`(${filters.event})`)
  const restriction = sessionFilterRestriction(filters)
  if (restriction) where.push(restriction)
  const index = periodIndexExpressions[period]
  const mask = bucketCount(scope.params, period) <= 64 ? 'UInt64' : 'UInt256'
  return {
    sql: [
      'SELECT periods[1] AS cohort, period, count() AS visitors FROM (',
      `  SELECT ${VISITOR_KEY} AS visitor_key,`,
      `    bitPositionsToArray(groupBitOr(bitShiftLeft(to${mask}(1), ${index}))) AS periods`,
      '  FROM events',
      `  WHERE ${where.join(' AND ')}`,
      '  GROUP BY visitor_key',
      ')',
      'ARRAY JOIN periods AS period',
      'GROUP BY cohort, period',
      'ORDER BY cohort, period',
    ].join('\n'),
    params: {
      ...scopeOf(scope).params,
      ...filters.params,
      types: [...RETENTION_EVENT_TYPES],
      tz: scope.params.timeZone,
      first: scope.params.startDate,
    },
  }
}

/**
 * Shape the rows into one cohort per period start (the triangle described above).
 * @param starts the periods' starts (`retentionPeriodStarts`)
 */
export function toCohorts(starts: readonly string[], rows: readonly RetentionRow[]): RetentionCohort[] {
  const cohorts = starts.map((cohort, i) => ({
    cohort,
    visitors: 0,
    retained: new Array<number>(starts.length - i).fill(0),
  }))
  for (const row of rows) {
    const cohort = cohorts[Number(row.cohort)]
    const k = Number(row.period) - Number(row.cohort)
    if (cohort === undefined || k < 0 || k >= cohort.retained.length) {
      throw new Error(`retention row outside the range's periods: ${JSON.stringify(row)}`)
    }
    cohort.retained[k] = Number(row.visitors)
    if (k === 0) cohort.visitors = Number(row.visitors)
  }
  return cohorts
}

/**
 * The retention cohorts of the scope.
 * @throws AppError 400 naming `period` when the range has more than MAX_RETENTION_PERIODS periods
 */
export async function queryRetention(
  events: EventsStore,
  scope: ReportScope,
  period: RetentionPeriod,
): Promise<RetentionCohort[]> {
  const starts = retentionPeriodStarts(scope.params, period)
  const rows = await runReport<RetentionRow>(events, compileRetention(scope, period), 'retention')
  return toCohorts(starts, rows)
}
