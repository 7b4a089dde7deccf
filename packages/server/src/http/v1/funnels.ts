/**
 * v1: `GET /api/v1/sites/{siteId}/funnels`: the site's saved funnels (oldest first, paginated) with
 * their figures over the common query parameters (per step: sessions, conversion from the previous
 * step and from the start, drop-off, median seconds from the previous step; README "Funnels").
 */
import { v1FunnelsEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForMember } from '../../auth/site-access.js'
import { countFunnels } from '../../funnels/funnels.js'
import { listFunnelsWithResults } from '../../funnels/list-funnels-with-results.js'
import { resolveQueryParams } from '../../query/params.js'
import type { Clock } from '../../shared/time.js'
import type { EventsStore } from '../../storage/events/events-store.js'
import type { MetadataDb } from '../../storage/metadata/db.js'
import { pageMeta } from '../page-meta.js'
import { route } from '../route.js'

/** Register the v1 saved funnels with results, from its contract (inside the v1 scope, which authenticates the key). */
export async function v1FunnelRoutes(
  app: FastifyInstance,
  { db, events, clock }: { db: MetadataDb; events: EventsStore; clock: Clock },
) {
  route(app, v1FunnelsEndpoint, {
    resolve: ({ params, caller }) => siteForMember(db, caller.userId, params.siteId),
    handle: async ({ query, resolved: { site } }) => {
      const params = resolveQueryParams(query, clock())
      const [data, total] = await Promise.all([
        listFunnelsWithResults(db, events, site.site_id, params),
        countFunnels(db, site.site_id),
      ])
      return { data, meta: pageMeta(params, total) }
    },
  })
}
