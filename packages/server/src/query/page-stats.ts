/**
 * Per-pathname statistics (the v1 API's `/pages`), paginated and sortable:
 * - `pageviews`, `visitors`: pageview events on the path (passing the filters) and their visitors;
 * - `entries`, `exits`: counted sessions whose first / last pageview was on the path;
 * - `bounce_rate`: of the sessions entering on the path, the fraction that bounced (one pageview, no
 *   interaction; `metrics.ts`), 0 when none entered there;
 * - `time_on_page`: mean seconds from a pageview on the path to the next pageview of the same session
 *   (next in `EVENT_ORDER`: pageviews of the same millisecond follow one another by event id, 0 s
 *   apart); pageviews that were the last of their session have no measurable time and are left out;
 *   null when no pageview on the path had a successor.
 * - engagement (`page-engagement.ts`, from `engagement` events, null without any): `scroll_depth` (median
 *   of visitors' deepest scroll, percent), `scroll_25` ... `scroll_100` (fraction of those visitors
 *   reaching each), `engaged_time` (engaged seconds per pageview) and `engaged_time_on_page` (engaged
 *   seconds per visitor, the last page of a visit included), for the rows of the page asked for.
 * Rows are the protocol's `PageStats`. Unfiltered scopes over whole UTC hours read the rollups
 * (`rollups/rolled-page-stats.ts`: the same figures, visitors estimated within 1 %).
 */
import type { PageSortField, PageStats } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { EVENT_ORDER, SESSION_KEY, VISITOR_KEY } from './metrics.js'
import { type PageEngagement, type PageTraffic, queryPageEngagement } from './page-engagement.js'
import { offsetOf } from './params.js'
import { rolledFor } from './plan-report.js'
import { filtersOf, type ReportScope, SCOPE_SQL, scopeOf } from './report-scope.js'
import {
  mergeRolledPageStats,
  type RolledPagesRow,
  type RolledSessionsByPageRow,
  type RolledTimeOnPageRow,
  rolledPageStatsQueries,
} from './rollups/rolled-page-stats.js'
import { rolledPagesParams } from './rollups/rolled-pages.js'
import { runReport } from './run-report.js'
import { sessionFilterRestriction, sessionsSubquery } from './sessions-subquery.js'

/** What the pages report sorts by (the protocol's). */
export { type PageSortField, pageSortFields } from '@pathlight/protocol'

/** The default order of the v1 pages report. */
const DEFAULT_SORT = { field: 'pageviews', order: 'desc' } as const

/**
 * The v1 pages report's queries: over raw events one query, sorted and cut to the page; from the
 * rollups three run side by side (`rolledPageStatsQueries`: pages, sessions by page, time on page),
 * merged by `mergeRolledPageStats`.
 */
export type PageStatsQueries =
  | { raw: CompiledQuery }
  | { rolled: { pages: CompiledQuery; sessions: CompiledQuery; times: CompiledQuery } }

/**
 * The v1 pages queries for `scope`, sorted by `sort` then pathname, one page of `scope.params`.
 */
