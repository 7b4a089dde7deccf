/**
 * Route: `GET /api/sites/{siteId}/journeys` (analytics scope: any reader of the site), the user
 * journeys report (`query/journeys.ts` holds the definitions). Takes the common query parameters
 * (`page` is ignored: one list of the top journeys) and `steps`, `start_path`, `end_path`, `limit`;
 * answers `{data: [JourneyPath], links: [JourneyLink], meta: JourneysMeta}`.
 */
import { doc, journeyLink, journeyPath, journeysMeta } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { siteForReader } from '../auth/site-access.js'
import {
  DEFAULT_JOURNEY_LIMIT,
  DEFAULT_JOURNEY_STEPS,
  MAX_JOURNEY_LIMIT,
  MAX_JOURNEY_STEPS,
  MIN_JOURNEY_STEPS,
  queryJourneys,
} from '../query/journeys.js'
import { integerParam, parseParams, parseQueryParams, single } from '../query/params.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { analyticsQuery } from './analytics-query.js'
import { json } from './openapi/route-doc.js'
import { readerOf } from './reader.js'

/** Longest `start_path` / `end_path` (the longest pathname ingest stores). */
const MAX_PATH_LENGTH = 2048

const pathParam = (name: string) =>
  single(name)
    .max(MAX_PATH_LENGTH, `${name} must be at most ${MAX_PATH_LENGTH} characters`)
    .transform((value) => (value === '' ? undefined : value))
    .optional()

/** The route's own parameters, validated (400 naming the parameter). */
const journeysInput = z.object({
  steps: integerParam('steps', MIN_JOURNEY_STEPS, MAX_JOURNEY_STEPS).optional(),
  start_path: pathParam('start_path'),
  end_path: pathParam('end_path'),
  limit: integerParam('limit', 1, MAX_JOURNEY_LIMIT).optional(),
})

/** The route's parameters as the OpenAPI document shows them. */
const journeysQuery = analyticsQuery.omit({ page: true, limit: true }).extend({
  steps: doc(
    z.int().min(MIN_JOURNEY_STEPS).max(MAX_JOURNEY_STEPS),
    `Most pages per journey; default ${DEFAULT_JOURNEY_STEPS}`,
  ).optional(),
  start_path: doc(
    z.string().max(MAX_PATH_LENGTH),
    'Journeys start at the first pageview of this pathname (exact); sessions without it are left out',
  ).optional(),
  end_path: doc(
    z.string().max(MAX_PATH_LENGTH),
    'Journeys end at the first pageview of this pathname (after `start_path` when both are given); ' +
      'sessions without it are left out',
  ).optional(),
  limit: doc(
    z.int().min(1).max(MAX_JOURNEY_LIMIT),
    `Most journeys returned; default ${DEFAULT_JOURNEY_LIMIT}`,
  ).optional(),
})

/** What the route needs: the metadata store (access) and the events store (figures). */
export interface JourneyRouteOptions {
  db: MetadataDb
  events: EventsStore
  /** The current time (default range); the system clock when omitted. */
  clock?: Clock
}

/** Register `GET /api/sites/:siteId/journeys`. */
export async function journeyRoutes(
  app: FastifyInstance,
  { db, events, clock = systemClock }: JourneyRouteOptions,
) {
  app.get<{ Params: { siteId: string } }>(
    '/api/sites/:siteId/journeys',
    {
      config: {
        doc: {
          summary: 'User journeys: the most common page sequences of sessions, and their transitions',
          description:
            "Per counted session, its pageviews' pathnames in time order with consecutive repeats " +
            'collapsed, cut to `steps` pages: from its start, from the first `start_path`, ending at ' +
            'the first `end_path`, or (both) from the first `start_path` to the next `end_path` when ' +
            'that is at most `steps` pages. Journeys of one page are not counted. `links` are the ' +
            'transitions of the returned journeys (steps 1-based), for a Sankey chart.',
          tag: 'Reports',
          access: 'reader',
          query: journeysQuery,
          responses: {
            200: json(
              'The top journeys, most sessions first, and their transitions',
              z.object({ data: z.array(journeyPath), links: z.array(journeyLink), meta: journeysMeta }),
            ),
          },
        },
      },
    },
    async (request) => {
      const { site } = await siteForReader(db, readerOf(request), request.params.siteId)
      // The route's own `limit` bounds first, so that a too large limit names this route's maximum.
      const own = parseParams(journeysInput, request.query)
      const params = parseQueryParams({ ...(request.query as object), limit: undefined }, clock())
      const steps = own.steps ?? DEFAULT_JOURNEY_STEPS
      const limit = own.limit ?? DEFAULT_JOURNEY_LIMIT
      const journeys = await queryJourneys(
        events,
        { siteId: site.site_id, params },
        { steps, startPath: own.start_path, endPath: own.end_path, limit },
      )
      return {
        data: journeys.data,
        links: journeys.links,
        meta: { total: journeys.total, sessions: journeys.sessions, steps, limit },
      }
    },
  )
}
