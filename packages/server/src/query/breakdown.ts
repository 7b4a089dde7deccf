/**
 * Breakdown reports: the top values of one dimension with visitors, sessions and pageviews each.
 * Two kinds, so each dimension is counted where it lives:
 * - event dimensions (pages, countries, regions, cities, languages, browsers, operating systems,
 *   device types): events passing the filters, grouped by the event's column (`eventMetrics`). A
 *   visitor seen with two browsers counts under both. Pages count pageview events only.
 * - session dimensions (referrers, channels, UTM source, medium and campaign, entry and exit pages):
 *   counted sessions, grouped by the session's first referrer domain / channel / UTM tags, or its
 *   first / last pageview (`sessionMetrics`). A session counts once, under its landing page's value,
 *   so the rows of each add up to the sessions.
 * Sorted by pageviews (pages) or visitors (the others), descending, then value ascending; paginated
 * by `page`/`limit`. Rows carry the counts asked for (`metrics`; all three by default) and always the
 * one they are sorted by: the overview's cards show one count each, and every distinct count left out
 * is a set of hashes not built or merged (bench/README.md "Every rolled report after `metrics`").
 * Pipeline: plan (`ReportScope` + name) -> `compileBreakdown` -> `runReport` -> `toBreakdown`.
 */
import {
  type BreakdownMetric,
  type BreakdownName,
  type BreakdownRow,
  breakdownMetrics,
} from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { compileFilters } from './filters.js'
import { eventMetrics, sessionMetrics } from './metrics.js'
import { offsetOf } from './params.js'
import { rolledFor } from './plan-report.js'
import { filtersOf, type ReportScope, SCOPE_SQL, scopeOf } from './report-scope.js'
import { isSessionDimensionColumn, rolledDimensionBreakdownSql } from './rollups/rolled-dimensions.js'
import { rolledEventMetrics } from './rollups/rolled-events.js'
import { rolledPagesParams, rolledPagesSql, SEALED_MONTHS_WITH } from './rollups/rolled-pages.js'
import {
  isHashedSessionColumn,
  isRolledSessionColumn,
  rolledHashedBreakdownSql,
  rolledSessionMetrics,
  rolledSessionsSubquery,
} from './rollups/rolled-sessions.js'
import { runReport } from './run-report.js'
import { type SessionColumn, sessionFilterRestriction, sessionsSubquery } from './sessions-subquery.js'

interface EventDimension {
  kind: 'event'
  /** Column of `events`. */
  column: string
  /** Count pageview events only. */
  pageviewsOnly?: boolean
}

interface SessionDimension {
  kind: 'session'
  /** Per-session column (`metrics.ts`). */
  column: SessionColumn
  /** Leave out sessions whose value is '' (no referrer, no pageview). */
  skipEmpty?: boolean
}

/** Every breakdown, by name. */
export const breakdowns = {
  /** Pathnames of pageviews, by pageviews. */
  pages: { kind: 'event', column: 'pathname', pageviewsOnly: true },
  /** Referrer domains of sessions' first events (sessions without a referrer left out). */
  referrers: { kind: 'session', column: 'entry_referrer_domain', skipEmpty: true },
  /** Acquisition channels of sessions' first events. */
  channels: { kind: 'session', column: 'entry_channel' },
  /** First pageview pathnames of sessions. */
  entry_pages: { kind: 'session', column: 'entry_page', skipEmpty: true },
  /** Last pageview pathnames of sessions. */
  exit_pages: { kind: 'session', column: 'exit_page', skipEmpty: true },
  /** ISO 3166-1 alpha-2 codes ('' = unknown). */
  countries: { kind: 'event', column: 'country' },
  browsers: { kind: 'event', column: 'browser' },
  operating_systems: { kind: 'event', column: 'operating_system' },
  /** desktop, mobile, tablet, ... */
  device_types: { kind: 'event', column: 'device_type' },
  /** Region names (DB-IP `state1`, not codes; '' = unknown). */
  regions: { kind: 'event', column: 'region' },
  /** City names (DB-IP; '' = unknown). The same name in two countries is one row. */
  cities: { kind: 'event', column: 'city' },
  /** Browser languages as sent (`en-US`; '' = unknown). */
  languages: { kind: 'event', column: 'language' },
  /** UTM parameters of sessions' first events, their landing pages ('' = none). */
  utm_source: { kind: 'session', column: 'entry_utm_source' },
  utm_medium: { kind: 'session', column: 'entry_utm_medium' },
  utm_campaign: { kind: 'session', column: 'entry_utm_campaign' },
} as const satisfies Record<BreakdownName, EventDimension | SessionDimension>

