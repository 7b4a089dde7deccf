/**
 * Routes: the custom properties of a site, registered from their contracts (`@pathlight/protocol`
 * `contracts/properties.ts`): the keys seen in the range and one key's values. Any reader of the site
 * (the dashboard pair) or a member through an API key (the v1 pair, registered in the v1 scope, which
 * authenticates the key and draws on its request budget); the contracts parse the input,
 * `query/property-*.ts` count.
 */
import {
  listPropertyKeysEndpoint,
  propertyBreakdownEndpoint,
  type propertyBreakdownQuery,
  type propertyKeysQuery,
  v1ListPropertyKeysEndpoint,
  v1PropertyBreakdownEndpoint,
} from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import type { z } from 'zod'
import { siteForMember, siteForReader } from '../auth/site-access.js'
import { resolveQueryParams } from '../query/params.js'
import { queryPropertyBreakdown } from '../query/property-breakdown.js'
import { queryPropertyKeys } from '../query/property-keys.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { pageMeta } from './page-meta.js'
import { route } from './route.js'

/** What the property routes need: the metadata store (access) and the events store (figures). */
export interface PropertyRouteOptions {
  db: MetadataDb
  events: EventsStore
  /** The current time (the default date range ends today); the system clock when omitted. */
  clock?: Clock
}

/** The two answers, shared by the dashboard and v1 pairs: `{data, meta}` of the site's scope. */
function propertyAnswers({ events, clock = systemClock }: PropertyRouteOptions) {
  return {
    keys: async (siteId: number, query: z.output<typeof propertyKeysQuery>) => {
      const range = resolveQueryParams(query, clock())
      const { data, total } = await queryPropertyKeys(events, { siteId, params: range }, query.event_name)
      return { data, meta: pageMeta(range, total) }
    },
    breakdown: async (siteId: number, query: z.output<typeof propertyBreakdownQuery>) => {
      const range = resolveQueryParams(query, clock())
      const scope = { siteId, params: range }
      const { data, total } = await queryPropertyBreakdown(events, scope, query.property, query.event_name)
      return { data, meta: pageMeta(range, total) }
    },
  }
}

/**
 * GET `/api/sites/{siteId}/properties` and `.../breakdown/properties`. Errors are AppErrors (400
 * naming the field, 401, 403, 404); access answers before the query is parsed.
 */
export async function propertyRoutes(app: FastifyInstance, options: PropertyRouteOptions) {
  const { db } = options
  const answers = propertyAnswers(options)
  route(app, listPropertyKeysEndpoint, {
    resolve: ({ params, reader }) => siteForReader(db, reader, params.siteId),
    handle: ({ query, resolved: { site } }) => answers.keys(site.site_id, query),
  })
  route(app, propertyBreakdownEndpoint, {
    resolve: ({ params, reader }) => siteForReader(db, reader, params.siteId),
    handle: ({ query, resolved: { site } }) => answers.breakdown(site.site_id, query),
  })
}

/**
 * GET `/api/v1/sites/{siteId}/properties` and `.../breakdown/properties`: the same answers as the
 * dashboard pair, to the caller of an API key (a member of the site's organization; any other site
 * answers 404). Register inside the v1 scope.
 */
export async function v1PropertyRoutes(app: FastifyInstance, options: PropertyRouteOptions) {
  const { db } = options
  const answers = propertyAnswers(options)
  route(app, v1ListPropertyKeysEndpoint, {
    resolve: ({ params, caller }) => siteForMember(db, caller.userId, params.siteId),
    handle: ({ query, resolved: { site } }) => answers.keys(site.site_id, query),
  })
  route(app, v1PropertyBreakdownEndpoint, {
    resolve: ({ params, caller }) => siteForMember(db, caller.userId, params.siteId),
    handle: ({ query, resolved: { site } }) => answers.breakdown(site.site_id, query),
  })
}
