/**
 * The report registration: each report of a site by name, with its GET endpoint (whose contract holds
 * the parameter schema and the response schema), its label, and whether the batch route
 * (`POST /api/sites/:siteId/reports`) runs it as a part. The server registers the GET routes from
 * these endpoints and parses each batch part with its report's query schema, so a part is validated
 * and answers exactly as its GET route; a report with a `v1` twin gets that route too, answered by
 * the same report function.
 *
 * A report of the public API alone (no dashboard route answers the same) is an entry whose `endpoint`
 * is its v1 endpoint (access `apiKey`), with no `v1` and `batch: false` (the batch is the dashboard's),
 * named `v1-` and its route's last segment. Each surface registers the endpoints of its own access
 * (`reportEndpointsFor`): the dashboard's routes those of `reader`, the v1 API's those of `apiKey`, a
 * v1-only `endpoint` and a `v1` twin alike.
 */
import type { Access, EndpointSpec } from '../contract.js'
import { reportLabels } from '../enums.js'
import { journeysEndpoint, retentionEndpoint, v1RetentionEndpoint } from './behaviour.js'
import { siteCrawlersEndpoint } from './crawlers.js'
import { errorBucketsEndpoint, errorEventsEndpoint, errorNamesEndpoint } from './errors.js'
import {
  funnelFiguresEndpoint,
  funnelSessionsEndpoint,
  getFunnelEndpoint,
  savedFunnelSessionsEndpoint,
} from './funnels.js'
import { goalSessionsEndpoint, listGoalsEndpoint } from './goals.js'
import { siteHeatmapEndpoint, v1HeatmapEndpoint } from './heatmaps.js'
import {
  listPropertyKeysEndpoint,
  propertyBreakdownEndpoint,
  v1ListPropertyKeysEndpoint,
  v1PropertyBreakdownEndpoint,
} from './properties.js'
import {
  breakdownEndpoint,
  engagementEndpoint,
  eventNamesEndpoint,
  eventsEndpoint,
  liveEndpoint,
  pageStatsEndpoint,
  reportSummaryEndpoint,
  seriesEndpoint,
  sessionEventsEndpoint,
  sessionsEndpoint,
  statsEndpoint,
  webVitalsEndpoint,
} from './reports.js'
import {
  v1EngagementEndpoint,
  v1EventNamesEndpoint,
  v1EventsEndpoint,
  v1PagesEndpoint,
  v1RevenueEndpoint,
  v1SessionsEndpoint,
  v1StatsEndpoint,
} from './v1-reports.js'

/** One registered report. */
export interface ReportRegistration {
  /**
   * Its GET endpoint: parameters (`query`), answer (`responses[200]`), access (`reader` for the
   * dashboard's reports, `apiKey` for a report of the v1 API alone).
   * Its endpoint: parameters (`query`; a POST's body too), answer (`responses[200]`), access. A GET,
   * or a POST that only reads (its body the report's definition: an ad-hoc funnel's steps).
   */
  endpoint: EndpointSpec
  /** What people call it: its entry in the protocol's `reportLabels`. */
  label: string
  /** Whether a batch may hold it as a part of this name. */
  batch: boolean
  /**
   * Whether its batch part takes the page parameters its query has (`page`, `limit`): the part's
   * other parameters are its query's own (those `analyticsQuery` does not hold) and its path's but
   * the site (`report-batch.ts`).
   */
  paged?: boolean
  /** Its v1 twin, answering the same to an API key (the server registers it from this entry). */
  v1?: EndpointSpec
}

/**
 * Every report of a site, by the name its batch part and its route's last segment share (a report of
 * the v1 API alone: `v1-` and its route's last segment).
 */
