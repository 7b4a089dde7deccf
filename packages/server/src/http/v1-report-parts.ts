/**
 * The reports of the public API alone (`GET /api/v1/sites/{siteId}/...`, for an API key): those no
 * dashboard route answers the same, registered in the report registry under `v1-` and their route's
 * last segment, their `endpoint` the v1 one (`contracts/report-registry.ts` of the protocol). The v1
 * scope registers their routes (`v1/reports.ts`), answered by these functions; no batch runs them.
 * - `v1-events`: the events of the range, newest first, paged with `cursor` (`query/event-list.ts`),
 *   filterable by `type` (a list of event types) and `event_name`; `limit` 1..1000, default 100
 *   (the dashboard's events default to 50). `meta: {nextCursor, limit}`.
 * - `v1-revenue`: revenue per currency, with a series by `bucket` (default day; `query/revenue.ts`).
 *   `meta: {startDate, endDate, bucket}`.
 */
import type { QueryOf, v1EventsEndpoint, v1RevenueEndpoint } from '@pathlight/protocol'
import { queryEventList } from '../query/event-list.js'
import { queryRevenue } from '../query/revenue.js'
import { type Prepared, type ReportPartDeps, reportScope } from './report-part.js'

/** Events per page of the v1 events when the request names no `limit`. */
const DEFAULT_V1_EVENTS = 100

/**
 * The v1-only reports, by their name in the registry: each takes the query string as its contract
 * parsed it.
 * @throws AppError 400 naming the invalid parameter (a time zone, filters, a range), before anything runs
 */
export const v1ReportParts = {
  'v1-events'(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof v1EventsEndpoint>,
  ): Prepared<typeof v1EventsEndpoint> {
    const scope = reportScope(deps, siteId, { ...query, limit: query.limit ?? DEFAULT_V1_EVENTS })
    const { limit } = scope.params
    return async () => {
      const page = await queryEventList(deps.events, scope, {
        types: query.type,
        eventName: query.event_name,
        cursor: query.cursor,
        limit,
      })
      return { data: page.data, meta: { nextCursor: page.nextCursor, limit } }
    }
  },

  'v1-revenue'(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof v1RevenueEndpoint>,
  ): Prepared<typeof v1RevenueEndpoint> {
    const scope = reportScope(deps, siteId, query)
    const bucket = query.bucket ?? 'day'
    const { startDate, endDate } = scope.params
    return async () => ({
      data: await queryRevenue(deps.events, scope, bucket),
      meta: { startDate, endDate, bucket },
    })
  },
}
