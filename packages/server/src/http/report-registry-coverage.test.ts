/**
 * Which analytics reads go through the report registry (`contracts/report-registry.ts` of the
 * protocol: the dashboard's report routes, the batch's parts, their v1 twins). An analytics read is
 * an endpoint whose query string takes the common analytics parameters (a range and filters:
 * `start_date`, `end_date`, `filters`). Those that do not come from the registry are listed below,
 * each with why, so the test fails when a new read bypasses the registry (add it to the registry, or
 * here with a reason) and when a listed one moves into it (take it off the list). The list is where
 * "one registry for every analytics read" stands today.
 */
import { type EndpointSpec, endpoints, reportRegistry } from '@pathlight/protocol'
import { describe, expect, it } from 'vitest'

const key = (route: { method: string; path: string }) => `${route.method} ${route.path}`

/** Why most of the listed reads bypass the registry. */
const OWN = 'its route resolves the range and filters itself (`resolveQueryParams`), outside the registry'
const V1 = 'a v1 read without a registered dashboard twin, resolving the range and filters itself'

/** The analytics reads that do not come from the registry, each with why (the aim: none). */
const BYPASSING: Readonly<Record<string, string>> = {
  'GET /api/sites/:siteId/breakdown/properties': OWN,
  'GET /api/sites/:siteId/properties': OWN,
  'GET /api/sites/:siteId/error-bucketed': OWN,
  'GET /api/sites/:siteId/error-events': OWN,
  'GET /api/sites/:siteId/error-names': OWN,
  'GET /api/sites/:siteId/journeys': OWN,
  'GET /api/sites/:siteId/retention': OWN,
  'GET /api/sites/:siteId/crawlers': OWN,
  'GET /api/sites/:siteId/heatmap': OWN,
  'GET /api/sites/:siteId/heatmap-link':
    'a signed viewing link over the range and filters, not figures; its route checks them itself',
  'GET /api/v1/sites/:siteId/breakdown/properties': V1,
  'GET /api/v1/sites/:siteId/crawlers': V1,
  'GET /api/v1/sites/:siteId/events': V1,
  'GET /api/v1/sites/:siteId/experiments': V1,
  'GET /api/v1/sites/:siteId/funnels': V1,
  'GET /api/v1/sites/:siteId/heatmap': V1,
  'GET /api/v1/sites/:siteId/pages': V1,
  'GET /api/v1/sites/:siteId/properties': V1,
  'GET /api/v1/sites/:siteId/retention': V1,
  'GET /api/v1/sites/:siteId/revenue': V1,
  'GET /api/sites/:siteId/export': "the raw events' export, not a report",
  'POST /api/sites/:siteId/reports':
    "the batch: its parts are the registry's reports (`report-batch.ts`), its own query string only the shared defaults",
}

/** Analytics reads whose range and filters come in the body, not the query string. */
const BODY_READS = ['POST /api/v2/query']

/** Body reads with a planner of their own (`query-api/plan.ts`), each with why. */
const BODY_BYPASSING: Readonly<Record<string, string>> = {
  'POST /api/v2/query':
    "the Query API: Plausible's request, planned by `query-api/plan.ts` (the reports' range rule)",
}

/** Whether an endpoint's query takes the common analytics parameters. */
const isAnalyticsRead = (endpoint: EndpointSpec): boolean => {
  const shape = endpoint.query?.shape as Record<string, unknown> | undefined
  return shape !== undefined && ['start_date', 'end_date', 'filters'].every((name) => name in shape)
}

describe('the report registry and the analytics reads', () => {
  const registered = new Set(
    Object.values(reportRegistry).flatMap((entry) => [
      key(entry.endpoint),
      ...('v1' in entry && entry.v1 ? [key(entry.v1)] : []),
    ]),
  )
  const all = new Set(endpoints.map(key))
  const reads = [
    ...(endpoints as readonly EndpointSpec[]).filter(isAnalyticsRead).map(key),
    ...BODY_READS.filter((r) => all.has(r)),
  ]

  it('finds the analytics reads, the registered ones among them', () => {
    expect(reads).toContain(key(reportRegistry.stats.endpoint))
    expect(reads).toContain(key(reportRegistry.breakdown.endpoint))
    expect(BODY_READS.filter((r) => !all.has(r))).toEqual([])
  })

  it('lists every analytics read that bypasses the registry, and only those', () => {
    const bypassing = reads.filter((route) => !registered.has(route)).sort()
    expect(bypassing).toEqual(Object.keys({ ...BYPASSING, ...BODY_BYPASSING }).sort())
  })
})
