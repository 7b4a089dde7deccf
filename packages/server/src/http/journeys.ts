/**
 * Route: `GET /api/sites/{siteId}/journeys` (analytics scope: any reader of the site), the user
 * journeys report (`query/journeys.ts` holds the definitions). Takes the common query parameters
 * (`page` is ignored: one list of the top journeys) and `steps`, `start_path`, `end_path`, `limit`;
 * answers `{data: [JourneyPath], links: [JourneyLink], meta: JourneysMeta}`.
 */
import { journeysEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForReader } from '../auth/site-access.js'
import { DEFAULT_JOURNEY_LIMIT, DEFAULT_JOURNEY_STEPS, queryJourneys } from '../query/journeys.js'
import { resolveQueryParams } from '../query/params.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { route } from './route.js'

/** What the journeys route needs: the metadata store (access) and the events store (figures). */
export interface JourneyRouteOptions {
  db: MetadataDb
  events: EventsStore
  /** The current time (default range); the system clock when omitted. */
  clock?: Clock
}

/** Register `GET /api/sites/{siteId}/journeys` from its contract (`contracts/behaviour.ts`). */
export async function journeyRoutes(
  app: FastifyInstance,
  { db, events, clock = systemClock }: JourneyRouteOptions,
) {
  route(app, journeysEndpoint, {
    resolve: ({ params, reader }) => siteForReader(db, reader, params.siteId),
    handle: async ({ query, resolved: { site } }) => {
      // The journeys' own `limit` is not the page size of the common parameters.
      const params = resolveQueryParams({ ...query, limit: undefined }, clock())
      const steps = query.steps ?? DEFAULT_JOURNEY_STEPS
      const limit = query.limit ?? DEFAULT_JOURNEY_LIMIT
      const journeys = await queryJourneys(
        events,
        { siteId: site.site_id, params },
        { steps, startPath: query.start_path, endPath: query.end_path, limit },
      )
      return {
        data: journeys.data,
        links: journeys.links,
        meta: { total: journeys.total, sessions: journeys.sessions, steps, limit },
      }
    },
  })
}
