/**
 * Engagement per pathname, from `engagement` events (the tracker sends one when a page is hidden or
 * left, and on SPA navigation: `packages/tracker/src/engagement.ts`), for the pages report:
 * - a visitor's scroll depth on a path is the deepest `scroll_depth` of their engagement events there
 *   (percent of the page's height, 0-100), over all their pageviews of it in the range;
 * - `scroll_depth`: the median of those depths (the mean of the two middle ones for an even count);
 *   `scroll_25` ... `scroll_100`: the fraction of those visitors whose depth reached 25, 50, 75, 100;
 * - `engaged_seconds`: the sum of `engagement_time` on the path, in seconds (the last page of a visit
 *   included: its figures are sent when it is left, not at the next pageview);
 * - `engaged_visitors`: visitors with an engagement event on the path (the denominator above).
 * Visitors whose tracker sends no engagement (older scripts, server-side events) are not counted.
 * Filters apply as to pageviews: event filters to the engagement events, session filters through the
 * sessions passing them.
 */
import type { PageStats } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { SESSION_KEY, VISITOR_KEY } from './metrics.js'
import { filtersOf, type ReportScope, SCOPE_SQL, scopeOf } from './report-scope.js'
import { runReport } from './run-report.js'
import { sessionFilterRestriction } from './sessions-subquery.js'

/** The fields of `PageStats` that engagement gives. */
export type PageEngagementField =
  | 'scroll_depth'
  | 'scroll_25'
  | 'scroll_50'
  | 'scroll_75'
  | 'scroll_100'
  | 'engaged_time'
  | 'engaged_time_on_page'

/** A pages row without its engagement fields: what the raw query or the rollups give. */
export type PageTraffic = Omit<PageStats, PageEngagementField>

/** The engagement figures of one pathname. */
export interface PageEngagement {
  pathname: string
  engaged_visitors: number
  scroll_depth: number
  scroll_25: number
  scroll_50: number
  scroll_75: number
  scroll_100: number
  engaged_seconds: number
}

/** The query of the engagement of `pathnames` in `scope` (one row per path with engagement). */
export function compilePageEngagement(scope: ReportScope, pathnames: readonly string[]): CompiledQuery {
  const filters = filtersOf(scope)
  const where = [SCOPE_SQL, "type = 'engagement'", 'pathname IN {pathnames:Array(String)}']
  if (filters.event) where.push(`(${filters.event})`)
  const restriction = sessionFilterRestriction(filters)
  if (restriction) where.push(restriction)
  return {
    sql: `SELECT pathname, count() AS engaged_visitors,
  quantileExactInclusive(0.5)(depth) AS scroll_depth,
  countIf(depth >= 25) / count() AS scroll_25, countIf(depth >= 50) / count() AS scroll_50,
  countIf(depth >= 75) / count() AS scroll_75, countIf(depth >= 100) / count() AS scroll_100,
  sum(engaged_ms) / 1000 AS engaged_seconds
FROM (
  SELECT pathname, ${VISITOR_KEY} AS visitor, max(scroll_depth) AS depth, sum(engagement_time) AS engaged_ms
  FROM events
  WHERE ${where.join(' AND ')}
  GROUP BY pathname, visitor
)
GROUP BY pathname
ORDER BY pathname`,
    params: { ...scopeOf(scope).params, ...filters.params, pathnames: [...pathnames] },
  }
}

/** The engagement of `pathnames` in `scope`, by pathname; paths without engagement are absent. */
export async function queryPageEngagement(
  events: EventsStore,
  scope: ReportScope,
  pathnames: readonly string[],
): Promise<Map<string, PageEngagement>> {
  if (pathnames.length === 0) return new Map()
  const rows = await runReport<Record<string, unknown>>(
    events,
    compilePageEngagement(scope, pathnames),
    'page-engagement',
  )
  return new Map(
    rows.map((r) => [
      String(r.pathname),
      {
        pathname: String(r.pathname),
        engaged_visitors: Number(r.engaged_visitors),
        scroll_depth: Number(r.scroll_depth),
        scroll_25: Number(r.scroll_25),
        scroll_50: Number(r.scroll_50),
        scroll_75: Number(r.scroll_75),
        scroll_100: Number(r.scroll_100),
        engaged_seconds: Number(r.engaged_seconds),
      },
    ]),
  )
}

/** Engaged time of the scope's visits: engaged seconds over the sessions with an engagement event. */
export interface EngagementSummary {
  /** Mean engaged seconds per visit (session) with engagement; null when there is none. */
  engaged_time_per_visit: number | null
  /** Sessions with engagement in the scope. */
  engaged_visits: number
}

/** The site-wide engaged time per visit of `scope` (filters as in {@link compilePageEngagement}). */
export function compileEngagementSummary(scope: ReportScope): CompiledQuery {
  const filters = filtersOf(scope)
  const where = [SCOPE_SQL, "type = 'engagement'"]
  if (filters.event) where.push(`(${filters.event})`)
  const restriction = sessionFilterRestriction(filters)
  if (restriction) where.push(restriction)
  return {
    sql: `SELECT uniqExact(${SESSION_KEY}) AS engaged_visits, sum(engagement_time) / 1000 AS engaged_seconds
FROM events WHERE ${where.join(' AND ')}`,
    params: { ...scopeOf(scope).params, ...filters.params },
  }
}

/** Run {@link compileEngagementSummary}. */
export async function queryEngagementSummary(
  events: EventsStore,
  scope: ReportScope,
): Promise<EngagementSummary> {
  const [row] = await runReport<{ engaged_visits: number | string; engaged_seconds: number | string }>(
    events,
    compileEngagementSummary(scope),
    'engagement-summary',
  )
  const visits = Number(row?.engaged_visits ?? 0)
  return {
    engaged_visits: visits,
    engaged_time_per_visit: visits === 0 ? null : Number(row?.engaged_seconds) / visits,
  }
}
