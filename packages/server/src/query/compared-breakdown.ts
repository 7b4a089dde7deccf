/**
 * A breakdown page with, per row, the same counts of the row's value over the compared range and the
 * relative change of each (`previous`, `change`). The compared counts come from the same breakdown over
 * the compared range, restricted to the page's values by an `equals` filter on the dimension's filter
 * parameter (each dimension's filter keeps exactly the events, or the sessions, that its breakdown
 * counts under that value; the request's own filters still apply). One query for the page, one for
 * the compared values; a value absent from the compared range counts 0 there.
 */
import {
  type BreakdownMetric,
  type BreakdownRow,
  breakdownDimensions,
  breakdownNames,
} from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import { type Breakdown, type BreakdownCounts, type BreakdownName, queryBreakdown } from './breakdown.js'
import type { FilterParameter } from './filters.js'
import type { QueryParams } from './params.js'
import { relativeChange } from './previous-period.js'
import type { ReportScope } from './report-scope.js'

/** Rows the compared query may answer (the page's values and, for session dimensions, a few more). */
const COMPARED_ROWS = 100_000

/** The filter parameter that keeps a breakdown's rows of given values (the protocol's dimensions). */
export const breakdownFilterParameters: Partial<Record<BreakdownName, FilterParameter>> = Object.fromEntries(
  breakdownNames.map((name) => [name, breakdownDimensions[name].filter]),
)

/**
 * The breakdown `page` of `scope` with each row's counts over `compared` (the compared range's
 * parameters, `comparedPeriod`) and the change per count.
 * @param page the range's breakdown page (`queryBreakdown` over `scope`)
 * @returns the page unchanged when it is empty or the dimension has no filter parameter
 */
export async function withComparedRows(
  events: EventsStore,
  scope: ReportScope,
  compared: QueryParams,
  name: BreakdownName,
  page: Breakdown,
  metrics?: BreakdownCounts,
): Promise<Breakdown> {
  const parameter = breakdownFilterParameters[name]
  if (!parameter || page.rows.length === 0) return page
  const values = page.rows.map((row) => row.value)
  const comparedScope: ReportScope = {
    ...scope,
    params: {
      ...compared,
      filters: [...compared.filters, { parameter, type: 'equals', value: values }],
      page: 1,
      // Referrers and channels group sessions by their first event's value while the filter keeps
      // sessions with any event of it, so other values may come too: room for all of them.
      limit: COMPARED_ROWS,
    },
  }
  const before = await queryBreakdown(events, comparedScope, name, metrics)
  const byValue = new Map(before.rows.map((row) => [row.value, row]))
  return {
    ...page,
    rows: page.rows.map((row) => {
      const current = countsOf(row)
      const earlier = byValue.get(row.value)
      const previous = Object.fromEntries(
        Object.keys(current).map((count) => [count, earlier?.[count as BreakdownMetric] ?? 0]),
      ) as Partial<Record<BreakdownMetric, number>>
      return {
        ...row,
        previous,
        change: relativeChange(current as Record<string, number>, previous as Record<string, number>),
      }
    }),
  }
}

/** The counts a row carries. */
function countsOf(row: BreakdownRow): Partial<Record<BreakdownMetric, number>> {
  const { value: _value, previous: _previous, change: _change, ...counts } = row
  return counts
}
