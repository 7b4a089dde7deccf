/**
 * `segment=ID` of every analytics read: the saved segment's filters ANDed with the request's own, as
 * parsed values. A scope applies it by `applySegments` (the analytics scope and v1); there `route()`
 * splits the query of every contract that takes `segment` (the protocol's `analyticsQuery` and the
 * queries built on it) and, once the route's access step has admitted the caller to the site in the
 * path:
 * 1. parses `segment` alone (`segmentQuerySchemas`): an invalid id is a 400 naming `segment`;
 * 2. finds the segment with that site's id and the reader (`namedSegment`: one statement, no second
 *    look at the site): an id that names no segment of the site, or another user's personal segment, a 404;
 * 3. parses the other parameters and puts the segment's filters after the request's own in the parsed
 *    `filters` value (`withSegmentFilters`), so every report, the report batch and every v1 route
 *    resolves them (`query/params.ts`) without a line of their own, and nothing parses text again.
 *
 * So the site access answers first (the route's 401/404), then the segment's 400 and 404, then the
 * other parameters' 400s. Who may use which segment (`findReadSegment`):
 * - a member of the site's organization (session or API key): the site's shared segments and their own
 *   personal ones;
 * - a private link key, an anonymous reader of a public site: the shared segments only.
 */
import type { FiltersJson } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Filter } from '../query/filters.js'
import { parseParams } from '../query/params.js'
import { findReadSegment } from '../segments/segments.js'
import { siteNotFound } from '../shared/errors.js'
import { parseSiteId } from '../sites/sites.js'
import type { MetadataDb } from '../storage/metadata/db.js'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Where the scope's reads find the segment `segment=ID` names (`applySegments`); absent in scopes
     * that do not apply segments (a route there parses `segment` and ignores it).
     */
    segmentsDb?: MetadataDb
  }
}

/**
 * Make the routes of `scope` apply `segment=ID` (`route()` reads it as it registers them): call it
 * before registering them.
 */
export function applySegments(scope: FastifyInstance, db: MetadataDb): void {
  scope.decorate('segmentsDb', db)
}

/** A contract's query split for `route()`: `segment` alone, and every other parameter. */
export interface SegmentQuerySchemas {
  segment: z.ZodObject<{ segment: z.ZodType<number | undefined> }>
  others: z.ZodObject
}

/**
 * The query schema of a contract split around `segment`, or undefined when it takes none.
 * @throws Error when it takes `segment` but not `filters` (the segment would have nothing to join)
 */
export function segmentQuerySchemas(query: z.ZodType | undefined): SegmentQuerySchemas | undefined {
  if (!(query instanceof z.ZodObject) || !('segment' in query.shape)) return undefined
  if (!('filters' in query.shape)) throw new Error('a query that takes segment must take filters')
  return {
    segment: query.pick({ segment: true }) as SegmentQuerySchemas['segment'],
    others: query.omit({ segment: true }),
  }
}

/** The segment a request names: its id and its filters (as stored, checked when it was saved). */
export interface NamedSegment {
  segment: number
  filters: readonly Filter[]
}

/**
 * The segment the request's `segment` names, for a reader the route's access step admitted to the site.
 * @param rawQuery the query string as Fastify gives it
 * @param rawSiteId the site's path parameter, which the access step resolved
 * @param userId the reader's user (session or API key), null for a private link key or an anonymous reader
 * @returns undefined when the request names no segment
 * @throws AppError 400 `Invalid segment: ...`, 404 `Segment not found`
 */
export async function namedSegment(
  db: MetadataDb,
  schemas: SegmentQuerySchemas,
  rawQuery: unknown,
  rawSiteId: unknown,
  userId: string | null,
): Promise<NamedSegment | undefined> {
  const { segment } = parseParams(schemas.segment, rawQuery)
  if (segment === undefined) return undefined
  const siteId = parseSiteId(rawSiteId)
  if (siteId === null) throw siteNotFound()
  const found = await findReadSegment(db, siteId, userId, segment)
  return { segment, filters: found.filters as Filter[] }
}

/**
 * The query's other parameters parsed, with the named segment's id and its filters after the request's.
 * @throws AppError 400 naming the invalid parameters (as the contract's whole query would)
 */
export function segmentedQuery(
  schemas: SegmentQuerySchemas,
  rawQuery: unknown,
  named: NamedSegment,
): Record<string, unknown> {
  const others = parseParams(schemas.others, rawQuery) as { filters?: FiltersJson }
  return { ...others, segment: named.segment, filters: withSegmentFilters(others.filters, named.filters) }
}

/**
 * The parsed `filters` with the segment's filters after the request's own. A value the filters' check
 * refuses anyway (text that is not JSON, JSON that is not a list) is left as it is, for its 400.
 */
export function withSegmentFilters(
  inline: FiltersJson | undefined,
  segmentFilters: readonly Filter[],
): FiltersJson {
  if (inline === undefined) return { json: [...segmentFilters] }
  if ('json' in inline && Array.isArray(inline.json)) return { json: [...inline.json, ...segmentFilters] }
  return inline
}