export function compilePageStats(
  scope: ReportScope,
  sort: { field: PageSortField; order: 'asc' | 'desc' } = DEFAULT_SORT,
): PageStatsQueries {
  const page = { limit: scope.params.limit, offset: offsetOf(scope.params) }
  if (rolledFor(scope, { kind: 'pages' })) {
    const queries = rolledPageStatsQueries(sort)
    const params = { ...scopeOf(scope).params, ...rolledPagesParams(scope), ...page }
    return {
      rolled: {
        pages: { sql: queries.pages, params },
        sessions: { sql: queries.sessions, params },
        times: { sql: queries.times, params },
      },
    }
  }
  const filters = filtersOf(scope)
  const pageviewWhere = [SCOPE_SQL, "type = 'pageview'"]
  if (filters.event) pageviewWhere.push(`(${filters.event})`)
  const restriction = sessionFilterRestriction(filters)
  if (restriction) pageviewWhere.push(restriction)
  const sessions = sessionsSubquery(filters, [
    'entry_page',
    'exit_page',
    'pageview_count',
    'interaction_count',
  ])
  const direction = sort.order === 'asc' ? 'ASC' : 'DESC'
  return {
    raw: {
      sql: `SELECT pv.pathname AS pathname, pv.pageviews AS pageviews, pv.visitors AS visitors,
  coalesce(en.entries, 0) AS entries, coalesce(ex.exits, 0) AS exits,
  if(coalesce(en.entries, 0) = 0, 0, coalesce(en.bounces, 0) / en.entries) AS bounce_rate,
  pv.time_on_page AS time_on_page, count() OVER () AS total_pages
FROM (
  SELECT pathname, count() AS pageviews, uniqExact(visitor) AS visitors,
    avgIf(dateDiff('millisecond', timestamp, next_at) / 1000, next_at IS NOT NULL) AS time_on_page
  FROM (
    SELECT pathname, timestamp, ${VISITOR_KEY} AS visitor,
      leadInFrame(toNullable(timestamp)) OVER (PARTITION BY ${SESSION_KEY} ORDER BY ${EVENT_ORDER}
        ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) AS next_at
    FROM events
    WHERE ${pageviewWhere.join(' AND ')}
  )
  GROUP BY pathname
) AS pv
LEFT JOIN (
  SELECT entry_page AS page, count() AS entries, countIf(pageview_count = 1 AND interaction_count = 0) AS bounces
  FROM (${sessions}) GROUP BY page
) AS en ON en.page = pv.pathname
LEFT JOIN (
  SELECT exit_page AS page, count() AS exits FROM (${sessions}) GROUP BY page
) AS ex ON ex.page = pv.pathname
ORDER BY ${sort.field} ${direction}, pathname ASC
LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
      params: {
        ...scopeOf(scope).params,
        ...filters.params,
        ...page,
      },
    },
  }
}

/** The v1 pages rows of the scope and the number of paths, sorted by `sort` then pathname, one page. */
export async function queryPageStats(
  events: EventsStore,
  scope: ReportScope,
  sort: { field: PageSortField; order: 'asc' | 'desc' } = DEFAULT_SORT,
): Promise<{ data: PageStats[]; total: number }> {
  const traffic = await queryPageTraffic(events, scope, sort)
  const engagement = await queryPageEngagement(
    events,
    scope,
    traffic.data.map((row) => row.pathname),
  )
  return {
    data: traffic.data.map((row) => ({
      ...row,
      ...engagementFields(row.pageviews, engagement.get(row.pathname)),
    })),
    total: traffic.total,
  }
}

/** The figures of `PageStats` that engagement gives, for a path with `pageviews`; null without any. */
function engagementFields(
  pageviews: number,
  page: PageEngagement | undefined,
): Omit<PageStats, keyof PageTraffic> {
  if (!page) {
    return {
      scroll_depth: null,
      scroll_25: null,
      scroll_50: null,
      scroll_75: null,
      scroll_100: null,
      engaged_time: null,
      engaged_time_on_page: null,
    }
  }
  return {
    scroll_depth: page.scroll_depth,
    scroll_25: page.scroll_25,
    scroll_50: page.scroll_50,
    scroll_75: page.scroll_75,
    scroll_100: page.scroll_100,
    engaged_time: pageviews === 0 ? null : page.engaged_seconds / pageviews,
    engaged_time_on_page: page.engaged_seconds / page.engaged_visitors,
  }
}

async function queryPageTraffic(
  events: EventsStore,
  scope: ReportScope,
  sort: { field: PageSortField; order: 'asc' | 'desc' },
): Promise<{ data: PageTraffic[]; total: number }> {
  const compiled = compilePageStats(scope, sort)
  if ('rolled' in compiled) {
    const { pages, sessions, times } = compiled.rolled
    // The two long parts first: the store runs as many queries at once as it has CPUs.
    const [timeRows, sessionRows, pageRows] = await Promise.all([
      runReport<RolledTimeOnPageRow>(events, times, 'page-stats'),
      runReport<RolledSessionsByPageRow>(events, sessions, 'page-stats'),
      runReport<RolledPagesRow>(events, pages, 'page-stats'),
    ])
    return mergeRolledPageStats({ pages: pageRows, sessions: sessionRows, times: timeRows }, sort, {
      limit: scope.params.limit,
      offset: offsetOf(scope.params),
    })
  }
  const rows = await runReport<Record<string, unknown>>(events, compiled.raw, 'page-stats')
  return {
    data: rows.map((r) => ({
      pathname: String(r.pathname),
      pageviews: Number(r.pageviews),
      visitors: Number(r.visitors),
      entries: Number(r.entries),
      exits: Number(r.exits),
      bounce_rate: Number(r.bounce_rate),
      time_on_page:
        r.time_on_page === null || Number.isNaN(Number(r.time_on_page)) ? null : Number(r.time_on_page),
    })),
    total: rows.length > 0 ? Number(rows[0]?.total_pages) : 0,
  }
}
