/**
 * The comparison period of a report: by default the range of equal length, in calendar days of the
 * request's time zone, that ends where the requested one begins (30 days ending 03-31 compare with the
 * 30 days ending 03-01), or the range the request's `compare` names (`compared-range.ts`), and the
 * relative change of each figure against it.
 */
import { comparedRange } from './compared-range.js'
import type { QueryParams } from './params.js'
import { rolledFor } from './plan-report.js'
import type { ReportScope } from './report-scope.js'
import { addDays, daysBetween, startOfDayIn } from './zoned-time.js'

/**
 * The period of equal length (in calendar days of the zone) that ends where `params` begins.
 * @returns the same parameters (filters, page, zone) with `startDate`, `endDate`, `from`, `to` moved
 */
export function previousPeriod(params: QueryParams): QueryParams {
  const days = daysBetween(params.startDate, params.endDate) + 1
  const startDate = addDays(params.startDate, -days)
  const endDate = addDays(params.startDate, -1)
  return { ...params, startDate, endDate, from: startOfDayIn(startDate, params.timeZone), to: params.from }
}

/**
 * The period `params` compare with (`params.compare`, default the previous period), as parameters of
 * its own, or null when the request asked for no comparison (`compare=none`).
 * @returns the same parameters (filters, page, zone) with `startDate`, `endDate`, `from`, `to` moved
 */
export function comparedPeriod(params: QueryParams): QueryParams | null {
  const range = comparedRange(params, params.compare)
  if (!range) return null
  return {
    ...params,
    ...range,
    from: startOfDayIn(range.startDate, params.timeZone),
    to: startOfDayIn(addDays(range.endDate, 1), params.timeZone),
  }
}

/** Whether the request named a comparison other than `none` (series and breakdowns add one then). */
export const comparisonAsked = (params: QueryParams): boolean =>
  params.compare !== undefined && params.compare.mode !== 'none'

/**
 * Relative change per figure: `(current - previous) / previous` (0.25 = up 25 %), null when the
 * previous value is 0 (no meaningful ratio).
 */
export function relativeChange<Key extends string>(
  current: Record<Key, number>,
  previous: Record<Key, number>,
): Record<Key, number | null> {
  const change = {} as Record<Key, number | null>
  for (const key of Object.keys(current) as Key[]) {
    change[key] = previous[key] === 0 ? null : (current[key] - previous[key]) / previous[key]
  }
  return change
}

/** A figure of a range and of its previous period. */
export interface Periods<T> {
  current: T
  previous: T
}

/**
 * A figure of `scope` and of `previous` (the period before it, `previousPeriod`): `together()`, one query
 * over both, when the rollups serve both and `previous` ends where the scope begins; otherwise
 * `apart(scope)` and `apart(previous)` side by side.
 */
export async function queryPeriods<T>(
  scope: ReportScope,
  previous: ReportScope,
  apart: (scope: ReportScope) => Promise<T>,
  together: () => Promise<Periods<T>>,
): Promise<Periods<T>> {
  if (rolledFor(scope, { kind: 'periods', previous })) {
    return together()
  }
  const [current, before] = await Promise.all([apart(scope), apart(previous)])
  return { current, previous: before }
}
