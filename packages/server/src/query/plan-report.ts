/**
 * The one table decision of the analytics reads: for a report's scope and what it asks, which tables
 * serve it (the rollups, with the pages' sealed months, or raw events) and why. Every report that can
 * read the rollups asks here (the overview, breakdowns, the series, the custom event count, the v1
 * pages report, the stats report's two periods, the custom event names), and the Query API's planner (`query-api/plan.ts`)
 * takes the same range decision (`rolledWindow`).
 *
 * The rules (the rollups are `storage/events/rollup-schema/`):
 * - the scope must not opt out (`rollups: false`: tests and benchmarks compare both paths);
 * - the range must start and end on whole UTC hours (every whole-hour zone; a half-hour zone such as
 *   Asia/Kolkata reads raw events), and so must every bucket of a series (never minute buckets);
 * - no filters, but that a breakdown by an `events` column may keep the event filters on that same
 *   column (a browsers breakdown filtered to some browsers keeps the rows of those values);
 * - the rollups must hold what is asked: a session breakdown's column among the rolled session
 *   columns, an event breakdown's among `session_dimension_hours`' columns, the pathname or the
 *   custom event name (`event_hours`).
 */
import type { Filter } from './filters.js'
import { eventFilterColumns } from './filters.js'
import type { ReportScope } from './report-scope.js'
import { isSessionDimensionColumn } from './rollups/rolled-dimensions.js'
import { isRolledSessionColumn } from './rollups/rolled-sessions.js'
import { type BucketUnit, bucketStarts } from './time-buckets.js'

const HOUR_MS = 3_600_000

/** What a report asks of the tables. */
export type ReportAsk =
  /** Per-session figures, unfiltered (the overview; `column`: a session breakdown's dimension). */
  | { kind: 'sessions'; column?: string }
  /** Event counts over the whole range from `event_hours` (the custom event count). */
  | { kind: 'events' }
  /** Event counts per bucket from `event_hours` (the series). */
  | { kind: 'series'; unit: BucketUnit }
  /** A breakdown by an `events` column (event filters on that column allowed). */
  | { kind: 'dimension'; column: string }
  /** The v1 pages report: pages, sessions by page, time on page. */
  | { kind: 'pages' }
  /** The stats report's two periods in one query: both must be rolled and adjoin. */
  | { kind: 'periods'; previous: ReportScope }

/** Which tables serve a report, and why. */
export interface ReportPlan {
  source: 'rollups' | 'raw'
  /** The tables read (for `raw`: `events`). */
  tables: readonly string[]
  /** Whether closed months come from their sealed rollup (`page_months`) rather than their days. */
  sealedMonths: boolean
  /** Why this source, in a few words (tests and the bench state it). */
  reason: string
}

/** The range's part of the decision: null when the rollups may serve it, else why not. */
export function rolledWindow(window: {
  rollups?: boolean
  ranges: readonly { from: number; to: number }[]
}): string | null {
  if (window.rollups === false) return 'rollups switched off for this read'
  const whole = window.ranges.every((r) => r.from % HOUR_MS === 0 && r.to % HOUR_MS === 0)
  return whole ? null : 'the range is not whole UTC hours (a half-hour time zone)'
}

const raw = (reason: string): ReportPlan => ({
  source: 'raw',
  tables: ['events'],
  sealedMonths: false,
  reason,
})
const rolled = (tables: readonly string[], reason: string, sealedMonths = false): ReportPlan => ({
  source: 'rollups',
  tables,
  sealedMonths,
  reason,
})

/** Whether a filter is an event filter on the `events` column `column`. */
function filtersColumn(filter: Filter, column: string): boolean {
  return (
    filter.parameter in eventFilterColumns &&
    eventFilterColumns[filter.parameter as keyof typeof eventFilterColumns] === column
  )
}

const SESSION_TABLES = ['session_summaries', 'session_hours', 'session_changes'] as const
const PAGE_TABLES = ['page_months', 'page_days', 'event_hours'] as const

/** Which tables serve the report `ask` over `scope` (see the file's doc). Never throws. */
export function planReport(scope: ReportScope, ask: ReportAsk): ReportPlan {
  const ranges = [scope.params, ...(ask.kind === 'periods' ? [ask.previous.params] : [])]
  const optedOut = scope.rollups === false || (ask.kind === 'periods' && ask.previous.rollups === false)
  const notRolled = rolledWindow({ rollups: !optedOut, ranges })
  if (notRolled !== null) return raw(notRolled)
  const filters = scope.params.filters
  if (ask.kind === 'dimension') {
    if (!filters.every((f) => filtersColumn(f, ask.column))) {
      return raw(`a filter on another column than ${ask.column}`)
    }
    if (isSessionDimensionColumn(ask.column)) {
      return rolled(['session_dimension_hours'], `${ask.column} is kept by session_dimension_hours`)
    }
    if (ask.column === 'pathname') return rolled(PAGE_TABLES, 'pathnames by month, day and hour', true)
    if (ask.column === 'event_name') return rolled(['event_hours'], 'custom event names by hour')
    return raw(`the rollups do not keep ${ask.column}`)
  }
  if (filters.length > 0) return raw('filtered')
  switch (ask.kind) {
    case 'sessions':
      if (ask.column !== undefined && !isRolledSessionColumn(ask.column)) {
        return raw(`the session rollups do not keep ${ask.column}`)
      }
      return rolled(SESSION_TABLES, 'unfiltered sessions')
    case 'events':
      return rolled(['event_hours'], 'unfiltered event counts')
    case 'series': {
      if (ask.unit === 'minute') return raw('minute buckets')
      const whole = bucketStarts(scope.params, ask.unit).every((start) => start % HOUR_MS === 0)
      return whole
        ? rolled(['event_hours'], `unfiltered ${ask.unit} buckets`)
        : raw('a bucket does not start on a whole UTC hour (an offset change of half an hour)')
    }
    case 'pages':
      return rolled([...PAGE_TABLES, ...SESSION_TABLES, 'session_page_times'], 'unfiltered pages', true)
    case 'periods': {
      if (ask.previous.params.filters.length > 0) return raw('filtered')
      if (ask.previous.params.to !== scope.params.from) return raw('the periods do not adjoin')
      return rolled(SESSION_TABLES, 'two adjoining unfiltered periods in one query')
    }
  }
}

/** Whether the rollups serve the report (`planReport`'s source). */
export const rolledFor = (scope: ReportScope, ask: ReportAsk): boolean =>
  planReport(scope, ask).source === 'rollups'
