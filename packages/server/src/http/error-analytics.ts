/**
 * Routes: JavaScript error analytics of a site (not to be confused with `error-handler.ts`, the
 * error mapper). Analytics scope: any reader of the site (member, private link key, anyone for a
 * public site). Besides the common parameters (`query/params.ts`): `errorMessage` (required by
 * error-events and error-bucketed, the exact message) and `bucket` (error-bucketed: minute, hour,
 * day, week or month; default hour).
 */
import { doc, errorBucket, errorEvent, errorName, pagedList, successList } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { siteForReader } from '../auth/site-access.js'
import { queryErrorBuckets } from '../query/error-buckets.js'
import { queryErrorEvents } from '../query/error-events.js'
import { queryErrorNames } from '../query/error-names.js'
import { parseParams, parseQueryParams, single } from '../query/params.js'
import { bucketUnits } from '../query/time-buckets.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { analyticsQuery } from './analytics-query.js'
import { json } from './openapi/route-doc.js'
import { pageMeta } from './page-meta.js'
import { readerOf } from './reader.js'
import { wholeList } from './whole-list.js'

const errorMessageParam = doc(z.string().min(1).max(2048), 'The exact error message')

/** `error-events`: the common parameters and the message. */
export const errorEventsQuery = analyticsQuery.extend({ errorMessage: errorMessageParam })

/** `error-bucketed`: the common parameters, the message and the bucket size. */
export const errorBucketsQuery = analyticsQuery.extend({
  errorMessage: errorMessageParam,
  bucket: doc(z.enum(bucketUnits), 'Bucket size (weeks start on Monday); default hour').optional(),
})

/** What the error analytics routes need: the metadata store (access) and the events store. */
export interface ErrorAnalyticsRouteOptions {
  db: MetadataDb
  events: EventsStore
  /** The current time (the default date range ends today); the system clock when omitted. */
  clock?: Clock
}

type SiteParams = { Params: { siteId: string } }

const MAX_MESSAGE = 2048

const errorMessage = single('errorMessage')
  .min(1, 'errorMessage is required')
  .max(MAX_MESSAGE, `errorMessage must be at most ${MAX_MESSAGE} characters`)

const messageQuery = z.object({ errorMessage })

const bucketedQuery = z.object({
  errorMessage,
  bucket: z
    .enum(bucketUnits, {
      error: (issue) =>
        Array.isArray(issue.input)
          ? 'bucket must be given once'
          : `bucket must be one of ${bucketUnits.join(', ')}`,
    })
    .default('hour'),
})

/**
 * GET `/api/sites/{siteId}/error-names` `{data:[Error]}`, `.../error-events` `{data:[ErrorEvent]}`,
 * `.../error-bucketed` `{success:true, data:[ErrorBucket]}` (row shapes: `query/error-names.ts`,
 * `query/error-events.ts`, `query/error-buckets.ts`).
 */
export async function errorAnalyticsRoutes(
  app: FastifyInstance,
  { db, events, clock = systemClock }: ErrorAnalyticsRouteOptions,
) {
  app.get<SiteParams>(
    '/api/sites/:siteId/error-names',
    {
      config: {
        doc: {
          summary: 'JavaScript errors by message',
          tag: 'Errors',
          access: 'reader',
          query: analyticsQuery,
          responses: { 200: json('Most frequent first', pagedList(errorName)) },
        },
      },
    },
    async (request) => {
      const { site } = await siteForReader(db, readerOf(request), request.params.siteId)
      const params = parseQueryParams(request.query, clock())
      const { data, total } = await queryErrorNames(events, { siteId: site.site_id, params })
      return { data, meta: pageMeta(params, total) }
    },
  )

  app.get<SiteParams>(
    '/api/sites/:siteId/error-events',
    {
      config: {
        doc: {
          summary: 'Occurrences of one error message',
          tag: 'Errors',
          access: 'reader',
          query: errorEventsQuery,
          responses: { 200: json('Newest first', pagedList(errorEvent)) },
        },
      },
    },
    async (request) => {
      const { site } = await siteForReader(db, readerOf(request), request.params.siteId)
      const params = parseQueryParams(request.query, clock())
      const { errorMessage: message } = parseParams(messageQuery, request.query)
      const { data, total } = await queryErrorEvents(events, { siteId: site.site_id, params }, message)
      return { data, meta: pageMeta(params, total) }
    },
  )

  app.get<SiteParams>(
    '/api/sites/:siteId/error-bucketed',
    {
      config: {
        doc: {
          summary: 'One error message over time',
          description:
            'Every bucket of the range (empty ones 0), aligned to `time_zone`; at most 10,000 buckets.',
          tag: 'Errors',
          access: 'reader',
          query: errorBucketsQuery,
          responses: { 200: json('Oldest bucket first', successList(errorBucket)) },
        },
      },
    },
    async (request) => {
      const { site } = await siteForReader(db, readerOf(request), request.params.siteId)
      const params = parseQueryParams(request.query, clock())
      const { errorMessage: message, bucket } = parseParams(bucketedQuery, request.query)
      return wholeList(await queryErrorBuckets(events, { siteId: site.site_id, params }, message, bucket))
    },
  )
}
