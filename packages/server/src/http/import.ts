/**
 * Route: bulk import of a site's history, `POST /api/sites/{siteId}/import` (admin or owner; session
 * cookie or a `full` API key). The body is NDJSON (`transfer/ndjson-lines.ts`), or with `?format=umami`
 * the CSV of Umami's `website_event` table (`transfer/csv-records.ts`, `transfer/umami-entries.ts`),
 * or with `?format=ga4` (NDJSON) the rows of Google Analytics 4's BigQuery export (`transfer/ga4-entries.ts`),
 * read as it streams in: at most `IMPORT_MAX_BYTES` per request and 1 MB per line or CSV row. With
 * `?format=plausible` the body is the ZIP of Plausible's CSV export (`application/zip`, read whole: at
 * most `PLAUSIBLE_MAX_ZIP_BYTES`), kept as imported daily totals (`transfer/import-plausible.ts`);
 * `DELETE /api/sites/{siteId}/import` removes those. Authenticated scope.
 */
import type { Readable } from 'node:stream'
import { importSiteEndpoint, type QueryOf, removeImportedEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { recordAudit } from '../audit/audit-log.js'
import { siteForAdmin } from '../auth/site-access.js'
import type { Ingest } from '../ingest/ingest.js'
import { deleteImportedDays } from '../query/imported-totals.js'
import { invalidParameters } from '../query/params.js'
import { AppError } from '../shared/errors.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { toBool } from '../storage/metadata/schema.js'
import { csvRecords } from '../transfer/csv-records.js'
import { ga4Entries } from '../transfer/ga4-entries.js'
import { importEvents } from '../transfer/import-events.js'
import { importPlausible } from '../transfer/import-plausible.js'
import { ndjsonEntries } from '../transfer/ndjson-entries.js'
import { ndjsonLines } from '../transfer/ndjson-lines.js'
import { umamiEntries } from '../transfer/umami-entries.js'
import { route } from './route.js'

/** Bytes per import request (the body streams; this bounds how long one request may run). */
export const IMPORT_MAX_BYTES = 1024 * 1024 * 1024
/** Bytes of a Plausible export ZIP (read whole: a ZIP's directory is at its end). */
export const PLAUSIBLE_MAX_ZIP_BYTES = 256 * 1024 * 1024
/** Bytes per line. */
export const IMPORT_MAX_LINE_BYTES = 1024 * 1024

export interface ImportRouteOptions {
  db: MetadataDb
  events: EventsStore
  ingest: Ingest
  /**
   * Folds the sessions and seals the pages' months an import wrote (`workers/session-fold-pass.ts`,
   * `foldAfterImport`), run before the answer so that long-range reports read them folded at once;
   * absent: left to the periodic pass.
   */
  foldImported?: () => Promise<unknown>
}

export async function importRoutes(
  app: FastifyInstance,
  { db, events, ingest, foldImported }: ImportRouteOptions,
) {
  // The body is handed over as the raw stream: the importer reads it line by line.
  app.addContentTypeParser('application/x-ndjson', (_request, payload, done) => done(null, payload))
  app.addContentTypeParser('text/csv', (_request, payload, done) => done(null, payload))
  app.addContentTypeParser(
    'application/zip',
    { parseAs: 'buffer', bodyLimit: PLAUSIBLE_MAX_ZIP_BYTES },
    (_request, body, done) => done(null, body),
  )

  route(app, importSiteEndpoint, {
    // Before the query is parsed: the site's 401, 403 and 404, then the body's media type (415).
    resolve: async ({ params, caller, request }) => {
      const { site } = await siteForAdmin(db, caller.userId, params.siteId)
      const contentType = request.headers['content-type']
      if (!isNdjson(contentType) && !isCsv(contentType) && !isZip(contentType)) {
        throw new AppError(
          415,
          'The body must be NDJSON (Content-Type: application/x-ndjson), with format=umami text/csv, or with format=plausible application/zip',
        )
      }
      return { site, ndjson: isNdjson(contentType), zip: isZip(contentType) }
    },
    handle: async ({ caller, query, body, resolved: { site, ndjson, zip }, request }) => {
      if (zip || query.format === 'plausible') {
        if (!zip) throw invalidParameters({ format: ['format=plausible takes an application/zip body'] })
        if (query.format !== 'plausible') {
          throw invalidParameters({
            format: ["an application/zip body needs format=plausible (Plausible's CSV export)"],
          })
        }
        if (query.umami_website_id !== undefined) {
          throw invalidParameters({ umami_website_id: ['goes with format=umami only'] })
        }
        const result = await importPlausible(
          { events, db, clock: ingest.deps.clock },
          site,
          body as Buffer,
          caller.userId,
        )
        return { success: true as const, ...result }
      }
      const format = formatOf(ndjson, query)
      const stream = body as Readable
      const lines = () =>
        ndjsonLines(stream, { maxBytes: IMPORT_MAX_BYTES, maxLineBytes: IMPORT_MAX_LINE_BYTES })
      const entries =
        format.name === 'ga4'
          ? ga4Entries(lines(), {
              defaultHostname: site.domain,
              keepQuerystring: toBool(site.track_url_params),
            })
          : format.name === 'umami'
            ? umamiEntries(
                csvRecords(stream, { maxBytes: IMPORT_MAX_BYTES, maxRecordChars: IMPORT_MAX_LINE_BYTES }),
                {
                  defaultHostname: site.domain,
                  keepQuerystring: toBool(site.track_url_params),
                  ...(format.websiteId === undefined ? {} : { websiteId: format.websiteId }),
                },
              )
            : ndjsonEntries(lines())
      const result = await importEvents({ ingest: ingest.deps, events, db }, site, entries, caller.userId)
      if (result.imported > 0 && foldImported) {
        // The events are stored either way: a failed fold leaves them to the periodic pass.
        await foldImported().catch((error: unknown) =>
          request.log.warn(
            { err: error },
            'folding the imported sessions failed; the periodic pass folds them',
          ),
        )
      }
      return { success: true as const, ...result }
    },
  })

  route(app, removeImportedEndpoint, async ({ params, caller }) => {
    const { site } = await siteForAdmin(db, caller.userId, params.siteId)
    await deleteImportedDays(events, site.site_id)
    await recordAudit(
      db,
      {
        organizationId: site.organization_id,
        siteId: site.site_id,
        actorUserId: caller.userId,
        action: 'imported_days.removed',
        details: {},
      },
      ingest.deps.clock,
    )
    return { success: true as const }
  })
}

const isNdjson = (contentType: string | undefined) =>
  contentType !== undefined && /^application\/x-ndjson\s*(;|$)/i.test(contentType)
const isZip = (contentType: string | undefined) =>
  contentType !== undefined && /^application\/zip\s*(;|$)/i.test(contentType)
const isCsv = (contentType: string | undefined) =>
  contentType !== undefined && /^text\/csv\s*(;|$)/i.test(contentType)

/**
 * The source format from the body's media type (NDJSON, else CSV) and the parsed query.
 * @throws AppError 400 naming `format` when it does not fit the body (a CSV body needs
 *   `format=umami`, `format=ga4` an NDJSON one), or `umami_website_id` on an NDJSON body
 */
function formatOf(
  ndjson: boolean,
  query: QueryOf<typeof importSiteEndpoint>,
): { name: 'ndjson' } | { name: 'ga4' } | { name: 'umami'; websiteId?: string } {
  const { format, umami_website_id: websiteId } = query
  const wrong = (name: string, problem: string) => invalidParameters({ [name]: [problem] })
  if (ndjson) {
    if (format === 'umami') throw wrong('format', 'format=umami takes a text/csv body')
    if (websiteId !== undefined) throw wrong('umami_website_id', 'goes with format=umami only')
    return format === 'ga4' ? { name: 'ga4' } : { name: 'ndjson' }
  }
  if (format === 'ga4') {
    throw wrong('format', "format=ga4 takes an application/x-ndjson body (BigQuery's newline-delimited JSON)")
  }
  if (format !== 'umami') {
    throw wrong('format', "a text/csv body needs format=umami (Umami's website_event table)")
  }
  return websiteId === undefined ? { name: 'umami' } : { name: 'umami', websiteId }
}
