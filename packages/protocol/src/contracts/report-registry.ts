/**
 * The report registration: each report of a site by name, with its GET endpoint (whose contract holds
 * the parameter schema and the response schema), its label, and whether the batch route
 * (`POST /api/sites/:siteId/reports`) runs it as a part. The server registers the GET routes from
 * these endpoints and parses each batch part with its report's query schema, so a part is validated
 * and answers exactly as its GET route; the dashboard names reports by these labels.
 */
import type { EndpointSpec } from '../contract.js'
import type { ReportPartName } from '../report-batch.js'
import {
  breakdownEndpoint,
  eventNamesEndpoint,
  eventsEndpoint,
  liveEndpoint,
  reportSummaryEndpoint,
  seriesEndpoint,
  sessionEventsEndpoint,
  sessionsEndpoint,
  statsEndpoint,
  webVitalsEndpoint,
} from './reports.js'

/** One registered report. */
export interface ReportRegistration {
  /** Its GET endpoint: parameters (`query`), answer (`responses[200]`), access. */
  endpoint: EndpointSpec
  /** What people call it (the dashboard's headings, the reference). */
  label: string
  /** Whether a batch may hold it as a part of this name. */
  batch: boolean
}

/** Every report of a site, by the name its batch part and its route's last segment share. */
export const reportRegistry = {
  summary: { endpoint: reportSummaryEndpoint, label: 'Site', batch: false },
  stats: { endpoint: statsEndpoint, label: 'Headline figures', batch: true },
  series: { endpoint: seriesEndpoint, label: 'Time series', batch: true },
  breakdown: { endpoint: breakdownEndpoint, label: 'Breakdown', batch: true },
  sessions: { endpoint: sessionsEndpoint, label: 'Sessions', batch: true },
  'session-events': { endpoint: sessionEventsEndpoint, label: 'Session events', batch: false },
  events: { endpoint: eventsEndpoint, label: 'Events', batch: true },
  'event-names': { endpoint: eventNamesEndpoint, label: 'Custom events', batch: true },
  'web-vitals': { endpoint: webVitalsEndpoint, label: 'Web vitals', batch: true },
  live: { endpoint: liveEndpoint, label: 'Live visitors', batch: true },
} as const satisfies Record<string, ReportRegistration>

/** A registered report's name. */
export type ReportName = keyof typeof reportRegistry

/** The registered reports a batch runs (the batch's `annotations` part is the annotations list's). */
export type BatchReportName = {
  [N in ReportName]: (typeof reportRegistry)[N]['batch'] extends true ? N : never
}[ReportName] &
  ReportPartName
