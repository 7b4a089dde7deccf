/**
 * v1: `GET /api/v1/sites/{siteId}/events`: events newest first, paged with `cursor` (see
 * query/event-list.ts), filterable with the common parameters plus `type` (comma-separated event
 * types) and `event_name`. `limit` 1-1000 (default 100). `meta: {nextCursor, limit}`. Registered from
 * its contract (`contracts/v1-reports.ts` of the protocol), which parses the query string.
 */
import { v1EventsEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForMember } from '../../auth/site-access.js'
import { queryEventList } from '../../query/event-list.js'
import { resolveQueryParams } from '../../query/params.js'
import type { Clock } from '../../shared/time.js'
import type { EventsStore } from '../../storage/events/events-store.js'
import type { MetadataDb } from '../../storage/metadata/db.js'
import { route } from '../route.js'

/** Events per page when the request names no `limit`. */
const DEFAULT_V1_EVENTS = 100

/** Register the v1 events list (inside the v1 scope, which authenticates the key). */
export async function v1EventRoutes(
  app: FastifyInstance,
  { db, events, clock }: { db: MetadataDb; events: EventsStore; clock: Clock },
) {
  route(app, v1EventsEndpoint, {
    resolve: ({ params, caller }) => siteForMember(db, caller.userId, params.siteId),
    handle: async ({ query, resolved: { site } }) => {
      const params = resolveQueryParams({ ...query, limit: query.limit ?? DEFAULT_V1_EVENTS }, clock())
      const page = await queryEventList(
        events,
        { siteId: site.site_id, params },
        { types: query.type, eventName: query.event_name, cursor: query.cursor, limit: params.limit },
      )
      return { data: page.data, meta: { nextCursor: page.nextCursor, limit: params.limit } }
    },
  })
}
