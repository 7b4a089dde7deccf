/**
 * The report routes of one site, for a member (session cookie) or a shared view (`X-Private-Key`,
 * or nothing for a public site): one function per route, the common query parameters encoded once.
 * Goal and saved-funnel writes are here too (they need a member with the admin role; the server decides).
 */
import type {
  AnnotationInput,
  BreakdownMetric,
  BreakdownRow,
  ComparedSeriesCounts,
  CompareMode,
  EventNameCounts,
  EventNameMetric,
  EventType,
  FunnelStep,
  GoalInput,
  JourneyLink,
  JourneyPath,
  JourneysMeta,
  ListedEvent,
  LiveVisitors,
  Paged,
  ReportFilter,
  ReportPart,
  RetentionCohort,
  RetentionMeta,
  RetentionPeriod,
  SegmentInput,
  SeriesBucket,
  SeriesMeta,
  SeriesMetric,
  Session,
  SessionEvent,
  SiteSummary,
  Stats,
  StatsMeta,
  WebVitals,
  WebVitalsRow,
  WebVitalThresholds,
} from '@pathlight/protocol'
import * as endpoints from '@pathlight/protocol/addresses'
import { type Transport, transport } from './client'
import { createClient } from './contract-client'

/** The common query parameters of every report, as the dashboard holds them (filters decoded). */
export interface ReportQuery {
  start_date: string
  end_date: string
  time_zone: string
  filters: ReportFilter[]
  /** A saved segment's id: its filters apply besides `filters`. */
  segment?: number
  /** The comparison chosen (absent: the API's default, and no compared series or rows). */
  compare?: { mode: CompareMode; startDate?: string; endDate?: string; matchDayOfWeek?: boolean }
}

/** The comparison of `query` as query values (none: all left out). */
function compareParams(query: ReportQuery) {
  const { compare } = query
  return {
    compare: compare?.mode,
    compare_start_date: compare?.startDate,
    compare_end_date: compare?.endDate,
    match_day_of_week: compare?.matchDayOfWeek ? ('true' as const) : undefined,
  }
}

/** Page and size of a paginated read. */
export interface PageRequest {
  page?: number
  limit?: number
}

/** The common parameters as query values (filters as JSON text; none: left out). */
export function reportParams(query: ReportQuery) {
  return {
    start_date: query.start_date,
    end_date: query.end_date,
    time_zone: query.time_zone,
    filters: query.filters.length > 0 ? JSON.stringify(query.filters) : undefined,
    segment: query.segment,
    ...compareParams(query),
  }
}

/** The query string of `query` plus route-specific parameters (undefined ones left out). */
export function reportSearch(
  query: ReportQuery,
  extra: Record<string, string | number | undefined> = {},
): string {
  const params = new URLSearchParams({
    start_date: query.start_date,
    end_date: query.end_date,
    time_zone: query.time_zone,
  })
  if (query.filters.length > 0) params.set('filters', JSON.stringify(query.filters))
  if (query.segment) params.set('segment', String(query.segment))
  for (const [key, value] of Object.entries(compareParams(query)))
    if (value !== undefined) params.set(key, value)
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) params.set(key, String(value))
  return params.toString()
}

