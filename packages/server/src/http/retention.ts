/**
 * Route: `GET /api/sites/{siteId}/retention[?period=day|week|month]` (analytics scope: any reader of
 * the site), registered from its contract (`contracts/behaviour.ts` of the protocol), which parses the
 * query string. Takes the common query parameters (`page` and `limit` are ignored: every cohort of the
 * range is answered) and answers `{data: [RetentionCohort], meta: {period, startDate, endDate,
 * timeZone}}`; definitions in `query/retention.ts`. The v1 twin is `v1/retention.ts`.
 */
import { type QueryOf, retentionEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForReader } from '../auth/site-access.js'
import { resolveQueryParams } from '../query/params.js'
import type { ReportScope } from '../query/report-scope.js'
import { queryRetention } from '../query/retention.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { route } from './route.js'

/**
 * The retention answer of a request whose site is known (here and in v1).
 * @throws AppError 400 naming the invalid parameter (a time zone, filters, too many periods)
 */
export async function retentionOf(
  events: EventsStore,
  siteId: number,
  query: QueryOf<typeof retentionEndpoint>,
  nowMs: number,
) {
  const scope: ReportScope = { siteId, params: resolveQueryParams(query, nowMs) }
  const { period = 'week' } = query
  const data = await queryRetention(events, scope, period)
  const { startDate, endDate, timeZone, timeZoneName } = scope.params
  return { data, meta: { period, startDate, endDate, timeZone: timeZoneName ?? timeZone } }
}

/** Register the dashboard's retention route. */
export async function retentionRoutes(
  app: FastifyInstance,
  { db, events, clock = systemClock }: { db: MetadataDb; events: EventsStore; clock?: Clock },
) {
  route(app, retentionEndpoint, {
    resolve: ({ params, reader }) => siteForReader(db, reader, params.siteId),
    handle: ({ query, resolved: { site } }) => retentionOf(events, site.site_id, query, clock()),
  })
}
