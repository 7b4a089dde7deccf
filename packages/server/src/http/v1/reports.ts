/**
 * v1 report routes, registered from their contracts (`@pathlight/protocol` `contracts/v1-reports.ts`),
 * which parse the query string: the report registry's endpoints of access apiKey
 * (`contracts/report-registry.ts`: the v1 twins of the dashboard's reports, answering through the same
 * report functions (retention's in `contracts/behaviour.ts`), and the reports of the v1 API alone, `v1-report-parts.ts`). Every one takes the
 * common query parameters (`start_date`, `end_date`, `time_zone`, `filters`, `page`, `limit`;
 * docs/api.md "Query parameters") and answers `{data, meta}`:
 * - `GET /api/v1/sites/{siteId}/stats[?bucket=hour|day|week|month]`: `data: {current, previous,
 *   change, series?}`: overview totals (visitors, sessions, pageviews, bounce_rate, session_duration in
 *   seconds, pages_per_session, events) for the range and for the period of equal length just before
 *   it; `change` is the relative change per metric (null when the previous value is 0); with `bucket`,
 *   a time series with every bucket present.
 * - `GET .../pages[?sort=pageviews|visitors|entries|exits|bounce_rate|time_on_page&order=asc|desc]`:
 *   per pathname, paginated (`meta: {total, page, pageSize, totalPages}`), as the dashboard's page-stats.
 * - `GET .../sessions[?has_replay=true]`: Session objects, newest first, paginated; with `has_replay=true`
 *   only those with a session replay recording.
 * - `GET .../events/names`: custom event names with events, sessions and visitors, paginated.
 * - `GET .../engagement`: site-wide engaged time per visit.
 * - `GET .../events[?type=&event_name=&cursor=]`: events newest first, paged with `cursor`
 *   (`meta: {nextCursor, limit}`, `limit` default 100).
 * - `GET .../revenue[?bucket=day]`: revenue per currency (see query/revenue.ts).
 * - `GET .../retention[?period=day|week|month]`: the retention cohorts, as the dashboard's
 *   (`behaviour-report-parts.ts`).
 */
import { type EndpointSpec, reportEndpointsFor, type siteParams } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import type { z } from 'zod'
import { siteForMember } from '../../auth/site-access.js'
import type { Clock } from '../../shared/time.js'
import type { EventsStore } from '../../storage/events/events-store.js'
import type { MetadataDb } from '../../storage/metadata/db.js'
import type { Caller } from '../caller.js'
import type { PreparedReport, ReportPartDeps, ReportPath } from '../report-part.js'
import { reportParts } from '../report-parts.js'
import { route } from '../route.js'

/** A v1 report of a site: its site in the path, for an API key. */
type V1SiteReport = EndpointSpec & { params: typeof siteParams; access: 'apiKey' }

/** Register the v1 report routes (inside the v1 scope, which authenticates the key). */
export async function v1ReportRoutes(
  app: FastifyInstance,
  { db, events, clock }: { db: MetadataDb; events: EventsStore; clock: Clock },
) {
  const resolve = async ({ params, caller }: { params: z.output<typeof siteParams>; caller: Caller }) =>
    (await siteForMember(db, caller.userId, params.siteId)).site.site_id

  // The registry's endpoints of access apiKey with a report function: the twins answer as their
  // dashboard route (`report-parts.ts`, where each answer is typed by its dashboard contract, which its
  // v1 twin's answer equals), the v1-only reports by their own function. A loop of names cannot tie one
  // name's contract to its function for TypeScript, hence the cast.
  const deps = { events, db, clock }
  for (const { name, endpoint } of reportEndpointsFor('apiKey')) {
    if (!Object.hasOwn(reportParts, name)) continue
    const run = reportParts[name as keyof typeof reportParts] as (
      deps: ReportPartDeps,
      siteId: number,
      query: unknown,
      path: ReportPath,
    ) => PreparedReport
    route(app, endpoint as V1SiteReport, {
      resolve,
      handle: async ({ params: { siteId: _, ...params }, query, body, resolved }) =>
        (await run(deps, resolved, query, { params, body })()) as never,
    })
  }
}
