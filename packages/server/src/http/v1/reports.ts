/**
 * v1 report routes, registered from their contracts (`@pathlight/protocol` `contracts/v1-reports.ts`),
 * which parse the query string. Every one takes the common query parameters (`start_date`, `end_date`,
 * `time_zone`, `filters`, `page`, `limit`; README "Query parameters") and answers `{data, meta}`:
 * - `GET /api/v1/sites/{siteId}/stats[?bucket=hour|day|week|month]`: `data: {current, previous,
 *   change, series?}`: overview totals (visitors, sessions, pageviews, bounce_rate, session_duration in
 *   seconds, pages_per_session, events) for the range and for the period of equal length just before
 *   it; `change` is the relative change per metric (null when the previous value is 0); with `bucket`,
 *   a time series with every bucket present.
 * - `GET .../pages[?sort=pageviews|visitors|entries|exits|bounce_rate|time_on_page&order=asc|desc]`:
 *   per pathname, paginated (`meta: {total, page, pageSize, totalPages}`).
 * - `GET .../sessions[?has_replay=true]`: Session objects, newest first, paginated; with `has_replay=true`
 *   only those with a session replay recording.
 * - `GET .../events/names`: custom event names with events, sessions and visitors, paginated.
 * - `GET .../revenue[?bucket=day]`: revenue per currency (see query/revenue.ts).
 */
import {
  type ResponseOf,
  v1EventNamesEndpoint,
  v1PagesEndpoint,
  v1RevenueEndpoint,
  v1SessionsEndpoint,
  v1StatsEndpoint,
} from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForMember } from '../../auth/site-access.js'
import { queryEventNames } from '../../query/event-names.js'
import { queryPageStats } from '../../query/page-stats.js'
import { type QueryParams, resolveQueryParams } from '../../query/params.js'
import { withReplayFlags } from '../../query/replay.js'
import type { ReportScope } from '../../query/report-scope.js'
import { queryRevenue } from '../../query/revenue.js'
import { querySessionList } from '../../query/session-list.js'
import { queryStatsReport } from '../../query/stats-report.js'
import type { Clock } from '../../shared/time.js'
import type { EventsStore } from '../../storage/events/events-store.js'
import type { MetadataDb } from '../../storage/metadata/db.js'
import type { Caller } from '../caller.js'
import { pageMeta } from '../page-meta.js'
import { route } from '../route.js'

/** Register the v1 report routes (inside the v1 scope, which authenticates the key). */
export async function v1ReportRoutes(
  app: FastifyInstance,
  { db, events, clock }: { db: MetadataDb; events: EventsStore; clock: Clock },
) {
  const resolve = async ({ params, caller }: { params: { siteId: string }; caller: Caller }) =>
    (await siteForMember(db, caller.userId, params.siteId)).site.site_id
  const scopeOf = (siteId: number, query: Parameters<typeof resolveQueryParams>[0]): ReportScope => ({
    siteId,
    params: resolveQueryParams(query, clock()) satisfies QueryParams,
  })

  route(app, v1StatsEndpoint, {
    resolve,
    handle: async ({ query, resolved }) => queryStatsReport(events, scopeOf(resolved, query), query.bucket),
  })

  route(app, v1PagesEndpoint, {
    resolve,
    handle: async ({ query, resolved }) => {
      const scope = scopeOf(resolved, query)
      const { data, total } = await queryPageStats(events, scope, {
        field: query.sort ?? 'pageviews',
        order: query.order ?? 'desc',
      })
      return { data, meta: pageMeta(scope.params, total) }
    },
  })

  route(app, v1SessionsEndpoint, {
    resolve,
    handle: async ({ query, resolved }) => {
      const scope = scopeOf(resolved, query)
      const { data, total } = await querySessionList(events, scope, {
        onlyReplayed: query.has_replay === true,
      })
      return { data: await withReplayFlags(events, scope.siteId, data), meta: pageMeta(scope.params, total) }
    },
  })

  route(app, v1EventNamesEndpoint, {
    resolve,
    handle: async ({ query, resolved }) => {
      const scope = scopeOf(resolved, query)
      const { data, total } = await queryEventNames(events, scope)
      // Without `metrics`, every row carries all three counts.
      const rows = data as ResponseOf<typeof v1EventNamesEndpoint>['data']
      return { data: rows, meta: pageMeta(scope.params, total) }
    },
  })

  route(app, v1RevenueEndpoint, {
    resolve,
    handle: async ({ query, resolved }) => {
      const scope = scopeOf(resolved, query)
      const bucket = query.bucket ?? 'day'
      const data = await queryRevenue(events, scope, bucket)
      return { data, meta: { startDate: scope.params.startDate, endDate: scope.params.endDate, bucket } }
    },
  })
}
