/**
 * A site's history out and in: the export (NDJSON, streamed oldest first) and the bulk import (NDJSON
 * of raw or exported events, or the CSV of Umami's `website_event` table), which reads its body as
 * it streams in and validates each line itself.
 */
import { z } from 'zod'
import { analyticsQuery } from '../analytics-query.js'
import { endpoint } from '../contract.js'
import { exportedEventSchema } from '../exported-event.js'
import { doc } from '../openapi-registry.js'
import { importResult } from '../report-schemas.js'
import { successResponse } from '../response-schemas.js'
import { trackPayloadSchema } from '../track-payload.js'
import * as at from './addresses.js'

const siteParams = z.object({ siteId: z.string() })

/**
 * The export's query: a range of calendar days, or nothing for the whole history; and the events to
 * keep: `filters` and `segment` as on the reports (event filters only).
 */
export const exportQuery = analyticsQuery.pick({
  start_date: true,
  end_date: true,
  time_zone: true,
  filters: true,
  segment: true,
})

/** `GET /api/sites/:siteId/export`: every stored event of the site, one JSON object per line. */
export const exportSiteEndpoint = endpoint({
  ...at.exportSite,
  summary: "Export a site's events (NDJSON)",
  description:
    'One line per stored event, oldest first: every stored field under the names of the v1 events ' +
    'API (`eventId`, `timestamp`, `sessionId`, `userId`, `pageTitle`, ...) and the other columns ' +
    'in camelCase (`utmSource`, `browserVersion`, `lat`, `lcp`, `errorMessage`, ...). Without ' +
    '`start_date` and `end_date` the whole history; with `filters` or `segment`, the events that pass ' +
    'them (event filters; `entry_page` and `exit_page` are refused). `POST .../import` takes the lines back as they ' +
    'are: the path to another Pathlight, to a ClickHouse server, and a backup.',
  tag: 'Sites',
  access: 'reader',
  raw: true,
  params: siteParams,
  query: exportQuery,
  responses: {
    200: { description: 'The events, one JSON object per line', media: ['application/x-ndjson'] },
  },
})

/** A raw line of an import, as the document shows it: the tracking body without `site_id`, plus `timestamp`. */
export const importRawLine = z
  .object(trackPayloadSchema.shape)
  .omit({ site_id: true })
  .extend({
    timestamp: doc(z.string(), {
      format: 'date-time',
      description: 'When the event happened: ISO 8601 with `Z` or an offset',
    }),
  })

/** The import's query: which source format a `text/csv` body is in, and for Umami which website to take. */
export const importQuery = z.object({
  format: doc(z.enum(['ndjson', 'umami', 'ga4', 'plausible']).optional(), {
    description:
      "`ndjson` (the default, `application/x-ndjson`); `umami`: the CSV of Umami v2's `website_event` " +
      'table (`text/csv`, as `COPY website_event TO STDOUT WITH CSV HEADER` writes it); `ga4`: the rows ' +
      "of Google Analytics 4's BigQuery export (`events_YYYYMMDD` as newline-delimited JSON, " +
      "`application/x-ndjson`); `plausible`: the ZIP of Plausible's CSV export (`application/zip`), kept " +
      'as imported daily totals',
  }),
  umami_website_id: doc(z.uuid().optional(), {
    description:
      'With `format=umami`: the Umami website whose rows to import (others are skipped). Default: the ' +
      "first row's website; rows of another are rejected",
  }),
})

/**
 * `POST /api/sites/:siteId/import`: a site's history, one event per line. The body is an upload the
 * handler reads as it streams in (`rawBody`); `body` is one line as the document shows it.
 */
export const importSiteEndpoint = endpoint({
  ...at.importSite,
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
    'that table. A bad row is listed with its number (from 1 after the header) and column.\n\n' +
    "With `?format=ga4` the body is NDJSON: the rows of Google Analytics 4's BigQuery export " +
    '(`events_YYYYMMDD`). `page_view` becomes a pageview, outbound `click` an outbound click, other ' +
    'events custom events with their parameters (`session_start`, `first_visit` and ' +
    '`user_engagement` are dropped as `ga4:<name>`); `ga_session_id` the session; device, browser, OS, ' +
    'country, region and city come from the row. Ids derive from the row: re-importing adds nothing.\n\n' +
    "With `?format=plausible` the body is `application/zip`: Plausible's CSV export (Settings → " +
    'Imports & Exports). Its daily totals (visitors, pages, entry and exit pages, sources and UTM, ' +
    "countries, devices, browsers, operating systems, custom events) replace the site's imported " +
    'days and are added to the overview and breakdowns for days before its first own event; ' +
    '`imported` counts the CSV rows kept. At most 256 MiB.',
  tag: 'Sites',
  access: 'admin',
  params: siteParams,
  query: importQuery,
  body: z.union([importRawLine, exportedEventSchema]),
  bodyMediaTypes: ['application/x-ndjson', 'text/csv', 'application/zip'],
  rawBody: true,
  responses: {
    200: { description: 'What was stored, dropped and rejected', schema: importResult },
    413: 'The body, a line or a row is over its limit (the lines before it were imported)',
    415: 'The body is neither `application/x-ndjson`, `text/csv` nor `application/zip`',
  },
})

/** `DELETE /api/sites/:siteId/import`: "Remove imported data", the imported daily totals of the site. */
export const removeImportedEndpoint = endpoint({
  ...at.removeImported,
  summary: "Remove a site's imported daily totals",
  description:
    'Deletes the daily totals a Plausible import stored (`POST .../import?format=plausible`): the reports ' +
    'read own events only from then on. Imported events (NDJSON, Umami, GA4) are events of the site and ' +
    'stay. Answers the same when there is nothing to remove.',
  tag: 'Sites',
  access: 'admin',
  params: siteParams,
  responses: { 200: { description: 'Removed', schema: successResponse } },
})

/** Every transfer endpoint (the route/contract coverage test reads these). */
export const transferEndpoints = [exportSiteEndpoint, importSiteEndpoint, removeImportedEndpoint] as const

declare module './addresses.js' {
  interface EndpointContracts {
    exportSite: typeof exportSiteEndpoint
    importSite: typeof importSiteEndpoint
    removeImported: typeof removeImportedEndpoint
  }
}
