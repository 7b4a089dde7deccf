/**
 * What every registered report function shares (`report-parts.ts` and the group files it gathers):
 * what a report reads from, the shape of its answer, and the scope it reads. A report function takes
 * `(deps, siteId, query, path)`: `query` is the query string as its contract parsed it, `path` the
 * route's other parameters and body (`{params, body}`, both as their contract parsed them) and, for a
 * report whose path names a saved goal or funnel, what its lookup found there (`found`); it resolves
 * the range first and returns the report ready to run, so a batch checks every part before it runs any.
 */
import type { AnalyticsQuery, BodyOf, EndpointSpec, ParamsOf, ResponseOf } from '@pathlight/protocol'
import { resolveQueryParams } from '../query/params.js'
import type { ReportScope } from '../query/report-scope.js'
import type { Clock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'

/**
 * What the reports read from: the events store, the metadata store (annotations, goals, funnels),
 * and the clock (default ranges, live visitors).
 */
export interface ReportPartDeps {
  events: EventsStore
  /** The metadata store: the routes always give it; a benchmark of the events alone may not. */
  db?: MetadataDb
  clock: Clock
}

/** A report's answer, as its GET route sends it. */
export interface ReportAnswer {
  data: unknown
  meta: Record<string, unknown>
}

/** A validated report: calling it runs its queries. */
export type PreparedReport = () => Promise<ReportAnswer>

/** A validated report of `E`'s contract: calling it runs its queries and answers `E`'s success answer. */
export type Prepared<E extends EndpointSpec> = () => Promise<ResponseOf<E>>

/**
 * A report route's parameters besides the site and query string: the path's others (a goal's or a
 * funnel's id) and the body, each as its contract parsed it (`{}` and undefined when it has none),
 * and what the report's lookup found in the metadata store (`ReportLookup`; undefined without one).
 */
export interface ReportPath {
  params: Record<string, unknown>
  body?: unknown
  found?: unknown
}

/** The `path` of `E`'s report function, typed by its contract, with `Found` from its lookup. */
export interface PathOf<E extends EndpointSpec, Found = undefined> extends ReportPath {
  params: Omit<ParamsOf<E>, 'siteId'>
  body: BodyOf<E>
  found: Found
}

/**
 * The lookup of a report whose path names a saved definition (a goal, a funnel): the route runs it
 * with the access check, once the site is granted and before the query string and the body are
 * parsed, so that an id naming nothing answers 404 before invalid input answers 400; the report
 * function gets its answer as `path.found`. `params` are the path's parameters but the site.
 * @throws AppError 404 when the path names nothing of the site's
 */
export type ReportLookup = (
  deps: ReportPartDeps,
  siteId: number,
  params: Record<string, unknown>,
) => Promise<unknown>

/**
 * The scope a report reads: the site and the query string's common parameters resolved.
 * @throws AppError 400 naming the invalid parameter (a time zone, filters, a range)
 */
export const reportScope = (deps: ReportPartDeps, siteId: number, query: AnalyticsQuery): ReportScope => ({
  siteId,
  params: resolveQueryParams(query, deps.clock()),
})

/** The metadata store of `deps`, for the reports that read saved definitions (goals, funnels). */
export function metadataOf(deps: ReportPartDeps, report: string): MetadataDb {
  if (!deps.db) throw new Error(`the ${report} report needs the metadata store`)
  return deps.db
}
