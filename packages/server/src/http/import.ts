/**
 * Route: bulk import of a site's history, `POST /api/sites/{siteId}/import` (admin or owner; session
 * cookie or a `full` API key). The body is NDJSON (`transfer/ndjson-lines.ts`), or with `?format=umami`
 * the CSV of Umami's `website_event` table (`transfer/csv-records.ts`, `transfer/umami-entries.ts`),
 * read as it streams in: at most `IMPORT_MAX_BYTES` per request and 1 MB per line or CSV row.
 * Authenticated scope.
 */
import type { Readable } from 'node:stream'
import { doc, importResult } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { siteForAdmin } from '../auth/site-access.js'
import type { Ingest } from '../ingest/ingest.js'
import { trackPayloadSchema } from '../ingest/payload.js'
import { invalidParameters } from '../query/params.js'
import { AppError } from '../shared/errors.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { toBool } from '../storage/metadata/schema.js'
import { csvRecords } from '../transfer/csv-records.js'
import { exportedEventSchema } from '../transfer/exported-event.js'
import { importEvents } from '../transfer/import-events.js'
import { ndjsonEntries } from '../transfer/ndjson-entries.js'
import { ndjsonLines } from '../transfer/ndjson-lines.js'
import { umamiEntries } from '../transfer/umami-entries.js'
import { callerOf } from './caller-of.js'
import { json } from './openapi/route-doc.js'

/** Bytes per import request (the body streams; this bounds how long one request may run). */
export const IMPORT_MAX_BYTES = 1024 * 1024 * 1024
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

/** A raw line, as the document shows it: the tracking body without `site_id`, plus `timestamp`. */
const rawLine = z
  .object(trackPayloadSchema.shape)
  .omit({ site_id: true })
  .extend({
    timestamp: doc(z.string(), {
      format: 'date-time',
      description: 'When the event happened: ISO 8601 with `Z` or an offset',
    }),
  })

/** The query: which source format a `text/csv` body is in, and for Umami which website to take. */
const importQuery = z.object({
  format: doc(z.enum(['ndjson', 'umami']).optional(), {
    description:
      "`ndjson` (the default, `application/x-ndjson`) or `umami`: the CSV of Umami v2's `website_event` " +
      'table (`text/csv`, as `COPY website_event TO STDOUT WITH CSV HEADER` writes it)',
  }),
  umami_website_id: doc(z.uuid().optional(), {
    description:
      'With `format=umami`: the Umami website whose rows to import (others are skipped). Default: the ' +
      "first row's website; rows of another are rejected",
  }),
})

