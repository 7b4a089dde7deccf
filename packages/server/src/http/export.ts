/**
 * Route: the export of a site, `GET /api/sites/{siteId}/export` (reader rights, as for reports):
 * NDJSON, streamed a page at a time, oldest first (`transfer/export-events.ts`). Without dates, the
 * whole history; with `start_date` and/or `end_date` (and `time_zone`), those calendar days; with
 * `filters` and/or `segment`, only the events that pass them (event filters).
 */
import { Readable } from 'node:stream'
import { exportQuery, exportSiteEndpoint, type FiltersJson } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForReader } from '../auth/site-access.js'
import type { SqlFragment } from '../query/compiled-query.js'
import { checkFiltersParam, compileFilters, sessionFilterColumns } from '../query/filters.js'
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
    // (a report's `page` or `compare` would otherwise be ignored, and the export read as paged).
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
      const selection = exportSelection(query.filters)
      const dated = query.start_date !== undefined || query.end_date !== undefined
      const params = dated ? resolveQueryParams(query, clock()) : null
      const range = params ? { from: params.from, to: params.to } : { from: null, to: null }
      const name = `pathlight-site-${site.site_id}${params ? `-${params.startDate}-${params.endDate}` : ''}.ndjson`
      return reply
        .type('application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(exportEvents(events, site.site_id, range, selection)))
    },
  })
}

/**
 * The export's `filters` as its contract parsed them (a named segment's after them, `route()`) as one
 * condition on the events: the events that pass them, as the events list selects. Session filters
 * (`entry_page`, `exit_page`) select sessions of a range and are refused here.
 * @throws AppError 400 naming `filters`
 */
function exportSelection(filters: FiltersJson | undefined): SqlFragment | null {
  if (filters === undefined) return null
  const parsed = checkFiltersParam(filters)
  if (!parsed.ok) throw invalidParameters({ filters: parsed.problems })
  const session = parsed.filters.filter((filter) => filter.parameter in sessionFilterColumns)
  if (session.length > 0) {
    throw invalidParameters({
      filters: [
        `${session.map((filter) => filter.parameter).join(', ')}: the export takes event filters only (a session filter selects sessions of a report's range)`,
      ],
    })
  }
  const compiled = compileFilters(parsed.filters)
  return compiled.event === null ? null : { sql: compiled.event, params: compiled.params }
}
