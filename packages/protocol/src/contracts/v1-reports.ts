/**
 * The v1 sites list and the v1 reports of a site (`GET /api/v1/sites/:siteId/...`): for an API key whose user is a member of
 * the site's organization (any other site answers 404). Every one takes the common analytics
 * parameters and answers `{data, meta}`; stats and sessions take the dashboard's report parameters.
 */
import { z } from 'zod'
import { analyticsQuery, enumParam, integerParam, MAX_LIMIT } from '../analytics-query.js'
import { endpoint } from '../contract.js'
import { pageSortFields, seriesBuckets } from '../enums.js'
import { doc } from '../openapi-registry.js'
import {
  eventName,
  experimentWithResults,
  funnelWithResults,
  listMeta,
  pagedList,
  pageStats,
  revenueReport,
  session,
  site,
} from '../schemas.js'
import * as at from './addresses.js'
import { siteParams } from './goals.js'
import { engagementPage, eventPage, eventsQuery, sessionsQuery, statsPage, statsQuery } from './reports.js'

/** The 404 of a v1 route: the site is missing or another organization's. */
const notMine = 'Not found, or not in one of your organizations'

/** `GET .../pages`: the common parameters, the sort field and the order. */
export const v1PagesQuery = analyticsQuery.extend({
  sort: doc(enumParam('sort', pageSortFields), 'Default pageviews').optional(),
  order: doc(enumParam('order', ['asc', 'desc'], 'order must be asc or desc'), 'Default desc').optional(),
})

/** `GET .../revenue`: the common parameters and the series' bucket. */
export const v1RevenueQuery = analyticsQuery.extend({
  bucket: doc(enumParam('bucket', seriesBuckets), 'Bucket size of `series`; default day').optional(),
})

const day = doc(z.string(), { format: 'date', description: 'YYYY-MM-DD in the time zone' })

/** `GET .../events`: as the dashboard's events, 100 events per page by default. */
export const v1EventsQuery = eventsQuery.extend({
  limit: doc(integerParam('limit', 1, MAX_LIMIT), 'Events per page; default 100').optional(),
})

/** `GET /api/v1/sites`: the caller's sites across their organizations. */
export const v1SitesEndpoint = endpoint({
  ...at.v1Sites,
  summary: 'My sites across all my organizations',
  tag: 'v1',
  access: 'apiKey',
  responses: {
    200: { description: 'By site id', schema: z.object({ data: z.array(site), meta: listMeta }) },
  },
})

/** `GET /api/v1/sites/:siteId/events`: a site's events, newest first, paged with a cursor. */
export const v1EventsEndpoint = endpoint({
  ...at.v1Events,
  summary: "A site's events, newest first",
  description:
    'Paged with `cursor`: pass `meta.nextCursor` to get the next page (null at the end); every event ' +
    'of the range comes exactly once, even while new ones arrive.',
  tag: 'v1',
  access: 'apiKey',
  params: siteParams,
  query: v1EventsQuery,
  responses: { 200: { description: 'A page of events, newest first', schema: eventPage }, 404: notMine },
})

/** `GET /api/v1/sites/:siteId/stats`: as the dashboard's stats. */
export const v1StatsEndpoint = endpoint({
  ...at.v1Stats,
  summary: 'Headline figures, against the previous period, optionally as a time series',
  tag: 'v1',
  access: 'apiKey',
  params: siteParams,
  query: statsQuery,
  responses: { 200: { description: 'The figures', schema: statsPage }, 404: notMine },
})

/** `GET /api/v1/sites/:siteId/pages`: traffic per pathname. */
export const v1PagesEndpoint = endpoint({
  ...at.v1Pages,
  summary: 'Traffic per pathname',
  tag: 'v1',
  access: 'apiKey',
  params: siteParams,
  query: v1PagesQuery,
  responses: { 200: { description: 'A page of pathnames', schema: pagedList(pageStats) }, 404: notMine },
})

/** `GET /api/v1/sites/:siteId/sessions`: as the dashboard's sessions. */
export const v1SessionsEndpoint = endpoint({
  ...at.v1Sessions,
  summary: 'Sessions, newest first',
  tag: 'v1',
  access: 'apiKey',
  params: siteParams,
  query: sessionsQuery,
  responses: { 200: { description: 'A page of sessions', schema: pagedList(session) }, 404: notMine },
})

