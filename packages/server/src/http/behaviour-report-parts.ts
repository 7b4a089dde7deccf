/**
 * The report functions of the error analytics and the behaviour reports (journeys, retention), by
 * their names in the report registry (`contracts/report-registry.ts` of the protocol); spread into
 * `reportParts` (`report-parts.ts`), whose loops in `reports.ts` and `v1/reports.ts` register their
 * routes. Each takes `(deps, siteId, query)` with `query` as its contract parsed it (`contracts/errors.ts`,
 * `contracts/behaviour.ts`), resolves the range first and returns the report ready to run; none is a
 * batch part. Failures are AppError 400 naming the parameter: a time zone, filters or a range before
 * anything runs, too many retention periods when the report runs, before its query.
 */
import type {
  errorBucketsEndpoint,
  errorEventsEndpoint,
  errorNamesEndpoint,
  journeysEndpoint,
  QueryOf,
  retentionEndpoint,
} from '@pathlight/protocol'
import { queryErrorBuckets } from '../query/error-buckets.js'
import { queryErrorEvents } from '../query/error-events.js'
import { queryErrorNames } from '../query/error-names.js'
import { DEFAULT_JOURNEY_LIMIT, DEFAULT_JOURNEY_STEPS, queryJourneys } from '../query/journeys.js'
import { queryRetention } from '../query/retention.js'
import { pageMeta } from './page-meta.js'
import { type Prepared, type ReportPartDeps, reportScope } from './report-part.js'
import { wholeList } from './whole-list.js'

/**
 * - `error-names`: a page of the JavaScript errors by message, most frequent first
 *   (`{data: [Error], meta: page}`, `query/error-names.ts`).
 * - `error-events`: a page of the occurrences of the message `errorMessage`, newest first
 *   (`{data: [ErrorEvent], meta: page}`, `query/error-events.ts`).
 * - `error-bucketed`: that message's count per `bucket` (minute to month, default hour) of the range,
 *   empty buckets 0 (`{success: true, data: [ErrorBucket], meta: {total}}`, `query/error-buckets.ts`).
 * - `journeys`: the top page sequences of sessions and their transitions (`{data: [JourneyPath],
 *   links: [JourneyLink], meta: {total, sessions, steps, limit}}`, `query/journeys.ts`).
 * - `retention` (and its v1 twin): one cohort per `period` (day, week or month, default week) of the
 *   range (`{data: [RetentionCohort], meta: {period, startDate, endDate, timeZone}}`,
 *   `query/retention.ts`); `page` and `limit` are ignored.
 */
export const behaviourReportParts = {
  'error-names'(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof errorNamesEndpoint>,
  ): Prepared<typeof errorNamesEndpoint> {
    const scope = reportScope(deps, siteId, query)
    return async () => {
      const { data, total } = await queryErrorNames(deps.events, scope)
      return { data, meta: pageMeta(scope.params, total) }
    }
  },

  'error-events'(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof errorEventsEndpoint>,
  ): Prepared<typeof errorEventsEndpoint> {
    const scope = reportScope(deps, siteId, query)
    return async () => {
      const { data, total } = await queryErrorEvents(deps.events, scope, query.errorMessage)
      return { data, meta: pageMeta(scope.params, total) }
    }
  },

  'error-bucketed'(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof errorBucketsEndpoint>,
  ): Prepared<typeof errorBucketsEndpoint> {
    const scope = reportScope(deps, siteId, query)
    return async () =>
      wholeList(await queryErrorBuckets(deps.events, scope, query.errorMessage, query.bucket))
  },

  journeys(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof journeysEndpoint>,
  ): Prepared<typeof journeysEndpoint> {
    // The journeys' own `limit` is not the page size of the common parameters.
    const scope = reportScope(deps, siteId, { ...query, limit: undefined })
    const steps = query.steps ?? DEFAULT_JOURNEY_STEPS
    const limit = query.limit ?? DEFAULT_JOURNEY_LIMIT
    return async () => {
      const journeys = await queryJourneys(deps.events, scope, {
        steps,
        startPath: query.start_path,
        endPath: query.end_path,
        limit,
      })
      return {
        data: journeys.data,
        links: journeys.links,
        meta: { total: journeys.total, sessions: journeys.sessions, steps, limit },
      }
    }
  },

  retention(
    deps: ReportPartDeps,
    siteId: number,
    query: QueryOf<typeof retentionEndpoint>,
  ): Prepared<typeof retentionEndpoint> {
    const scope = reportScope(deps, siteId, query)
    const { period = 'week' } = query
    const { startDate, endDate, timeZone, timeZoneName } = scope.params
    return async () => ({
      data: await queryRetention(deps.events, scope, period),
      meta: { period, startDate, endDate, timeZone: timeZoneName ?? timeZone },
    })
  },
}
