/**
 * The report registration: each report of a site by name, with its GET endpoint (whose contract holds
 * the parameter schema and the response schema), its label, and whether the batch route
 * (`POST /api/sites/:siteId/reports`) runs it as a part. The server registers the GET routes from
 * these endpoints and parses each batch part with its report's query schema, so a part is validated
 * and answers exactly as its GET route; a report with a `v1` twin gets that route too, answered by
 * the same report function.
 */
import type { EndpointSpec } from '../contract.js'
import { reportLabels } from '../enums.js'
import {
  funnelFiguresEndpoint,
  funnelSessionsEndpoint,
  getFunnelEndpoint,
  savedFunnelSessionsEndpoint,
} from './funnels.js'
import { goalSessionsEndpoint, listGoalsEndpoint } from './goals.js'
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
  v1SessionsEndpoint,
  v1StatsEndpoint,
} from './v1-reports.js'

/** One registered report. */
export interface ReportRegistration {
  /**
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

/** Every report of a site, by the name its batch part and its route's last segment share. */
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
  'page-stats': { endpoint: pageStatsEndpoint, label: reportLabels['page-stats'], batch: true, paged: true },
  live: { endpoint: liveEndpoint, label: reportLabels.live, batch: true },
  engagement: {
    endpoint: engagementEndpoint,
    label: reportLabels.engagement,
    batch: true,
    v1: v1EngagementEndpoint,
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

/** The registered reports a batch runs (the batch's `annotations` part is the annotations list's). */
export type BatchReportName = {
  [N in ReportName]: (typeof reportRegistry)[N]['batch'] extends true ? N : never
}[ReportName]

/** The names of the registered reports a batch runs, in the registry's order. */
export const batchReportNames = (Object.keys(reportRegistry) as ReportName[]).filter(
  (name): name is BatchReportName => reportRegistry[name].batch,
)
