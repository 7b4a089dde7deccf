/**
 * The JavaScript error reads of a site, for any reader (member, private link key, anyone for a public
 * site): errors by message, one message's occurrences, and one message over time.
 */
import { z } from 'zod'
import { analyticsQuery } from '../analytics-query.js'
import { endpoint } from '../contract.js'
import { errorBucketsQuery, errorEventsQuery } from '../error-query.js'
import { errorBucket, errorEvent, errorName } from '../report-schemas.js'
import { pagedList, successList } from '../response-schemas.js'
import * as at from './addresses.js'

/** `:siteId`, as text: an id that names no site is a 404 of the access check, not a 400. */
const siteParams = z.object({ siteId: z.string() })

/** `GET /api/sites/:siteId/error-names`: a page of the errors by message, most frequent first. */
export const errorNamesEndpoint = endpoint({
  ...at.errorNames,
  summary: 'JavaScript errors by message',
  tag: 'Errors',
  access: 'reader',
  params: siteParams,
  query: analyticsQuery,
  responses: { 200: { description: 'Most frequent first', schema: pagedList(errorName) } },
})

/** `GET /api/sites/:siteId/error-events`: a page of one message's occurrences, newest first. */
export const errorEventsEndpoint = endpoint({
  ...at.errorEvents,
  summary: 'Occurrences of one error message',
  tag: 'Errors',
  access: 'reader',
  params: siteParams,
  query: errorEventsQuery,
  responses: { 200: { description: 'Newest first', schema: pagedList(errorEvent) } },
})

/** `GET /api/sites/:siteId/error-bucketed`: one message's count per bucket of the range. */
export const errorBucketsEndpoint = endpoint({
  ...at.errorBuckets,
  summary: 'One error message over time',
  description: 'Every bucket of the range (empty ones 0), aligned to `time_zone`; at most 10,000 buckets.',
  tag: 'Errors',
  access: 'reader',
  params: siteParams,
  query: errorBucketsQuery,
  responses: { 200: { description: 'Oldest bucket first', schema: successList(errorBucket) } },
})

/** Every error analytics endpoint (the route/contract coverage test reads these). */
export const errorEndpoints = [errorNamesEndpoint, errorEventsEndpoint, errorBucketsEndpoint] as const

declare module './addresses.js' {
  interface EndpointContracts {
    errorNames: typeof errorNamesEndpoint
    errorEvents: typeof errorEventsEndpoint
    errorBuckets: typeof errorBucketsEndpoint
  }
}