/** A breakdown's name: pages, referrers, channels, entry_pages, exit_pages, countries, ... (the protocol's). */
export type { BreakdownName }

/**
 * A page of rows (one value of the dimension each, the protocol's `BreakdownRow`) and the number of
 * distinct values in all (0 when the page is past the end).
 */
export interface Breakdown {
  rows: BreakdownRow[]
  total: number
}

/** The counts a breakdown's rows carry, in the protocol's order. */
export type BreakdownCounts = readonly BreakdownMetric[]

/** The counts to compute: those `asked` (default all three) and the one the dimension ranks by. */
function countsOf(dimension: EventDimension | SessionDimension, asked?: BreakdownCounts): BreakdownCounts {
  const rank: BreakdownMetric =
    dimension.kind === 'event' && dimension.pageviewsOnly ? 'pageviews' : 'visitors'
  const wanted = new Set<BreakdownMetric>([...(asked ?? breakdownMetrics), rank])
  return breakdownMetrics.filter((metric) => wanted.has(metric))
}

/** `<expression> AS <count>, ...` for the `counts`, from the expressions of one source. */
const selectCounts = (expressions: Record<BreakdownMetric, string>, counts: BreakdownCounts): string =>
  counts.map((count) => `${expressions[count]} AS ${count}`).join(', ')

const sqlOf = (metrics: Record<BreakdownMetric, { sql: string }>): Record<BreakdownMetric, string> => ({
  visitors: metrics.visitors.sql,
  sessions: metrics.sessions.sql,
  pageviews: metrics.pageviews.sql,
})

/**
 * The query of one breakdown over the scope, its rows carrying `metrics` (default all three) and the
 * count they are sorted by.
 */
export function compileBreakdown(
  scope: ReportScope,
  name: BreakdownName,
  metrics?: BreakdownCounts,
): CompiledQuery {
  const dimension: EventDimension | SessionDimension = breakdowns[name]
  const counts = countsOf(dimension, metrics)
  const filters = filtersOf(scope)
  const params = {
    ...scopeOf(scope).params,
    ...filters.params,
    limit: scope.params.limit,
    offset: offsetOf(scope.params),
  }
  const page = 'LIMIT {limit:UInt32} OFFSET {offset:UInt32}'
  const rolled = compileRolledBreakdown(scope, dimension, counts, params, page)
  if (rolled) return rolled
  if (dimension.kind === 'event') {
    const where = [
      SCOPE_SQL,
      ...(dimension.pageviewsOnly ? ["type = 'pageview'"] : []),
      ...(filters.event === null ? [] : [filters.event]),
      ...[sessionFilterRestriction(filters)].filter((c): c is string => c !== null),
    ]
    const sql = [
      `SELECT ${dimension.column} AS value, ${selectCounts(sqlOf(eventMetrics), counts)}, count() OVER () AS total_values`,
      'FROM events',
      `WHERE ${where.join(' AND ')}`,
      'GROUP BY value',
      `ORDER BY ${dimension.pageviewsOnly ? 'pageviews' : 'visitors'} DESC, value ASC`,
      page,
    ].join('\n')
    return { sql, params }
  }
  // Unfiltered referrers, channels, entry and exit pages from the session rollups, else raw events.
  const column = dimension.column
  // (`isRolledSessionColumn`, which the planner checks too, narrows the column's type.)
  const fromRollup = rolledFor(scope, { kind: 'sessions', column }) && isRolledSessionColumn(column)
  const sessionCounts = selectCounts(sqlOf(fromRollup ? rolledSessionMetrics : sessionMetrics), counts)
  if (fromRollup && isHashedSessionColumn(column)) {
    return { sql: rolledHashedBreakdownSql(column, sessionCounts, page), params }
  }
  const inner = fromRollup
    ? rolledSessionsSubquery(['visitor_key', 'matched_pageview_count', column])
    : sessionsSubquery(filters, ['visitor_key', 'matched_pageview_count', column])
  const sql = [
    `SELECT ${column} AS value, ${sessionCounts}, count() OVER () AS total_values`,
    `FROM (\n${inner}\n)`,
    ...(dimension.skipEmpty ? [`WHERE ${column} != ''`] : []),
    'GROUP BY value',
    'ORDER BY visitors DESC, value ASC',
    page,
  ].join('\n')
  return { sql, params }
}

