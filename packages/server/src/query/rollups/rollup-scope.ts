/**
 * When a report may answer from the rollups (`session_hours`, `event_hours`; see
 * `storage/events/migrations/003-rollups.ts`) instead of raw events: the scope must not opt out
 * (`rollups: false`), its range must start and end on whole UTC hours (every time zone with a
 * whole-hour offset; a half-hour zone such as Asia/Kolkata or Australia/Adelaide reads raw events), and
 * it must have no filters, or only event filters on the one dimension a breakdown rolls up (a browsers
 * breakdown filtered to some browsers keeps the rows of those values).
 */
import type { Filter } from '../filters.js'
import { eventFilterColumns } from '../filters.js'
import type { ReportScope } from '../report-scope.js'

const HOUR_MS = 3_600_000

/** True when the range's ends are whole UTC hours (and the scope allows rollups). */
export function rolledRange(scope: ReportScope): boolean {
  return scope.rollups !== false && scope.params.from % HOUR_MS === 0 && scope.params.to % HOUR_MS === 0
}

/** True when an unfiltered report over the scope may read the rollups. */
export const rollupsServe = (scope: ReportScope): boolean =>
  rolledRange(scope) && scope.params.filters.length === 0

/**
 * True when a breakdown by the `events` column `column` may read the rollups: the range is whole hours
 * and every filter is an event filter on that same column.
 */
export function rollupsServeDimension(scope: ReportScope, column: string): boolean {
  return rolledRange(scope) && scope.params.filters.every((filter) => filtersColumn(filter, column))
}

function filtersColumn(filter: Filter, column: string): boolean {
  return (
    filter.parameter in eventFilterColumns &&
    eventFilterColumns[filter.parameter as keyof typeof eventFilterColumns] === column
  )
}
