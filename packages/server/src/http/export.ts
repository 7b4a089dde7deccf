/**
 * Route: the export of a site, `GET /api/sites/{siteId}/export` (reader rights, as for reports):
 * NDJSON, streamed a page at a time, oldest first (`transfer/export-events.ts`). Without dates, the
 * whole history; with `start_date` and/or `end_date` (and `time_zone`), those calendar days.
 */
import { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { siteForReader } from '../auth/site-access.js'
import { invalidParameters, parseQueryParams } from '../query/params.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { exportEvents } from '../transfer/export-events.js'
import { analyticsQuery } from './analytics-query.js'
import { media } from './openapi/route-doc.js'
import { readerOf } from './reader.js'

export interface ExportRouteOptions {
  db: MetadataDb
  events: EventsStore
  clock?: Clock
}

const exportQuery = analyticsQuery.pick({ start_date: true, end_date: true, time_zone: true })

export async function exportRoutes(
  app: FastifyInstance,
  { db, events, clock = systemClock }: ExportRouteOptions,
) {
  app.get<{ Params: { siteId: string }; Querystring: Record<string, unknown> }>(
    '/api/sites/:siteId/export',
    {
      config: {
        doc: {
          summary: "Export a site's events (NDJSON)",
          description:
            'One line per stored event, oldest first: every stored field under the names of the v1 events ' +
            'API (`eventId`, `timestamp`, `sessionId`, `userId`, `pageTitle`, ...) and the other columns ' +
            'in camelCase (`utmSource`, `browserVersion`, `lat`, `lcp`, `errorMessage`, ...). Without ' +
            '`start_date` and `end_date` the whole history. `POST .../import` takes the lines back as they ' +
            'are: the path to another Pathlight, to a ClickHouse server, and a backup.',
          tag: 'Sites',
          access: 'reader',
          query: exportQuery,
          responses: { 200: media('The events, one JSON object per line', 'application/x-ndjson') },
        },
      },
    },
    async (request, reply) => {
      const { site } = await siteForReader(db, readerOf(request), request.params.siteId)
      const query = request.query ?? {}
      const unknown = Object.keys(query).filter((name) => !(name in exportQuery.shape))
      if (unknown.length > 0) {
        throw invalidParameters(
          Object.fromEntries(unknown.map((name) => [name, [`${name} is not a parameter of the export`]])),
        )
      }
      const dated = query.start_date !== undefined || query.end_date !== undefined
      const params = dated ? parseQueryParams(query, clock()) : null
      const range = params ? { from: params.from, to: params.to } : { from: null, to: null }
      const name = `pathlight-site-${site.site_id}${params ? `-${params.startDate}-${params.endDate}` : ''}.ndjson`
      return reply
        .type('application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(exportEvents(events, site.site_id, range)))
    },
  )
}