export const reportRegistry = {
  summary: { endpoint: reportSummaryEndpoint, label: reportLabels.summary, batch: false },
  stats: { endpoint: statsEndpoint, label: reportLabels.stats, batch: true, v1: v1StatsEndpoint },
  series: { endpoint: seriesEndpoint, label: reportLabels.series, batch: true },
  breakdown: { endpoint: breakdownEndpoint, label: reportLabels.breakdown, batch: true, paged: true },
  sessions: {
    endpoint: sessionsEndpoint,
    label: reportLabels.sessions,
    batch: true,
    paged: true,
    v1: v1SessionsEndpoint,
  },
  'session-events': { endpoint: sessionEventsEndpoint, label: reportLabels['session-events'], batch: false },
  events: { endpoint: eventsEndpoint, label: reportLabels.events, batch: true, paged: true },
  'event-names': {
    endpoint: eventNamesEndpoint,
    label: reportLabels['event-names'],
    batch: true,
    paged: true,
    v1: v1EventNamesEndpoint,
  },
  'web-vitals': { endpoint: webVitalsEndpoint, label: reportLabels['web-vitals'], batch: true, paged: true },
  'page-stats': {
    endpoint: pageStatsEndpoint,
    label: reportLabels['page-stats'],
    batch: true,
    paged: true,
    v1: v1PagesEndpoint,
  },
  live: { endpoint: liveEndpoint, label: reportLabels.live, batch: true },
  engagement: {
    endpoint: engagementEndpoint,
    label: reportLabels.engagement,
    batch: true,
    v1: v1EngagementEndpoint,
  },
  'error-names': { endpoint: errorNamesEndpoint, label: reportLabels['error-names'], batch: false },
  'error-events': { endpoint: errorEventsEndpoint, label: reportLabels['error-events'], batch: false },
  'error-bucketed': { endpoint: errorBucketsEndpoint, label: reportLabels['error-bucketed'], batch: false },
  journeys: { endpoint: journeysEndpoint, label: reportLabels.journeys, batch: false },
  retention: {
    endpoint: retentionEndpoint,
    label: reportLabels.retention,
    batch: false,
    v1: v1RetentionEndpoint,
  },
  'v1-events': { endpoint: v1EventsEndpoint, label: reportLabels['v1-events'], batch: false },
  'v1-revenue': { endpoint: v1RevenueEndpoint, label: reportLabels['v1-revenue'], batch: false },
  properties: {
    endpoint: listPropertyKeysEndpoint,
    label: reportLabels.properties,
    batch: false,
    v1: v1ListPropertyKeysEndpoint,
  },
  'property-breakdown': {
    endpoint: propertyBreakdownEndpoint,
    label: reportLabels['property-breakdown'],
    batch: false,
    v1: v1PropertyBreakdownEndpoint,
  },
  crawlers: { endpoint: siteCrawlersEndpoint, label: reportLabels.crawlers, batch: false },
  heatmap: {
    endpoint: siteHeatmapEndpoint,
    label: reportLabels.heatmap,
    batch: false,
    v1: v1HeatmapEndpoint,
  },
  goals: { endpoint: listGoalsEndpoint, label: reportLabels.goals, batch: false },
  'goal-sessions': { endpoint: goalSessionsEndpoint, label: reportLabels['goal-sessions'], batch: false },
  'saved-funnel': { endpoint: getFunnelEndpoint, label: reportLabels['saved-funnel'], batch: false },
  'saved-funnel-sessions': {
    endpoint: savedFunnelSessionsEndpoint,
    label: reportLabels['saved-funnel-sessions'],
    batch: false,
  },
  'funnel-figures': { endpoint: funnelFiguresEndpoint, label: reportLabels['funnel-figures'], batch: false },
  'funnel-sessions': {
    endpoint: funnelSessionsEndpoint,
    label: reportLabels['funnel-sessions'],
    batch: false,
  },
} as const satisfies Record<keyof typeof reportLabels, ReportRegistration>

/** A registered report's name. */
export type ReportName = keyof typeof reportRegistry

/** The registered reports with a v1 twin. */
export type V1ReportName = {
  [N in ReportName]: (typeof reportRegistry)[N] extends { v1: EndpointSpec } ? N : never
}[ReportName]

/** The names of the registered reports with a v1 twin. */
export const v1ReportNames = (Object.keys(reportRegistry) as ReportName[]).filter(
  (name): name is V1ReportName => 'v1' in reportRegistry[name],
)

/** A registered report's endpoint of one access, with the report's name. */
export interface RegisteredEndpoint {
  name: ReportName
  endpoint: EndpointSpec
}

/**
 * The registered reports' endpoints of the given accesses, in the registry's order: each entry's
 * `endpoint` and its `v1` twin, those whose access is one of `accesses` (`reader` and `member`: the
 * dashboard's report routes; `apiKey`: the v1 API's, the twins and the reports of the v1 API alone).
 */
export const reportEndpointsFor = (...accesses: Access[]): RegisteredEndpoint[] =>
  (Object.keys(reportRegistry) as ReportName[]).flatMap((name) => {
    const { endpoint, v1 } = reportRegistry[name] as ReportRegistration
    return [endpoint, v1]
      .filter((spec): spec is EndpointSpec => spec !== undefined && accesses.includes(spec.access))
      .map((spec) => ({ name, endpoint: spec }))
  })

/** The registered reports a batch runs (the batch's `annotations` part is the annotations list's). */
export type BatchReportName = {
  [N in ReportName]: (typeof reportRegistry)[N]['batch'] extends true ? N : never
}[ReportName]

/** The names of the registered reports a batch runs, in the registry's order. */
export const batchReportNames = (Object.keys(reportRegistry) as ReportName[]).filter(
  (name): name is BatchReportName => reportRegistry[name].batch,
)