/**
 * An event breakdown from the rollups when they hold the dimension and the scope allows (see
 * `plan-report.ts`), else null: pages from `page_months`, `page_days` and `event_hours`
 * (`rollups/rolled-pages.ts`), the others from `session_dimension_hours`; visitors and sessions are
 * `uniqCombined64` estimates (within 1 %), the rest exact. Session breakdowns the rollups hold come from `session_hours` in `compileBreakdown`.
 */
function compileRolledBreakdown(
  scope: ReportScope,
  dimension: EventDimension | SessionDimension,
  counts: BreakdownCounts,
  params: Record<string, unknown>,
  page: string,
): CompiledQuery | null {
  if (dimension.kind !== 'event') return null
  if (isSessionDimensionColumn(dimension.column)) {
    if (!rolledFor(scope, { kind: 'dimension', column: dimension.column })) return null
    const filters = compileFilters(scope.params.filters)
    return {
      sql: rolledDimensionBreakdownSql(dimension.column, counts, filters.event, page),
      params: { ...params, ...filters.params },
    }
  }
  // Pathnames of pageviews (the pages breakdown) by month, day and hour (`rollups/rolled-pages.ts`).
  if (dimension.column !== 'pathname' || !rolledFor(scope, { kind: 'dimension', column: dimension.column })) {
    return null
  }
  const filters = compileFilters(scope.params.filters, 'value')
  return {
    sql: rolledPagesBreakdownSql(filters.event, counts, page),
    params: { ...params, ...filters.params, ...rolledPagesParams(scope) },
  }
}

/**
 * The pages breakdown from the rolled pathnames matching `condition` (on `value`; null for all),
 * ranked by their exact pageview sums. With pageviews alone no state is merged. With visitors or
 * sessions, one scan ranks the paths and counts them (a scalar subquery: the page's paths and the
 * number of paths), and only the page's paths' states are read and merged: merging states is the cost
 * (the scalar measured faster than an `IN` subquery in each part: bench/README.md "Pages by day and
 * month").
 */
function rolledPagesBreakdownSql(condition: string | null, counts: BreakdownCounts, page: string): string {
  const rows = (extra: string | null) =>
    `(\n${rolledPagesSql([condition, extra].filter((c) => c !== null).join(' AND ') || null)}\n)`
  if (counts.every((count) => count === 'pageviews')) {
    return [
      `WITH ${SEALED_MONTHS_WITH}`,
      `SELECT value, ${rolledEventMetrics.pageviews} AS pageviews, count() OVER () AS total_values`,
      `FROM ${rows(null)}`,
      'GROUP BY value',
      'ORDER BY pageviews DESC, value ASC',
      page,
    ].join('\n')
  }
  return [
    `WITH ${SEALED_MONTHS_WITH},`,
    '(SELECT (groupArray(value), any(total)) FROM (',
    `  SELECT value, count() OVER () AS total FROM ${rows(null)}`,
    `  GROUP BY value ORDER BY ${rolledEventMetrics.pageviews} DESC, value ASC ${page}`,
    ')) AS ranked',
    `SELECT value, ${selectCounts(rolledEventMetrics, counts)}, ranked.2 AS total_values`,
    `FROM ${rows('value IN ranked.1')}`,
    'GROUP BY value',
    'ORDER BY pageviews DESC, value ASC',
  ].join('\n')
}

/** Shape result rows (each with the counts its query selected). */
export function toBreakdown(rows: readonly Record<string, unknown>[]): Breakdown {
  return {
    rows: rows.map((row) => {
      const shaped: BreakdownRow = { value: String(row.value ?? '') }
      for (const count of breakdownMetrics) {
        if (row[count] !== undefined) shaped[count] = Number(row[count])
      }
      return shaped
    }),
    total: rows.length > 0 ? Number(rows[0]?.total_values) : 0,
  }
}

/**
 * One breakdown of one site over the scope's range, filters and page, its rows carrying `metrics`
 * (default all three) and the count they are sorted by.
 */
export async function queryBreakdown(
  events: EventsStore,
  scope: ReportScope,
  name: BreakdownName,
  metrics?: BreakdownCounts,
): Promise<Breakdown> {
  return toBreakdown(
    await runReport<Record<string, unknown>>(events, compileBreakdown(scope, name, metrics), 'breakdown'),
  )
}