/** Build the reports API of `siteId`; with `privateKey`, every read sends it as `X-Private-Key`. */
export function createReportsApi(siteId: number | string, privateKey?: string, t: Transport = transport) {
  const base = `/api/sites/${encodeURIComponent(String(siteId))}`
  const headers = privateKey ? { 'x-private-key': privateKey } : undefined
  const get = <T>(path: string, query?: ReportQuery, extra?: Record<string, string | number | undefined>) =>
    t.request<T>('GET', `${base}/${path}${query ? `?${reportSearch(query, extra)}` : ''}`, undefined, headers)
  const data = async <T>(promise: Promise<{ data: T }>): Promise<T> => (await promise).data
  const call = createClient(t)
  const options = { headers }
  const site = { siteId }
  const goal = (goalId: number) => ({ siteId, goalId })

  return {
    summary: () => data(get<{ data: SiteSummary }>('summary')),
    stats: (query: ReportQuery, bucket?: SeriesBucket) =>
      get<{ data: Stats; meta: StatsMeta }>('stats', query, { bucket }),
    /** The time series alone in `bucket`s, each point with `metrics` only (default all three). */
    series: (query: ReportQuery, bucket: SeriesBucket, metrics?: readonly SeriesMetric[]) =>
      get<{ data: ComparedSeriesCounts[]; meta: SeriesMeta }>('series', query, {
        bucket,
        metrics: metrics?.join(','),
      }),
    /** A breakdown's page; with `metrics`, its rows carry those counts (and the one they rank by) only. */
    breakdown: (
      name: string,
      query: ReportQuery,
      page: PageRequest = {},
      metrics?: readonly BreakdownMetric[],
    ) =>
      get<Paged<BreakdownRow>>(`breakdown/${encodeURIComponent(name)}`, query, {
        ...page,
        metrics: metrics?.join(','),
      }),
    /** A page of custom event names; with `metrics`, its rows carry those counts (and events) only. */
    eventNames: (query: ReportQuery, page: PageRequest = {}, metrics?: readonly EventNameMetric[]) =>
      get<Paged<EventNameCounts>>('event-names', query, { ...page, metrics: metrics?.join(',') }),
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
    live: () => data(get<{ data: LiveVisitors }>('live')),
    /**
     * Several reports in one request (`POST .../reports`): each part's `{data, meta}` under its id (its
     * name when it has none), as its GET route answers; the common parameters go in the query string.
     */
    batch: (query: ReportQuery, reports: ReportPart[]) =>
      data(
        t.request<{ data: Record<string, unknown> }>(
          'POST',
          `${base}/reports?${reportSearch(query)}`,
          { reports },
          headers,
        ),
      ),
    /** With `onlyReplayed`, only the sessions with a session replay recording (`has_replay=true`). */
    sessions: (query: ReportQuery, page: PageRequest = {}, options: { onlyReplayed?: boolean } = {}) =>
      get<Paged<Session>>('sessions', query, {
        ...page,
        has_replay: options.onlyReplayed ? 'true' : undefined,
      }),
    sessionEvents: (sessionId: string, query: ReportQuery, page: PageRequest = {}) =>
      get<Paged<SessionEvent>>(`sessions/${encodeURIComponent(sessionId)}/events`, query, { ...page }),
    /** The session's recording; rejects with a 404 `ApiError` when it has none. */
    sessionReplay: (sessionId: string) =>
      data(call(endpoints.getSessionReplay, { params: { siteId, sessionId } }, options)),
    /** Delete the session's recording (admins and owners). */
    deleteSessionReplay: (sessionId: string) =>
      call(endpoints.deleteSessionReplay, { params: { siteId, sessionId } }, options),
    events: (query: ReportQuery, options: { type?: EventType; cursor?: string; limit?: number } = {}) =>
      get<{ data: ListedEvent[]; meta: { nextCursor: string | null; limit: number } }>(
        'events',
        query,
        options,
      ),
    webVitals: (query: ReportQuery) =>
      get<{ data: WebVitals; meta: { thresholds: WebVitalThresholds } }>('web-vitals', query),
    webVitalsBy: (by: 'pathname' | 'device_type', query: ReportQuery, page: PageRequest = {}) =>
      get<Paged<WebVitalsRow>>('web-vitals', query, { by, ...page }),
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
    deleteSegment: (segmentId: number) =>
      call(endpoints.deleteSegment, { params: { siteId, segmentId } }, options),
    /** The site's annotations on the days of `query`'s range. */
    annotations: (query: ReportQuery) =>
      data(
        call(
          endpoints.listAnnotations,
          { params: site, query: { start_date: query.start_date, end_date: query.end_date } },
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
    journeys: (
      query: ReportQuery,
      options: { steps?: number; start_path?: string; end_path?: string; limit?: number } = {},
    ) => get<{ data: JourneyPath[]; links: JourneyLink[]; meta: JourneysMeta }>('journeys', query, options),
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
      get<{ data: RetentionCohort[]; meta: RetentionMeta }>('retention', query, { period }),
  }
}

/** The reports API of one site. */
export type ReportsApi = ReturnType<typeof createReportsApi>
