/**
 * Routes: JavaScript error analytics of a site (not to be confused with `error-handler.ts`, the
 * error mapper), registered from their contracts (`@pathlight/protocol` `contracts/errors.ts`).
 * Analytics scope: any reader of the site (member, private link key, anyone for a public site).
 * Besides the common parameters: `errorMessage` (required by error-events and error-bucketed, the
 * exact message) and `bucket` (error-bucketed: minute, hour, day, week or month; default hour).
 */
import { errorBucketsEndpoint, errorEventsEndpoint, errorNamesEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForReader } from '../auth/site-access.js'
import { queryErrorBuckets } from '../query/error-buckets.js'
import { queryErrorEvents } from '../query/error-events.js'
import { queryErrorNames } from '../query/error-names.js'
import { resolveQueryParams } from '../query/params.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { pageMeta } from './page-meta.js'
import { type ResolveInput, route } from './route.js'
import { wholeList } from './whole-list.js'

/** What the error analytics routes need: the metadata store (access) and the events store. */
export interface ErrorAnalyticsRouteOptions {
  db: MetadataDb
  events: EventsStore
  /** The current time (the default date range ends today); the system clock when omitted. */
  clock?: Clock
}

/**
 * GET `/api/sites/{siteId}/error-names` `{data:[Error]}`, `.../error-events` `{data:[ErrorEvent]}`,
 * `.../error-bucketed` `{success:true, data:[ErrorBucket]}` (row shapes: `query/error-names.ts`,
 * `query/error-events.ts`, `query/error-buckets.ts`). Each resolves the site before its query is parsed.
 */
export async function errorAnalyticsRoutes(
  app: FastifyInstance,
  { db, events, clock = systemClock }: ErrorAnalyticsRouteOptions,
) {
  /** The site, for any reader of it (401, 403, 404 answer here). */
  const readerSite = async ({
    params,
    reader,
  }: Pick<ResolveInput<typeof errorNamesEndpoint>, 'params' | 'reader'>) =>
    (await siteForReader(db, reader, params.siteId)).site

  route(app, errorNamesEndpoint, {
    resolve: readerSite,
    handle: async ({ query, resolved: site }) => {
      const params = resolveQueryParams(query, clock())
      const { data, total } = await queryErrorNames(events, { siteId: site.site_id, params })
      return { data, meta: pageMeta(params, total) }
    },
  })

  route(app, errorEventsEndpoint, {
    resolve: readerSite,
    handle: async ({ query, resolved: site }) => {
      const params = resolveQueryParams(query, clock())
      const scope = { siteId: site.site_id, params }
      const { data, total } = await queryErrorEvents(events, scope, query.errorMessage)
      return { data, meta: pageMeta(params, total) }
    },
  })

  route(app, errorBucketsEndpoint, {
    resolve: readerSite,
    handle: async ({ query, resolved: site }) => {
      const scope = { siteId: site.site_id, params: resolveQueryParams(query, clock()) }
      return wholeList(await queryErrorBuckets(events, scope, query.errorMessage, query.bucket))
    },
  })
}
