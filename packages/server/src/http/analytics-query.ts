/**
 * The query parameters of the analytics reads, as the OpenAPI document shows them: the common ones
 * (the protocol's `analyticsQuery`, which `query/params.ts` parses with) and those several routes share.
 * A route's own parameters extend these beside the route.
 */
import {
  analyticsQuery,
  breakdownMetrics,
  doc,
  eventNameMetrics,
  seriesBuckets,
  seriesMetrics,
} from '@pathlight/protocol'
import { z } from 'zod'
import { eventTypes } from '../storage/events/event-row.js'

/** The common parameters of every analytics read: the protocol's, which parses them too. */
export { analyticsQuery }

/** A time-series bucket size (weeks start on Monday). */
export const seriesBucket = doc(z.enum(seriesBuckets), 'Bucket size (weeks start on Monday)')

/** `GET /api/sites/{siteId}/stats` and `GET /api/v1/sites/{siteId}/stats`. */
export const statsQuery = analyticsQuery.extend({
  bucket: doc(seriesBucket, 'With it, a time series of the range in buckets of this size').optional(),
})

/** `GET /api/sites/{siteId}/series`: the common parameters, the bucket and the counts to answer. */
export const seriesQuery = analyticsQuery.extend({
  bucket: seriesBucket,
  metrics: doc(
    z.string(),
    `Comma-separated counts each point carries: ${seriesMetrics.join(', ')} (default all three). ` +
      'Fewer counts answer faster: pageviews are summed, while visitors and sessions are each a set of ' +
      'hashes to build or merge',
  ).optional(),
})

/** `GET /api/sites/{siteId}/breakdown/{name}`: the common parameters and the counts to answer. */
export const breakdownQuery = analyticsQuery.extend({
  metrics: doc(
    z.string(),
    `Comma-separated counts the rows carry: ${breakdownMetrics.join(', ')} (default all three). ` +
      'The one the breakdown ranks by (pageviews for pages, visitors for the others) is always among them. ' +
      'Fewer counts answer faster: each distinct count left out is a set of hashes not built or merged',
  ).optional(),
})

/** `GET /api/sites/{siteId}/event-names`: the common parameters and the counts to answer. */
export const eventNamesQuery = analyticsQuery.extend({
  metrics: doc(
    z.string(),
    `Comma-separated counts the rows carry: ${eventNameMetrics.join(', ')} (default all three). ` +
      'events, which ranks the names, is always among them. Fewer counts answer faster: each distinct ' +
      'count left out is a set of hashes not built or merged',
  ).optional(),
})

/** `GET /api/sites/{siteId}/events` and the v1 events: the common parameters (no page: a cursor). */
export const eventsQuery = analyticsQuery.omit({ page: true }).extend({
  type: doc(z.string(), `Comma-separated event types: ${eventTypes.join(', ')}`).optional(),
  event_name: doc(z.string().max(256), 'Only events of this name').optional(),
  cursor: doc(z.string().max(200), 'The `meta.nextCursor` of the previous page').optional(),
})

/** `GET /api/sites/{siteId}/sessions` and the v1 sessions: the common parameters and `has_replay`. */
export const sessionsQuery = analyticsQuery.extend({
  has_replay: doc(
    z.boolean(),
    '`true`: only sessions with a session replay recording (`total` counts those); `false` or absent: all',
  ).optional(),
})
