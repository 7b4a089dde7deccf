/**
 * The report routes of one site, for a member (session cookie) or a shared view (`X-Private-Key`,
 * or nothing for a public site): one function per route, the common query parameters written once
 * (`report-params.ts`), and `part` for any registered report's part (`part-request.ts`), the request
 * of an overview card. Goal and saved-funnel writes are here too (they need a member with the admin
 * role; the server decides).
 */
import type {
  Address,
  AnnotationInput,
  BreakdownMetric,
  EventNameMetric,
  EventType,
  FunnelStep,
  GoalInput,
  Paged,
  ReportPart,
  RetentionPeriod,
  SegmentInput,
  SegmentUpdate,
  SeriesBucket,
  WebVitals,
  WebVitalsRow,
  WebVitalThresholds,
} from '@pathlight/protocol'
import * as endpoints from '@pathlight/protocol/addresses'
import type { ReportQuery } from '../lib/report-query'
import { type Transport, transport } from './client'
import { type CallOptions, createClient } from './contract-client'
import { type PartAnswer, partRequest, type RegisteredPart } from './part-request'
import { reportParams } from './report-params'

/** Page and size of a paginated read. */
export interface PageRequest {
  page?: number
  limit?: number
}

/** Build the reports API of `siteId`; with `privateKey`, every read sends it as `X-Private-Key`. */
export function createReportsApi(siteId: number | string, privateKey?: string, t: Transport = transport) {
  const headers = privateKey ? { 'x-private-key': privateKey } : undefined
  const data = async <T>(promise: Promise<{ data: T }>): Promise<T> => (await promise).data
  const call = createClient(t)
  const options = { headers }
  const site = { siteId }
  const goal = (goalId: number) => ({ siteId, goalId })

  return {
    summary: () => data(call(endpoints.reportSummary, { params: site }, options)),
    /** A breakdown's page; with `metrics`, its rows carry those counts (and the one they rank by) only. */
    breakdown: (
      name: string,
      query: ReportQuery,
      page: PageRequest = {},
      metrics?: readonly BreakdownMetric[],
    ) =>
      call(
        endpoints.reportBreakdown,
        { params: { siteId, name }, query: { ...reportParams(query), ...page, metrics } },
        options,
      ),
    /** A signed link (10 minutes) to the site's page `pathname` with its heatmap over `query` drawn on it. */
    heatmapLink: (query: ReportQuery, pathname: string) =>
      data(
        call(
          endpoints.heatmapLink,
          { params: site, query: { ...reportParams(query), page: pathname } },
          options,
        ),
      ),
    /** A page of custom event names; with `metrics`, its rows carry those counts (and events) only. */
    eventNames: (query: ReportQuery, page: PageRequest = {}, metrics?: readonly EventNameMetric[]) =>
      call(
        endpoints.reportEventNames,
        { params: site, query: { ...reportParams(query), ...page, metrics } },
        options,
      ),
    /** A page of the custom property keys of the range, most events first; with `eventName`, its events' only. */
    propertyKeys: (query: ReportQuery, eventName?: string, page: PageRequest = {}) =>
      call(
        endpoints.listPropertyKeys,
        { params: site, query: { ...reportParams(query), event_name: eventName, ...page } },
        options,
      ),
    /** A page of the values of the custom property `key` (events and visitors), of `eventName`'s events. */
    propertyValues: (key: string, query: ReportQuery, eventName?: string, page: PageRequest = {}) =>
      call(
        endpoints.propertyBreakdown,
        { params: site, query: { ...reportParams(query), property: key, event_name: eventName, ...page } },
        options,
      ),
    live: () => data(call(endpoints.reportLive, { params: site }, options)),
    /**
     * One part alone, with its report's GET route at the query's site (`part-request.ts`): the
     * `{data, meta}` the same part answers in a batch.
     */
    part: <P extends RegisteredPart>(query: ReportQuery, part: P): Promise<PartAnswer<P['name']>> => {
      const request = partRequest(query, part)
      // The request is the contract's: the part's parameters are its GET query's own, as the protocol types them.
      const untyped = call as (address: Address, request: object, options: CallOptions) => Promise<unknown>
      return untyped(request.address, request, options) as Promise<PartAnswer<P['name']>>
    },
    /**
     * Several reports in one request (`POST .../reports`): each part's `{data, meta}` under its id (its
     * name when it has none), as its GET route answers; the common parameters go in the query string.
     */
    batch: (query: ReportQuery, reports: ReportPart[]) =>
      data(
        call(endpoints.reportBatch, { params: site, query: reportParams(query), body: { reports } }, options),
      ),
    sessionEvents: (sessionId: string, query: ReportQuery, page: PageRequest = {}) =>
      call(
        endpoints.reportSessionEvents,
        { params: { siteId, sessionId }, query: { ...reportParams(query), ...page } },
        options,
      ),
    /** The session's recording; rejects with a 404 `ApiError` when it has none. */
    sessionReplay: (sessionId: string) =>
      data(call(endpoints.getSessionReplay, { params: { siteId, sessionId } }, options)),
    /** Delete the session's recording (admins and owners). */
    deleteSessionReplay: (sessionId: string) =>
      call(endpoints.deleteSessionReplay, { params: { siteId, sessionId } }, options),
    events: (query: ReportQuery, options: { type?: EventType; cursor?: string; limit?: number } = {}) =>
      call(
        endpoints.reportEvents,
        { params: site, query: { ...reportParams(query), ...options } },
        { headers },
      ),
    // The route answers the totals, or with `by` a page of groups: each call narrows to its answer.
    webVitals: (query: ReportQuery) =>
      call(endpoints.reportWebVitals, { params: site, query: reportParams(query) }, options) as Promise<{
        data: WebVitals
        meta: { thresholds: WebVitalThresholds }
      }>,
    webVitalsBy: (by: 'pathname' | 'device_type', query: ReportQuery, page: PageRequest = {}) =>
      call(
        endpoints.reportWebVitals,
        { params: site, query: { ...reportParams(query), by, ...page } },
        options,
      ) as Promise<Paged<WebVitalsRow>>,
    goals: (query: ReportQuery) =>
      call(endpoints.listGoals, { params: site, query: { ...reportParams(query), limit: 1000 } }, options),
    goalSessions: (goalId: number, query: ReportQuery, page: PageRequest = {}) =>
      data(
        call(
          endpoints.goalSessions,
          { params: goal(goalId), query: { ...reportParams(query), ...page } },
          options,
        ),
      ),
    createGoal: (input: GoalInput) => call(endpoints.createGoal, { params: site, body: input }, options),
    updateGoal: (goalId: number, input: GoalInput) =>
      call(endpoints.updateGoal, { params: goal(goalId), body: input }, options),
    deleteGoal: (goalId: number) => call(endpoints.deleteGoal, { params: goal(goalId) }, options),
    /** The saved segments the reader sees (shared ones, and a member's own personal ones). */
    segments: () => data(call(endpoints.listSegments, { params: site }, options)),
    createSegment: (input: SegmentInput) =>
      data(call(endpoints.createSegment, { params: site, body: input }, options)),
    /** Change a segment (`filters` replaced whole); answers the segment after the change. */
    updateSegment: (segmentId: number, update: SegmentUpdate) =>
      data(call(endpoints.updateSegment, { params: { siteId, segmentId }, body: update }, options)),
    deleteSegment: (segmentId: number) =>
      call(endpoints.deleteSegment, { params: { siteId, segmentId } }, options),
    /** The site's annotations on the days of `query`'s range. */
    annotations: (query: ReportQuery) =>
      data(
        call(
          endpoints.listAnnotations,
          { params: site, query: { start_date: query.startDate, end_date: query.endDate } },
          options,
        ),
      ),
    createAnnotation: (input: AnnotationInput) =>
      data(call(endpoints.createAnnotation, { params: site, body: input }, options)),
    deleteAnnotation: (id: number) =>
      call(endpoints.deleteAnnotation, { params: { siteId, id: String(id) } }, options),
    errorNames: (query: ReportQuery, page: PageRequest = {}) =>
      data(call(endpoints.errorNames, { params: site, query: { ...reportParams(query), ...page } }, options)),
    errorEvents: (message: string, query: ReportQuery, page: PageRequest = {}) =>
      data(
        call(
          endpoints.errorEvents,
          { params: site, query: { ...reportParams(query), errorMessage: message, ...page } },
          options,
        ),
      ),
    errorBuckets: (message: string, query: ReportQuery, bucket: SeriesBucket) =>
      data(
        call(
          endpoints.errorBuckets,
          { params: site, query: { ...reportParams(query), errorMessage: message, bucket } },
          options,
        ),
      ),
    crawlers: (query: ReportQuery) =>
      data(call(endpoints.siteCrawlers, { params: site, query: reportParams(query) }, options)),
    journeys: (
      query: ReportQuery,
      options: { steps?: number; start_path?: string; end_path?: string; limit?: number } = {},
    ) =>
      call(endpoints.journeys, { params: site, query: { ...reportParams(query), ...options } }, { headers }),
    funnel: (query: ReportQuery, steps: FunnelStep[], breakdown?: string) =>
      call(
        endpoints.funnelFigures,
        { params: site, query: { ...reportParams(query), breakdown }, body: { steps } },
        options,
      ),
    funnelSessions: (
      query: ReportQuery,
      steps: FunnelStep[],
      selection: {
        step: number
        outcome: 'reached' | 'dropped'
        /** With `breakdown_value`: only the sessions with this value of the parameter. */
        breakdown?: string
        breakdown_value?: string
      } & PageRequest,
    ) =>
      call(
        endpoints.funnelSessions,
        { params: site, query: { ...reportParams(query), ...selection }, body: { steps } },
        options,
      ),
    funnels: () => data(call(endpoints.listFunnels, { params: site }, options)),
    createFunnel: (input: { name: string; steps: FunnelStep[] }) =>
      data(call(endpoints.createFunnel, { params: site, body: input }, options)),
    updateFunnel: (funnelId: number, input: { name?: string; steps?: FunnelStep[] }) =>
      data(call(endpoints.updateFunnel, { params: { siteId, funnelId }, body: input }, options)),
    deleteFunnel: (funnelId: number) =>
      call(endpoints.deleteFunnel, { params: { siteId, funnelId } }, options),
    retention: (query: ReportQuery, period: RetentionPeriod) =>
      call(endpoints.retention, { params: site, query: { ...reportParams(query), period } }, options),
  }
}

/** The reports API of one site. */
export type ReportsApi = ReturnType<typeof createReportsApi>
