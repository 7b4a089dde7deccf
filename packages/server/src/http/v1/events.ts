/**
 * v1: `GET /api/v1/sites/{siteId}/events`: events newest first, paged with `cursor` (see
 * query/event-list.ts), filterable with the common parameters plus `type` (comma-separated event
 * types) and `event_name`. `limit` 1-1000 (default 100). `meta: {nextCursor, limit}`.
 */
import { doc } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { siteForMember } from '../../auth/site-access.js'
import { queryEventList } from '../../query/event-list.js'
import { listParam, MAX_LIMIT, parseParams, parseQueryParams, single } from '../../query/params.js'
import type { Clock } from '../../shared/time.js'
import { eventTypes } from '../../storage/events/event-row.js'
import type { EventsStore } from '../../storage/events/events-store.js'
import type { MetadataDb } from '../../storage/metadata/db.js'
import { eventsQuery } from '../analytics-query.js'
import { callerOf } from '../caller-of.js'
import { eventPage, notMine } from '../openapi/doc-parts.js'

/** `GET /api/v1/sites/{siteId}/events`: as `eventsQuery`, 100 events per page by default. */
export const v1EventsQuery = eventsQuery.extend({
  limit: doc(z.int().min(1).max(MAX_LIMIT), 'Events per page; default 100').optional(),
})

const eventListQuery = z.object({
  type: listParam('type', eventTypes).optional(),
  event_name: single('event_name').max(256, 'event_name must be at most 256 characters').optional(),
  cursor: single('cursor').max(200, 'cursor is not valid').optional(),
})

type Params = { Params: { siteId: string }; Querystring: Record<string, unknown> }

export async function v1EventRoutes(
  app: FastifyInstance,
  { db, events, clock }: { db: MetadataDb; events: EventsStore; clock: Clock },
) {
  app.get<Params>(
    '/api/v1/sites/:siteId/events',
    {
      config: {
        doc: {
          summary: "A site's events, newest first",
          description:
            'Paged with `cursor`: pass `meta.nextCursor` to get the next page (null at the end); every event ' +
            'of the range comes exactly once, even while new ones arrive.',
          tag: 'v1',
          access: 'apiKey',
          query: v1EventsQuery,
          responses: {
            200: eventPage,
            404: notMine,
          },
        },
      },
    },
    async (request) => {
      const { site } = await siteForMember(db, callerOf(request).userId, request.params.siteId)
      const query = { limit: '100', ...request.query }
      const params = parseQueryParams(query, clock())
      const own = parseParams(eventListQuery, query)
      const page = await queryEventList(
        events,
        { siteId: site.site_id, params },
        {
          types: own.type,
          eventName: own.event_name,
          cursor: own.cursor,
          limit: params.limit,
        },
      )
      return { data: page.data, meta: { nextCursor: page.nextCursor, limit: params.limit } }
    },
  )
}
