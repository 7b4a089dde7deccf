/**
 * What a page's reports are asked, as one value: the site, the range of days resolved in its time
 * zone, the filters and the saved segment as structured values, and the comparison. It is derived
 * once from the URL's view (`reportQueryOf`, at the moment the view changes), and every request a
 * report makes comes from it: its query string (`api/report-params.ts`, the one place that writes
 * it as text), a part of the page's batch or the part's own GET
 * (`report-request.ts`), and the key under which its answer is kept.
 */
import type { CompareMode, ReportFilter } from '@pathlight/protocol'
import { daysBetween } from './dates'
import { type ReportView, rangeOf, zoneOf } from './report-view'

/** A range of calendar days, YYYY-MM-DD, both ends included. */
export interface DayRange {
  startDate: string
  /** The last day, included. */
  endDate: string
}

/** What the figures are compared with (absent from a query: the API's default, no compared series). */
export interface ReportComparison {
  mode: CompareMode
  /** The compared days of `custom` (absent otherwise). */
  custom?: DayRange
  /** Move the compared range onto the range's weekdays. */
  matchDayOfWeek?: true
}

/** What the reports of a page are asked (`reportQueryOf`). */
export interface ReportQuery extends DayRange {
  siteId: number
  /** The IANA zone the days are calendar days of. */
  timeZone: string
  /** ANDed, as the API's `filters` (each one the protocol takes: `toReportFilters`). */
  filters: ReportFilter[]
  /** A saved segment's id: the API ANDs its filters with `filters`. */
  segment?: number
  compare?: ReportComparison
}

/** The comparison a view names, or undefined (a custom one without both days is none). */
function comparisonOf(view: ReportView): ReportComparison | undefined {
  const { compare: mode, compareFrom, compareTo } = view
  if (!mode) return undefined
  const custom =
    mode === 'custom' && compareFrom && compareTo ? { startDate: compareFrom, endDate: compareTo } : undefined
  if (mode === 'custom' && !custom) return undefined
  return {
    mode,
    ...(custom ? { custom } : {}),
    ...(view.matchDayOfWeek ? { matchDayOfWeek: true as const } : {}),
  }
}

/**
 * The query of `view` for the site `siteId` at `nowMs` (epoch ms): a preset period's days are those
 * of that moment in the view's zone. Optional fields are absent when the view leaves them out.
 */
export function reportQueryOf(siteId: number, view: ReportView, nowMs: number): ReportQuery {
  const compare = comparisonOf(view)
  return {
    siteId,
    ...rangeOf(view, nowMs),
    timeZone: zoneOf(view),
    filters: view.filters,
    ...(view.segment ? { segment: view.segment } : {}),
    ...(compare ? { compare } : {}),
  }
}

/** The same site, days and zone, with no filters, segment or comparison. */
export const unfiltered = ({ siteId, startDate, endDate, timeZone }: ReportQuery): ReportQuery => ({
  siteId,
  startDate,
  endDate,
  timeZone,
  filters: [],
})

/** Days in the query's range (1 for a single day). */
export const daysOf = (query: DayRange): number => daysBetween(query.startDate, query.endDate) + 1

/** A stable text key of `query` (equal queries, equal keys), for what is loaded for it. */
export const queryKeyOf = (query: ReportQuery): string => JSON.stringify(query)
