/**
 * Heatmap routes (contracts: `@pathlight/protocol` `contracts/heatmaps.ts`):
 * - `GET /api/sites/{siteId}/heatmap` (any reader) and `GET /api/v1/sites/{siteId}/heatmap` (API key): a
 *   page's heatmap, registered from the report registry (`reports.ts`, `v1/reports.ts`; its function
 *   `heatmap` in `page-report-parts.ts`, over `query/heatmap.ts`);
 * - `GET /api/sites/{siteId}/heatmap-link` (any reader): a signed viewing link to the site's page, valid
 *   10 minutes (`heatmaps/view-token.ts`), for the same query;
 * - `GET /api/heatmap-view?token=...` (public, any origin): the heatmap a token names, for the tracker's
 *   overlay on the site's page; 401 for a forged, altered or expired token, 404 once the site is gone.
 */
import { heatmapLinkEndpoint, heatmapQuery, heatmapViewEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForReader } from '../auth/site-access.js'
import { createViewToken, VIEW_TOKEN_TTL_MS, verifyViewToken } from '../heatmaps/view-token.js'
import type { Filter } from '../query/filters.js'
import { resolveQueryParams } from '../query/params.js'
import { AppError } from '../shared/errors.js'
import { type Clock, systemClock } from '../shared/time.js'
import { findSite } from '../sites/sites.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { pageReportParts } from './page-report-parts.js'
import { route } from './route.js'

export interface HeatmapRouteOptions {
  db: MetadataDb
  events: EventsStore
  clock?: Clock
}

type HeatmapQuery = typeof heatmapQuery._output

/** The common parameters of a heatmap query (its `page` is the pathname, not a page number). */
const paramsOf = (clock: Clock, { page: _page, viewport: _viewport, ...common }: HeatmapQuery) =>
  resolveQueryParams(common, clock())

/**
 * The query string as sent, for the token: single text values only (the contract parsed them already).
 * A named segment travels as its filters, after the request's own (`filters`), so the link shows what
 * the request did whatever becomes of the segment.
 */
function sentQuery(raw: unknown, segmented?: readonly Filter[]): Record<string, string> {
  const out: Record<string, string> = {}
  if (raw && typeof raw === 'object')
    for (const [key, value] of Object.entries(raw)) if (typeof value === 'string') out[key] = value
  if (segmented) {
    delete out.segment
    out.filters = JSON.stringify(segmented)
  }
  return out
}

/** The heatmap's viewing link (in the analytics scope); `secret` signs the links. */
export async function heatmapRoutes(
  app: FastifyInstance,
  { db, clock = systemClock, secret }: HeatmapRouteOptions & { secret: string },
) {
  route(app, heatmapLinkEndpoint, {
    resolve: async ({ params, reader }) => (await siteForReader(db, reader, params.siteId)).site,
    handle: async ({ query, request, resolved: site }) => {
      // The range must resolve now (a 400 naming the field here rather than a broken link later).
      const { filters } = paramsOf(clock, query)
      const expiresAt = clock() + VIEW_TOKEN_TTL_MS
      const token = createViewToken(secret, {
        siteId: site.site_id,
        query: sentQuery(request.query, query.segment === undefined ? undefined : filters),
        expiresAt,
      })
      const url = new URL(`https://${site.domain}`)
      url.pathname = query.page
      url.hash = `pathlight-heatmap=${token}`
      return {
        success: true as const,
        data: { url: url.href, token, expiresAt: new Date(expiresAt).toISOString() },
      }
    },
  })
}

/** `GET /api/heatmap-view` (public scope): the heatmap of a viewing token, readable from any origin. */
export async function heatmapViewRoutes(
  app: FastifyInstance,
  { db, events, clock = systemClock, secret }: HeatmapRouteOptions & { secret: string },
) {
  route(app, heatmapViewEndpoint, async ({ query, reply }) => {
    reply.header('access-control-allow-origin', '*').header('cache-control', 'no-store')
    const grant = verifyViewToken(secret, query.token, clock())
    if (!grant) throw new AppError(401, 'The heatmap link is invalid or has expired')
    const site = await findSite(db, grant.siteId)
    if (!site) throw new AppError(404, 'Site not found')
    const parsed = heatmapQuery.safeParse(grant.query)
    if (!parsed.success) throw new AppError(401, 'The heatmap link is invalid or has expired')
    return pageReportParts.heatmap({ events, db, clock }, site.site_id, parsed.data)()
  })
}
