/**
 * The dashboard's report endpoints of a site: `GET /api/sites/:siteId/<report>`. Any reader of the
 * site (a member, the holder of its private link key, anyone for a public site). Every report but
 * `summary` and `live` takes the common analytics parameters (`analyticsQuery`) and its own, parsed
 * here from query-string text with messages naming the parameter; each answers `{data, meta}`.
 * The report registration (`report-registry.ts`) names these contracts, so the GET routes, the batch
 * parts and their labels come from one place.
 */
import { z } from 'zod'
import { analyticsQuery, booleanParam, enumParam, listParam, single } from '../analytics-query.js'
import { endpoint } from '../contract.js'
import {
  breakdownMetrics,
  breakdownNames,
  eventNameMetrics,
  eventTypes,
  pageSortFields,
  seriesBuckets,
  seriesMetrics,
  webVitalGroupings,
} from '../enums.js'
import { doc } from '../openapi-registry.js'
import {
  breakdownPage,
  comparedSeriesCounts,
  engagementSummary,
  event,
  eventNameCounts,
  liveVisitors,
  pagedList,
  pageStats,
  reportSummary,
  seriesMeta,
  session,
  sessionEvent,
  stats,
  statsMeta,
  webVitals,
  webVitalsRow,
  webVitalsThresholds,
} from '../schemas.js'
import * as at from './addresses.js'
import { siteParams } from './goals.js'

const bucketDoc = 'Bucket size (weeks start on Monday)'

/** `GET .../stats` (and v1 stats): the common parameters and an optional time series bucket. */
export const statsQuery = analyticsQuery.extend({
  bucket: doc(
    doc(enumParam('bucket', seriesBuckets), bucketDoc),
    'With it, a time series of the range in buckets of this size',
  ).optional(),
})

/** `GET .../series`: the common parameters, the bucket and the counts to answer. */
export const seriesQuery = analyticsQuery.extend({
  bucket: doc(enumParam('bucket', seriesBuckets), bucketDoc),
  metrics: doc(
    listParam('metrics', seriesMetrics),
    `Comma-separated counts each point carries: ${seriesMetrics.join(', ')} (default all three). ` +
      'Fewer counts answer faster: pageviews are summed, while visitors and sessions are each a set of ' +
      'hashes to build or merge',
  ).optional(),
})

/** `GET .../breakdown/:name`: the common parameters and the counts to answer. */
export const breakdownQuery = analyticsQuery.extend({
  metrics: doc(
    listParam('metrics', breakdownMetrics),
    `Comma-separated counts the rows carry: ${breakdownMetrics.join(', ')} (default all three). ` +
      'The one the breakdown ranks by (pageviews for pages, visitors for the others) is always among them. ' +
      'Fewer counts answer faster: each distinct count left out is a set of hashes not built or merged',
  ).optional(),
})

/** `GET .../event-names`: the common parameters and the counts to answer. */
export const eventNamesQuery = analyticsQuery.extend({
  metrics: doc(
    listParam('metrics', eventNameMetrics),
    `Comma-separated counts the rows carry: ${eventNameMetrics.join(', ')} (default all three). ` +
      'events, which ranks the names, is always among them. Fewer counts answer faster: each distinct ' +
      'count left out is a set of hashes not built or merged',
  ).optional(),
})

/** `GET .../events` (and v1 events): the common parameters (no page: a cursor). */
export const eventsQuery = analyticsQuery.omit({ page: true }).extend({
  type: doc(
    listParam('type', eventTypes),
    `Comma-separated event types: ${eventTypes.join(', ')}`,
  ).optional(),
  event_name: doc(
    single('event_name').max(256, 'event_name must be at most 256 characters'),
    'Only events of this name',
  ).optional(),
  cursor: doc(
    single('cursor').max(200, 'cursor is not valid'),
    'The `meta.nextCursor` of the previous page',
  ).optional(),
})

/** `GET .../sessions` (and v1 sessions): the common parameters and `has_replay`. */
export const sessionsQuery = analyticsQuery.extend({
  has_replay: doc(
    booleanParam('has_replay'),
    '`true`: only sessions with a session replay recording (`total` counts those); `false` or absent: all',
  ).optional(),
})