export async function importRoutes(
  app: FastifyInstance,
  { db, events, ingest, foldImported }: ImportRouteOptions,
) {
  // The body is handed over as the raw stream: the importer reads it line by line.
  app.addContentTypeParser('application/x-ndjson', (_request, payload, done) => done(null, payload))
  app.addContentTypeParser('text/csv', (_request, payload, done) => done(null, payload))

  app.post<{ Params: { siteId: string }; Querystring: Record<string, unknown> }>(
    '/api/sites/:siteId/import',
    {
      config: {
        doc: {
          summary: "Import a site's history (NDJSON, or Umami's CSV)",
          description:
            "One event per line, in either form: **raw**, the tracking body's fields plus `timestamp` " +
            '(enriched and sessionized as live tracking does; bots dropped when the site blocks them; ' +
            'domain, quota and rate limits do not apply), or **exported**, a line of `GET .../export` ' +
            '(has `eventId`; stored as is, and an `eventId` the site holds is dropped as `duplicate`). ' +
            'A bad line is listed with its number and does not stop the others. Imported events are ' +
            'readable when the answer arrives, already folded into the long-range rollups. At most 1 GiB per request and 1 MiB per line.\n\n' +
            "With `?format=umami` the body is `text/csv`: Umami v2's `website_event` table as " +
            '`COPY website_event TO STDOUT WITH CSV HEADER` writes it. Each row is stored as is with its ' +
            "`event_id` (re-importing drops it as `duplicate`): Umami's visit becomes the session, its " +
            'session the visitor; referrer, channel and UTM are derived as live tracking does. Browser, OS, ' +
            "device, screen, language and location (Umami's `session` table) and event data are not in " +
            'that table. A bad row is listed with its number (from 1 after the header) and column.',
          tag: 'Sites',
          access: 'admin',
          query: importQuery,
          body: z.union([rawLine, exportedEventSchema]),
          bodyMediaTypes: ['application/x-ndjson', 'text/csv'],
          responses: {
            200: json('What was stored, dropped and rejected', importResult),
            413: 'The body, a line or a row is over its limit (the lines before it were imported)',
            415: 'The body is neither `application/x-ndjson` nor `text/csv`',
          },
        },
      },
    },
    async (request) => {
      const { userId } = callerOf(request)
      const { site } = await siteForAdmin(db, userId, request.params.siteId)
      const format = formatOf(request.headers['content-type'], request.query ?? {})
      const body = request.body as Readable
      const entries =
        format.name === 'umami'
          ? umamiEntries(
              csvRecords(body, { maxBytes: IMPORT_MAX_BYTES, maxRecordChars: IMPORT_MAX_LINE_BYTES }),
              {
                defaultHostname: site.domain,
                keepQuerystring: toBool(site.track_url_params),
                ...(format.websiteId === undefined ? {} : { websiteId: format.websiteId }),
              },
            )
          : ndjsonEntries(
              ndjsonLines(body, { maxBytes: IMPORT_MAX_BYTES, maxLineBytes: IMPORT_MAX_LINE_BYTES }),
            )
      const result = await importEvents({ ingest: ingest.deps, events, db }, site, entries, userId)
      if (result.imported > 0 && foldImported) {
        // The events are stored either way: a failed fold leaves them to the periodic pass.
        await foldImported().catch((error: unknown) =>
          request.log.warn(
            { err: error },
            'folding the imported sessions failed; the periodic pass folds them',
          ),
        )
      }
      return { success: true, ...result }
    },
  )
}

const isNdjson = (contentType: string | undefined) =>
  contentType !== undefined && /^application\/x-ndjson\s*(;|$)/i.test(contentType)
const isCsv = (contentType: string | undefined) =>
  contentType !== undefined && /^text\/csv\s*(;|$)/i.test(contentType)

/**
 * The source format from the body's media type and the query.
 * @throws AppError 415 for another media type; 400 naming `format` when it does not fit the body (a
 *   CSV body needs `format=umami`) or naming the parameter that is invalid (others are ignored)
 */
function formatOf(
  contentType: string | undefined,
  query: Record<string, unknown>,
): { name: 'ndjson' } | { name: 'umami'; websiteId?: string } {
  const ndjson = isNdjson(contentType)
  if (!ndjson && !isCsv(contentType)) {
    throw new AppError(
      415,
      'The body must be NDJSON (Content-Type: application/x-ndjson) or, with format=umami, text/csv',
    )
  }
  const parsed = importQuery.safeParse(query)
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {}
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? 'query')
      fieldErrors[name] = [...(fieldErrors[name] ?? []), issue.message]
    }
    throw invalidParameters(fieldErrors)
  }
  const { format, umami_website_id: websiteId } = parsed.data
  const wrong = (name: string, problem: string) => invalidParameters({ [name]: [problem] })
  if (ndjson) {
    if (format === 'umami') throw wrong('format', 'format=umami takes a text/csv body')
    if (websiteId !== undefined) throw wrong('umami_website_id', 'goes with format=umami only')
    return { name: 'ndjson' }
  }
  if (format !== 'umami') {
    throw wrong('format', "a text/csv body needs format=umami (Umami's website_event table)")
  }
  return websiteId === undefined ? { name: 'umami' } : { name: 'umami', websiteId }
}
