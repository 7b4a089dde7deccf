/**
 * Routes: the custom properties of a site, registered from their contracts (`@pathlight/protocol`
 * `contracts/properties.ts`): the keys seen in the range and one key's values. Any reader of the site;
 * the contracts parse the input, `query/property-*.ts` count.
 */
import { listPropertyKeysEndpoint, propertyBreakdownEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForReader } from '../auth/site-access.js'
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

/**
 * GET `/api/sites/{siteId}/properties` and `.../breakdown/properties`. Errors are AppErrors (400
 * naming the field, 401, 403, 404); access answers before the query is parsed.
 */
export async function propertyRoutes(
  app: FastifyInstance,
  { db, events, clock = systemClock }: PropertyRouteOptions,
) {
  route(app, listPropertyKeysEndpoint, {
    resolve: ({ params, reader }) => siteForReader(db, reader, params.siteId),
    handle: async ({ query, resolved: { site } }) => {
      const range = resolveQueryParams(query, clock())
      const scope = { siteId: site.site_id, params: range }
      const { data, total } = await queryPropertyKeys(events, scope, query.event_name)
      return { data, meta: pageMeta(range, total) }
    },
  })

  route(app, propertyBreakdownEndpoint, {
    resolve: ({ params, reader }) => siteForReader(db, reader, params.siteId),
    handle: async ({ query, resolved: { site } }) => {
      const range = resolveQueryParams(query, clock())
      const scope = { siteId: site.site_id, params: range }
      const { data, total } = await queryPropertyBreakdown(events, scope, query.property, query.event_name)
      return { data, meta: pageMeta(range, total) }
    },
  })
}
