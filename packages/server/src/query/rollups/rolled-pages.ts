/**
 * The pages breakdown's rows from the rollups at three grains (`storage/events/migrations/006-page-days.ts`):
 * a range of whole UTC hours is read as its whole sealed UTC months from `page_months`, its other whole
 * UTC days (months not sealed, or not sealed since their last insert, among them:
 * `storage/events/seal-page-months.ts`) from `page_days`, and its other hours from `event_hours`. Each
 * grain's rows carry `value` (the pathname), `pageview_count` (exact) and the `uniqCombined64` states
 * `visitor_state` and `session_state`; merging the states of all three is the union of the hours'
 * sets, so the answers equal those of the hours alone. A year in a whole-hour time zone is about 11
 * months, 30 days and 24 hours per path instead of 8,760 hours.
 */
import { toClickHouseTime } from '../../storage/events/clickhouse-time.js'
import type { ReportScope } from '../report-scope.js'

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

/**
 * A range `[from, to)` cut by grain, all epoch ms: months `[monthFrom, monthTo)`, days
 * `[dayFrom, monthFrom)` and `[monthTo, dayTo)`, hours `[from, dayFrom)` and `[dayTo, to)`. A grain
 * with nothing to read has empty intervals (both ends equal).
 */
export interface GrainSplit {
  dayFrom: number
  dayTo: number
  monthFrom: number
  monthTo: number
}

/** The start of the UTC month holding `ms` (epoch ms). */
export const startOfMonth = (ms: number): number => {
  const date = new Date(ms)
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1)
}
/** The start of the UTC month after the one holding `ms` (epoch ms). */
const startOfNextMonth = (ms: number): number => {
  const date = new Date(ms)
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)
}

/**
 * Cut `[from, to)` (epoch ms, whole UTC hours) into its whole UTC months, the whole UTC days outside
 * them and the hours outside those (see `GrainSplit`).
 */
export function splitByGrain(from: number, to: number): GrainSplit {
  const dayFrom = Math.ceil(from / DAY_MS) * DAY_MS
  const dayTo = Math.floor(to / DAY_MS) * DAY_MS
  if (dayFrom >= dayTo) return { dayFrom: to, dayTo: to, monthFrom: to, monthTo: to }
  const monthFrom = startOfMonth(dayFrom) === dayFrom ? dayFrom : startOfNextMonth(dayFrom)
  const monthTo = startOfMonth(dayTo)
  if (monthFrom >= monthTo) return { dayFrom, dayTo, monthFrom: dayTo, monthTo: dayTo }
  return { dayFrom, dayTo, monthFrom, monthTo }
}

/** The placeholders of `rolledPagesSql` besides the scope's `site`, `from` and `to`. */
export function rolledPagesParams(scope: ReportScope): Record<string, string> {
  const split = splitByGrain(scope.params.from, scope.params.to)
  return {
    day_from: toClickHouseTime(split.dayFrom),
    day_to: toClickHouseTime(split.dayTo),
    month_from: toClickHouseTime(split.monthFrom),
    month_to: toClickHouseTime(split.monthTo),
  }
}

const time = (name: string) => `{${name}:DateTime64(3, 'UTC')}`
const COLUMNS = 'pageview_count, visitor_state, session_state'

/**
 * The `WITH` item `rolledPagesSql` needs: `sealed_months`, the site's months of the range sealed since
 * their last insert (their `page_months` rows hold all their days), computed once per query as an
 * array from a row per site and month (an `IN` subquery in each part instead measured slower:
 * bench/README.md "Pages by day and month").
 */
export const SEALED_MONTHS_WITH = `(SELECT groupArray(month) FROM (
    SELECT month FROM page_month_seals
    WHERE site_id = {site:UInt32} AND month >= ${time('month_from')} AND month < ${time('month_to')}
    GROUP BY month HAVING max(sealed_at) >= max(changed_at)
  )) AS sealed_months`

/**
 * The rows of the scope's range at the three grains, columns `value`, `pageview_count`,
 * `visitor_state`, `session_state` (a `UNION ALL`, to be read as a subquery of a query that starts
 * `WITH ${SEALED_MONTHS_WITH}`), placeholders `site`, `from`, `to` and `rolledPagesParams`'.
 * @param condition on `value`, applied in each part so that the tables' sort keys (site, pathname,
 *   time) pick the paths' rows; null for none
 */
export function rolledPagesSql(condition: string | null): string {
  const and = condition === null ? '' : ` AND ${condition}`
  return [
    `SELECT pathname AS value, ${COLUMNS} FROM page_months`,
    `WHERE site_id = {site:UInt32} AND month >= ${time('month_from')} AND month < ${time('month_to')}`,
    `  AND has(sealed_months, month)${and}`,
    'UNION ALL',
    `SELECT pathname AS value, ${COLUMNS} FROM page_days`,
    `WHERE site_id = {site:UInt32} AND (day >= ${time('day_from')} AND day < ${time('month_from')}`,
    `  OR day >= ${time('month_to')} AND day < ${time('day_to')}`,
    `  OR day >= ${time('month_from')} AND day < ${time('month_to')}`,
    `    AND NOT has(sealed_months, toDateTime(toStartOfMonth(day), 'UTC')))${and}`,
    'UNION ALL',
    `SELECT value, ${COLUMNS} FROM event_hours`,
    `WHERE site_id = {site:UInt32} AND dimension = 'pathname' AND (hour >= ${time('from')} AND hour < ${time('day_from')}`,
    `  OR hour >= ${time('day_to')} AND hour < ${time('to')})${and}`,
  ].join('\n')
}
