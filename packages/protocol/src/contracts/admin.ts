/**
 * The operator's endpoints (instance owner only): ingest counters, a site's monthly pageview limit,
 * and the rows the events store holds for a site.
 */
import { z } from 'zod'
import { eventsCountQuery, limitsBody } from '../admin-input.js'
import { endpoint } from '../contract.js'
import { ingestStats } from '../report-schemas.js'
import { siteLimits, successData } from '../response-schemas.js'
import * as at from './addresses.js'

/** `GET /api/admin/ingest-stats`: this process's ingest counters. */
export const ingestStatsEndpoint = endpoint({
  ...at.ingestStats,
  summary: 'Ingest counters since this process started',
  tag: 'Admin',
  access: 'instanceOwner',
  responses: { 200: { description: 'The counters', schema: ingestStats } },
})

/** `PUT /api/admin/sites/:siteId/limits`: set a site's monthly pageview limit. */
export const setSiteLimitsEndpoint = endpoint({
  ...at.setSiteLimits,
  summary: "Set a site's monthly pageview limit",
  description: 'Effective on the next tracking request; over the limit, tracking answers 403.',
  tag: 'Admin',
  access: 'instanceOwner',
  params: z.object({ siteId: z.string() }),
  body: limitsBody,
  bodySubject: 'limits',
  bodyFieldsInDetails: true,
  responses: {
    200: { description: 'The limit', schema: successData(siteLimits) },
    404: 'Site not found',
  },
})

/** `GET /api/admin/events-count`: the rows the events store holds for a site. */
export const eventsCountEndpoint = endpoint({
  ...at.eventsCount,
  summary: 'Rows the events store holds for a site',
  tag: 'Admin',
  access: 'instanceOwner',
  query: eventsCountQuery,
  responses: {
    200: {
      description: 'The count',
      schema: z.object({ siteId: z.int().min(1), count: z.int().min(0) }),
    },
  },
})

/** Every operator endpoint (the route/contract coverage test reads these). */
export const adminEndpoints = [ingestStatsEndpoint, setSiteLimitsEndpoint, eventsCountEndpoint] as const

declare module './addresses.js' {
  interface EndpointContracts {
    ingestStats: typeof ingestStatsEndpoint
    setSiteLimits: typeof setSiteLimitsEndpoint
    eventsCount: typeof eventsCountEndpoint
  }
}