/** `GET /api/v1/sites/:siteId/events/names`: custom event names with their counts. */
export const v1EventNamesEndpoint = endpoint({
  ...at.v1EventNames,
  summary: 'Custom event names with their counts',
  tag: 'v1',
  access: 'apiKey',
  params: siteParams,
  query: analyticsQuery,
  responses: {
    200: { description: 'A page of names, most events first', schema: pagedList(eventName) },
    404: notMine,
  },
})

/** `GET /api/v1/sites/:siteId/engagement`: as the dashboard's engagement report. */
export const v1EngagementEndpoint = endpoint({
  ...at.v1Engagement,
  summary: 'Site-wide engaged time per visit',
  description:
    'Engaged seconds (page visible and in use, from the engagement events the tracker sends) summed over ' +
    'the range, divided by the visits that sent any.',
  tag: 'v1',
  access: 'apiKey',
  params: siteParams,
  query: analyticsQuery,
  responses: { 200: { description: 'The figure', schema: engagementPage }, 404: notMine },
})

/** `GET /api/v1/sites/:siteId/revenue`: revenue per currency. */
export const v1RevenueEndpoint = endpoint({
  ...at.v1Revenue,
  summary: 'Revenue per currency',
  description:
    'From custom events whose properties carry `revenue` (a number or decimal string) and `currency` ' +
    '(ISO 4217); amounts are never converted between currencies.',
  tag: 'v1',
  access: 'apiKey',
  params: siteParams,
  query: v1RevenueQuery,
  responses: {
    200: {
      description: 'The report',
      schema: z.object({
        data: revenueReport,
        meta: z.object({
          startDate: day,
          endDate: day,
          bucket: doc(z.enum(seriesBuckets), 'Bucket size (weeks start on Monday)'),
        }),
      }),
    },
    404: notMine,
  },
})

/** `GET /api/v1/sites/:siteId/funnels`: saved funnels with their figures over the range. */
export const v1FunnelsEndpoint = endpoint({
  ...at.v1Funnels,
  summary: 'Saved funnels with their figures over the range',
  description:
    'Per step: sessions that matched steps 1..k in order, conversion from the previous step and from ' +
    'the start, drop-off and the median seconds from the previous step.',
  tag: 'v1',
  access: 'apiKey',
  params: siteParams,
  query: analyticsQuery,
  responses: { 200: { description: 'Oldest first', schema: pagedList(funnelWithResults) }, 404: notMine },
})

/** `GET /api/v1/sites/:siteId/experiments`: experiments with their results over the range. */
export const v1ExperimentsEndpoint = endpoint({
  ...at.v1Experiments,
  summary: 'Experiments with their results over the range',
  description:
    'Per variant: exposed sessions, conversions, conversion rate, uplift against the control, z-score, ' +
    'two-sided p-value and the 95 % interval of the difference.',
  tag: 'v1',
  access: 'apiKey',
  params: siteParams,
  query: analyticsQuery,
  responses: { 200: { description: 'Oldest first', schema: pagedList(experimentWithResults) }, 404: notMine },
})

/** Every v1 report endpoint (the route/contract coverage test reads these). */
export const v1ReportEndpoints = [
  v1SitesEndpoint,
  v1EventsEndpoint,
  v1StatsEndpoint,
  v1PagesEndpoint,
  v1SessionsEndpoint,
  v1EventNamesEndpoint,
  v1RevenueEndpoint,
  v1FunnelsEndpoint,
  v1ExperimentsEndpoint,
  v1EngagementEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    v1Sites: typeof v1SitesEndpoint
    v1Events: typeof v1EventsEndpoint
    v1Stats: typeof v1StatsEndpoint
    v1Pages: typeof v1PagesEndpoint
    v1Sessions: typeof v1SessionsEndpoint
    v1EventNames: typeof v1EventNamesEndpoint
    v1Revenue: typeof v1RevenueEndpoint
    v1Funnels: typeof v1FunnelsEndpoint
    v1Experiments: typeof v1ExperimentsEndpoint
    v1Engagement: typeof v1EngagementEndpoint
  }
}
