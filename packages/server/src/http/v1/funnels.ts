/**
 * v1: `GET /api/v1/sites/{siteId}/funnels`: the site's saved funnels (oldest first, paginated) with
 * their figures over the common query parameters (per step: sessions, conversion from the previous
 * step and from the start, drop-off, median seconds from the previous step; README "Funnels").
 */
import { funnelWithResults, pagedList } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForMember } from '../../auth/site-access.js'
import { countFunnels } from '../../funnels/funnels.js'
import { listFunnelsWithResults } from '../../funnels/list-funnels-with-results.js'
import { parseQueryParams } from '../../query/params.js'
import type { Clock } from '../../shared/time.js'
import type { EventsStore } from '../../storage/events/events-store.js'
import type { MetadataDb } from '../../storage/metadata/db.js'
import { analyticsQuery } from '../analytics-query.js'
import { callerOf } from '../caller-of.js'
import { notMine } from '../openapi/doc-parts.js'
import { json } from '../openapi/route-doc.js'
import { pageMeta } from '../page-meta.js'

type Params = { Params: { siteId: string }; Querystring: Record<string, unknown> }

export async function v1FunnelRoutes(
  app: FastifyInstance,
  { db, events, clock }: { db: MetadataDb; events: EventsStore; clock: Clock },
) {
  app.get<Params>(
    '/api/v1/sites/:siteId/funnels',
    {
      config: {
        doc: {
          summary: 'Saved funnels with their figures over the range',
          description:
            'Per step: sessions that matched steps 1..k in order, conversion from the previous step and from ' +
            'the start, drop-off and the median seconds from the previous step.',
          tag: 'v1',
          access: 'apiKey',
          query: analyticsQuery,
          responses: { 200: json('Oldest first', pagedList(funnelWithResults)), 404: notMine },
        },
      },
    },
    async (request) => {
      const { site } = await siteForMember(db, callerOf(request).userId, request.params.siteId)
      const params = parseQueryParams(request.query, clock())
      const [data, total] = await Promise.all([
        listFunnelsWithResults(db, events, site.site_id, params),
        countFunnels(db, site.site_id),
      ])
      return { data, meta: pageMeta(params, total) }
    },
  )
}
