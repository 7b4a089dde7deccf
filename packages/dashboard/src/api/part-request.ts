/**
 * A report part (`ReportPart` of the protocol: a registered report's name and its own parameters) as
 * its GET request: the route of its report, the part's path parameters in the path (the breakdown's
 * `name`), the query's common parameters (`reportParams`) and then the part's own in the query
 * string. A part asked alone is thus the same request its GET route answers, and the same part in a
 * batch (`POST .../reports`) answers the same (the server parses both with the GET contract).
 */
import type {
  BatchReportName,
  ContractAt,
  ReportPart,
  RequestOf,
  ResponseOf,
  reportRegistry,
} from '@pathlight/protocol'
import * as endpoints from '@pathlight/protocol/addresses'
import type { ReportQuery } from '../lib/report-query'
import { reportParams } from './report-params'

/** A part a batch runs (every part but the annotations list, which has its own GET). */
export type RegisteredPart = Extract<ReportPart, { name: BatchReportName }>

/**
 * The GET route of each report a part may name. The type checks each against the protocol's report
 * registry, so a route here is always its report's.
 */
const partRoutes = {
  stats: endpoints.reportStats,
  series: endpoints.reportSeries,
  breakdown: endpoints.reportBreakdown,
  sessions: endpoints.reportSessions,
  events: endpoints.reportEvents,
  'event-names': endpoints.reportEventNames,
  'web-vitals': endpoints.reportWebVitals,
  'page-stats': endpoints.reportPageStats,
  live: endpoints.reportLive,
  engagement: endpoints.reportEngagement,
} as const satisfies {
  [N in BatchReportName]: { path: (typeof reportRegistry)[N]['endpoint']['path']; method: 'GET' }
}

type PartRoute<N extends BatchReportName> = ContractAt<(typeof partRoutes)[N]>

/** What a part's GET answers (its `{data, meta}`), as its contract types it. */
export type PartAnswer<N extends BatchReportName> = ResponseOf<PartRoute<N>>

/** The reports whose GET takes no query string (the live visitors count). */
type QuerylessName = {
  [N in BatchReportName]: [NonNullable<RequestOf<PartRoute<N>>['query']>] extends [never] ? N : never
}[BatchReportName]
const queryless: ReadonlySet<BatchReportName> = new Set<QuerylessName>(['live'])

/** The `:name` segments of a route's path. */
const pathParameters = (path: string): string[] =>
  path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1))

/** A query value as the contract client sends it (a list comma-separated, undefined left out). */
type QueryValue = string | number | boolean | readonly string[] | undefined

/** One GET request: its address, and its path parameters and query values. */
export interface PartRequest {
  address: (typeof partRoutes)[BatchReportName]
  params: Record<string, string | number>
  query?: Record<string, QueryValue>
}

/**
 * The GET request of `part` over `query` (of the site `query.siteId`). The part's `id` is the batch's
 * key only and is not sent.
 */
export function partRequest(query: ReportQuery, part: RegisteredPart): PartRequest {
  const address = partRoutes[part.name]
  const inPath = pathParameters(address.path)
  const params: Record<string, string | number> = { siteId: query.siteId }
  const own: Record<string, QueryValue> = {}
  for (const [key, value] of Object.entries(part.params ?? {}) as [string, QueryValue][]) {
    if (inPath.includes(key)) params[key] = value as string | number
    else own[key] = value
  }
  if (queryless.has(part.name)) return { address, params }
  return { address, params, query: { ...reportParams(query), ...own } }
}
