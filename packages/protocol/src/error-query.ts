/**
 * The query parameters of the JavaScript error reads beyond the common ones: `errorMessage` (the exact
 * message, 1-2,048 characters) and, for the buckets, `bucket` (default hour).
 */
import { z } from 'zod'
import { analyticsQuery, single } from './analytics-query.js'
import { doc } from './openapi-registry.js'

/** The longest error message a query names, in characters. */
export const MAX_ERROR_MESSAGE = 2048

/** The bucket sizes of an error's time series (weeks start on Monday). */
export const errorBucketUnits = ['minute', 'hour', 'day', 'week', 'month'] as const
/** One of `errorBucketUnits`. */
export type ErrorBucketUnit = (typeof errorBucketUnits)[number]

const errorMessage = doc(
  single('errorMessage')
    .min(1, 'errorMessage is required')
    .max(MAX_ERROR_MESSAGE, `errorMessage must be at most ${MAX_ERROR_MESSAGE} characters`),
  'The exact error message',
)

/** `error-events`: the common parameters and the message. */
export const errorEventsQuery = analyticsQuery.extend({ errorMessage })

/** `error-bucketed`: the common parameters, the message and the bucket size. */
export const errorBucketsQuery = analyticsQuery.extend({
  errorMessage,
  bucket: doc(
    z.enum(errorBucketUnits, {
      error: (issue) =>
        Array.isArray(issue.input)
          ? 'bucket must be given once'
          : `bucket must be one of ${errorBucketUnits.join(', ')}`,
    }),
    'Bucket size (weeks start on Monday); default hour',
  ).default('hour'),
})
