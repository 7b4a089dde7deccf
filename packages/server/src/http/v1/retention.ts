/**
 * v1 route: `GET /api/v1/sites/{siteId}/retention[?period=day|week|month]` (API keys of members of the
 * site's organization), the same answer as the dashboard's `GET /api/sites/{siteId}/retention`
 * (`http/retention.ts`; definitions in `query/retention.ts`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { siteForMember } from '../../auth/site-access.js'
import type { Clock } from '../../shared/time.js'
import type { EventsStore } from '../../storage/events/events-store.js'
import type { MetadataDb } from '../../storage/metadata/db.js'
import { callerOf } from '../caller-of.js'
import { notMine } from '../openapi/doc-parts.js'
import { retentionAnswer, retentionDescription, retentionOf, retentionQuery } from '../retention.js'

type Params = { Params: { siteId: string }; Querystring: Record<string, unknown> }

/** Register the v1 retention route. */
export async function v1RetentionRoutes(
  app: FastifyInstance,
  { db, events, clock }: { db: MetadataDb; events: EventsStore; clock: Clock },
) {
  app.get<Params>(
    '/api/v1/sites/:siteId/retention',
    {
      config: {
        doc: {
          summary: 'Retention cohorts: visitors by first period, and how many came back in each later one',
          description: retentionDescription,
          tag: 'v1',
          access: 'apiKey',
          query: retentionQuery,
          responses: { 200: retentionAnswer, 404: notMine },
        },
      },
    },
    async (request: FastifyRequest<Params>) => {
      const { site } = await siteForMember(db, callerOf(request).userId, request.params.siteId)
      return retentionOf(events, site.site_id, request.query, clock())
    },
  )
}
