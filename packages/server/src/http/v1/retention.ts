/**
 * v1: `GET /api/v1/sites/{siteId}/retention`: the dashboard's retention cohorts for an API key
 * (registered from its contract, `contracts/behaviour.ts` of the protocol; answer from `retentionOf`).
 */
import { v1RetentionEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForMember } from '../../auth/site-access.js'
import type { Clock } from '../../shared/time.js'
import type { EventsStore } from '../../storage/events/events-store.js'
import type { MetadataDb } from '../../storage/metadata/db.js'
import { retentionOf } from '../retention.js'
import { route } from '../route.js'

/** Register the v1 retention route (inside the v1 scope, which authenticates the key). */
export async function v1RetentionRoutes(
  app: FastifyInstance,
  { db, events, clock }: { db: MetadataDb; events: EventsStore; clock: Clock },
) {
  route(app, v1RetentionEndpoint, {
    resolve: ({ params, caller }) => siteForMember(db, caller.userId, params.siteId),
    handle: ({ query, resolved: { site } }) => retentionOf(events, site.site_id, query, clock()),
  })
}