/** `GET .../web-vitals`: the common parameters and the grouping. */
export const webVitalsQuery = analyticsQuery.extend({
  by: doc(enumParam('by', webVitalGroupings), 'Group by this').optional(),
})

/** `:siteId` and the breakdown's `:name` (an unknown name is the route's 404). */
export const breakdownParams = z.object({
  siteId: z.string(),
  name: doc(z.string(), `The dimension: ${breakdownNames.join(', ')}`),
})

/** `:siteId` and `:sessionId`. */
export const sessionParams = z.object({
  siteId: z.string(),
  sessionId: doc(z.string(), 'The session id (`session_id` of a Session)'),
})

const noMeta = z.object({})

/** A cursor page of events, newest first (`events`, v1 events). */
export const eventPage = z.object({
  data: z.array(event),
  meta: z.object({
    nextCursor: doc(z.string(), 'Pass it as `cursor` for the next page; null at the end').nullable(),
    limit: z.int().min(1),
  }),
})

/** Figures of a range (`stats`, v1 stats). */
export const statsPage = z.object({ data: stats, meta: statsMeta })

/** `GET /api/sites/:siteId/summary`: the site as the caller may read it. */
export const reportSummaryEndpoint = endpoint({
  ...at.reportSummary,
  summary: 'The site as the caller may read it',
  tag: 'Reports',
  access: 'reader',
  params: siteParams,
  responses: { 200: { description: 'The site', schema: z.object({ data: reportSummary, meta: noMeta }) } },
})

/** `GET /api/sites/:siteId/stats`. */
export const statsEndpoint = endpoint({
  ...at.reportStats,
  summary: 'Headline figures, against the previous period, optionally as a time series',
  tag: 'Reports',
  access: 'reader',
  params: siteParams,
  query: statsQuery,
  responses: { 200: { description: 'The figures', schema: statsPage } },
})

/** `GET /api/sites/:siteId/series`. */
export const seriesEndpoint = endpoint({
  ...at.reportSeries,
  summary: 'A time series of the range with the counts asked for (the chart of one figure)',
  tag: 'Reports',
  access: 'reader',
  params: siteParams,
  query: seriesQuery,
  responses: {
    200: {
      description: 'Every bucket of the range',
      schema: z.object({ data: z.array(comparedSeriesCounts), meta: seriesMeta }),
    },
  },
})

/** `GET /api/sites/:siteId/breakdown/:name`. */
export const breakdownEndpoint = endpoint({
  ...at.reportBreakdown,
  summary: 'Visitors, sessions and pageviews per value of a dimension',
  tag: 'Reports',
  access: 'reader',
  params: breakdownParams,
  query: breakdownQuery,
  responses: {
    200: {
      description: 'A page of values, most first (with `compare`, each with its compared counts)',
      schema: breakdownPage,
    },
    404: 'Unknown dimension, or the credentials do not reach this site',
  },
})

/** `GET /api/sites/:siteId/sessions`. */
export const sessionsEndpoint = endpoint({
  ...at.reportSessions,
  summary: 'Sessions, newest first',
  tag: 'Reports',
  access: 'reader',
  params: siteParams,
  query: sessionsQuery,
  responses: { 200: { description: 'A page of sessions', schema: pagedList(session) } },
})

/** `GET /api/sites/:siteId/sessions/:sessionId/events`. */
export const sessionEventsEndpoint = endpoint({
  ...at.reportSessionEvents,
  summary: "A session's events, oldest first",
  description: 'Filters are ignored: every event of the session in the range.',
  tag: 'Reports',
  access: 'reader',
  params: sessionParams,
  query: analyticsQuery,
  responses: { 200: { description: 'A page of events', schema: pagedList(sessionEvent) } },
})

/** `GET /api/sites/:siteId/events`. */
export const eventsEndpoint = endpoint({
  ...at.reportEvents,
  summary: 'Events, newest first, paged with a cursor',
  tag: 'Reports',
  access: 'reader',
  params: siteParams,
  query: eventsQuery,
  responses: { 200: { description: 'A page of events, newest first', schema: eventPage } },
})

/** `GET /api/sites/:siteId/event-names`. */
export const eventNamesEndpoint = endpoint({
  ...at.reportEventNames,
  summary: 'Custom event names with their counts',
  tag: 'Reports',
  access: 'reader',
  params: siteParams,
  query: eventNamesQuery,
  responses: {
    200: { description: 'A page of names, most events first', schema: pagedList(eventNameCounts) },
  },
})

