/**
 * `segment=ID` of every analytics read, resolved once per request for the whole scope: a preHandler
 * that finds the saved segment the caller may use and ANDs its filters with the request's `filters`
 * (the segment's filters are appended to the `filters` JSON the route then parses as usual), so every
 * report route, the report batch and every v1 route apply it without a line of their own.
 *
 * It acts on the routes whose documented query takes `segment` (the protocol's `analyticsQuery` and
 * those built on it), when the request names one. The site access answers first (the route's own
 * 401/404), then an invalid id is a 400 naming `segment`, and an id that names no segment of the site,
 * or another user's personal segment, a 404. Who may use which segment:
 * - a member of the site's organization (session or API key): the site's shared segments and their own
 *   personal ones;
 * - a private link key, an anonymous reader of a public site: the shared segments only.
 */
import { segmentQuery, tooDeepAt } from '@pathlight/protocol'
import type { FastifyRequest } from 'fastify'
import { siteForMember, siteForReader } from '../auth/site-access.js'
import type { Filter } from '../query/filters.js'
import { parseParams } from '../query/params.js'
import { findSegment, type SegmentViewer } from '../segments/segments.js'
import { unauthorized } from '../shared/errors.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { readerOf } from './reader.js'

/**
 * How the scope's routes reach a site: `reader` (the analytics scope: `siteForReader`) or `member`
 * (v1: the API key's user must be a member, `siteForMember`).
 */
export type SegmentAccess = 'reader' | 'member'

/**
 * The preHandler that applies `segment` on a scope; register it after the hook that resolves the caller.
 * @throws AppError 401/404 of the site access, 400 `Invalid segment: ...`, 404 `Segment not found`
 */
export function applySegment({ db, access }: { db: MetadataDb; access: SegmentAccess }) {
  return async (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown> | null | undefined
    const rawSiteId = (request.params as { siteId?: unknown } | undefined)?.siteId
    if (!query || query.segment === undefined || rawSiteId === undefined || !takesSegment(request)) return
    const { siteId, viewer } = await siteAndViewer(db, access, request, rawSiteId)
    const { segment: segmentId } = parseParams(segmentQuery, query)
    const segment = await findSegment(db, siteId, viewer, segmentId)
    query.filters = withSegmentFilters(query.filters, segment.filters as Filter[])
  }
}

/** The site's id and whose personal segments the caller may use. */
async function siteAndViewer(
  db: MetadataDb,
  access: SegmentAccess,
  request: FastifyRequest,
  rawSiteId: unknown,
): Promise<{ siteId: number; viewer: SegmentViewer }> {
  if (access === 'member') {
    if (!request.caller) throw unauthorized()
    const { site } = await siteForMember(db, request.caller.userId, rawSiteId)
    return { siteId: site.site_id, viewer: { userId: request.caller.userId } }
  }
  const reader = readerOf(request)
  const { site, via } = await siteForReader(db, reader, rawSiteId)
  return { siteId: site.site_id, viewer: { userId: via === 'member' ? (reader.userId ?? null) : null } }
}

/** Whether the route's query (its contract's, or its documented one) takes `segment`. */
function takesSegment(request: FastifyRequest): boolean {
  const { contract, doc } = request.routeOptions.config
  const schema = (contract?.query ?? doc?.query) as { shape?: Record<string, unknown> } | undefined
  return schema?.shape !== undefined && 'segment' in schema.shape
}

/**
 * The `filters` text with the segment's filters after the request's own. Text the route will refuse
 * anyway (not JSON, not an array, a repeated parameter) is left as it is, for its 400.
 */
export function withSegmentFilters(inline: unknown, segmentFilters: readonly Filter[]): unknown {
  if (inline === undefined || inline === '') return JSON.stringify(segmentFilters)
  if (typeof inline !== 'string') return inline
  let parsed: unknown
  try {
    parsed = JSON.parse(inline)
  } catch {
    return inline
  }
  // Too deep to serialize again: `parseFilters` refuses it, naming `filters`.
  if (tooDeepAt(parsed) !== undefined) return inline
  return Array.isArray(parsed) ? JSON.stringify([...parsed, ...segmentFilters]) : inline
}
