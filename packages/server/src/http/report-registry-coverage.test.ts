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

/** Why the listed v1 reads bypass the registry. */
const V1 = 'a v1 read without a registered dashboard twin, resolving the range and filters itself'

/** The analytics reads that do not come from the registry, each with why (the aim: none). */
const BYPASSING: Readonly<Record<string, string>> = {
  'GET /api/sites/:siteId/heatmap-link':
    'a signed viewing link over the range and filters, not figures; its route checks them itself',
  'GET /api/v1/sites/:siteId/crawlers':
    "a v1 read answering a page of agents, not its dashboard twin's Crawlers report, so not that entry's v1",
  'GET /api/v1/sites/:siteId/experiments': V1,
  'GET /api/v1/sites/:siteId/funnels': V1,
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
