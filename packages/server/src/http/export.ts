/**
 * Route: the export of a site, `GET /api/sites/{siteId}/export` (reader rights, as for reports):
 * NDJSON, streamed a page at a time, oldest first (`transfer/export-events.ts`). Without dates, the
 * whole history; with `start_date` and/or `end_date` (and `time_zone`), those calendar days.
 */
import { Readable } from 'node:stream'
import { exportQuery, exportSiteEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForReader } from '../auth/site-access.js'
import { invalidParameters, resolveQueryParams } from '../query/params.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { exportEvents } from '../transfer/export-events.js'
import { route } from './route.js'

export interface ExportRouteOptions {
  db: MetadataDb
  events: EventsStore
  clock?: Clock
}

export async function exportRoutes(
  app: FastifyInstance,
  { db, events, clock = systemClock }: ExportRouteOptions,
) {
  route(app, exportSiteEndpoint, {
    // Before the query is parsed: the site's 404 first, then a parameter the export does not take
    // (a report's `filters` would otherwise be ignored, and the export read as filtered).
    resolve: async ({ params, reader, request }) => {
      const { site } = await siteForReader(db, reader, params.siteId)
      const unknown = Object.keys(request.query ?? {}).filter((name) => !(name in exportQuery.shape))
      if (unknown.length > 0) {
        throw invalidParameters(
          Object.fromEntries(unknown.map((name) => [name, [`${name} is not a parameter of the export`]])),
        )
      }
      return site
    },
    handle: async ({ query, resolved: site, reply }) => {
      const dated = query.start_date !== undefined || query.end_date !== undefined
      const params = dated ? resolveQueryParams(query, clock()) : null
      const range = params ? { from: params.from, to: params.to } : { from: null, to: null }
      const name = `pathlight-site-${site.site_id}${params ? `-${params.startDate}-${params.endDate}` : ''}.ndjson`
      return reply
        .type('application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(exportEvents(events, site.site_id, range)))
    },
  })
}