/** `GET /api/sites/:siteId/web-vitals`. */
export const webVitalsEndpoint = endpoint({
  ...at.reportWebVitals,
  summary: 'Web vitals: percentiles and bands, overall or per pathname or device type',
  tag: 'Reports',
  access: 'reader',
  params: siteParams,
  query: webVitalsQuery,
  responses: {
    200: {
      description: 'Without `by` the metrics over the range; with `by` a page of values',
      schema: z.union([
        z.object({ data: webVitals, meta: z.object({ thresholds: webVitalsThresholds }) }),
        z.object({
          data: z.array(webVitalsRow),
          meta: z.object({
            total: z.int().min(0),
            page: z.int().min(1),
            pageSize: z.int().min(1),
            totalPages: z.int().min(0),
            by: z.string(),
            thresholds: webVitalsThresholds,
          }),
        }),
      ]),
    },
  },
})

/** `GET /api/sites/:siteId/live`: takes no parameters. */
export const liveEndpoint = endpoint({
  ...at.reportLive,
  summary: 'Visitors of the last 5 minutes',
  tag: 'Reports',
  access: 'reader',
  params: siteParams,
  responses: { 200: { description: 'The count', schema: z.object({ data: liveVisitors, meta: noMeta }) } },
})

/** `GET .../page-stats`: the common parameters, the sort field and the order. */
export const pageStatsQuery = analyticsQuery.extend({
  sort: doc(enumParam('sort', pageSortFields), 'Default pageviews').optional(),
  order: doc(enumParam('order', ['asc', 'desc'], 'order must be asc or desc'), 'Default desc').optional(),
})

/** `GET /api/sites/:siteId/page-stats`: the v1 pages report for the dashboard. */
export const pageStatsEndpoint = endpoint({
  ...at.reportPageStats,
  summary: 'Traffic and engagement per pathname (scroll depth, engaged time), as v1 pages',
  tag: 'Reports',
  access: 'reader',
  params: siteParams,
  query: pageStatsQuery,
  responses: { 200: { description: 'A page of pathnames', schema: pagedList(pageStats) } },
})

/** The answer of the site-wide engagement report (dashboard and v1): the figure and the range. */
export const engagementPage = z.object({
  data: engagementSummary,
  meta: z.object({
    startDate: doc(z.string(), { format: 'date', description: 'YYYY-MM-DD in the time zone' }),
    endDate: doc(z.string(), { format: 'date', description: 'YYYY-MM-DD in the time zone' }),
    timeZone: z.string(),
  }),
})

/** `GET /api/sites/:siteId/engagement`: site-wide engaged time per visit. */
export const engagementEndpoint = endpoint({
  ...at.reportEngagement,
  summary: 'Site-wide engaged time per visit',
  description:
    'Engaged seconds (page visible and in use, from the engagement events the tracker sends) summed over ' +
    'the range, divided by the visits that sent any. Filters apply as in the pages report.',
  tag: 'Reports',
  access: 'reader',
  params: siteParams,
  query: analyticsQuery,
  responses: { 200: { description: 'The figure', schema: engagementPage } },
})

/** Every report endpoint (the route/contract coverage test reads these). */
export const reportEndpoints = [
  reportSummaryEndpoint,
  statsEndpoint,
  seriesEndpoint,
  breakdownEndpoint,
  sessionsEndpoint,
  sessionEventsEndpoint,
  eventsEndpoint,
  eventNamesEndpoint,
  webVitalsEndpoint,
  pageStatsEndpoint,
  liveEndpoint,
  engagementEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    reportSummary: typeof reportSummaryEndpoint
    reportStats: typeof statsEndpoint
    reportSeries: typeof seriesEndpoint
    reportBreakdown: typeof breakdownEndpoint
    reportSessions: typeof sessionsEndpoint
    reportSessionEvents: typeof sessionEventsEndpoint
    reportEvents: typeof eventsEndpoint
    reportEventNames: typeof eventNamesEndpoint
    reportWebVitals: typeof webVitalsEndpoint
    reportPageStats: typeof pageStatsEndpoint
    reportLive: typeof liveEndpoint
    reportEngagement: typeof engagementEndpoint
  }
}
