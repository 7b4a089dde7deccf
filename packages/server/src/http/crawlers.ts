/**
 * Routes of crawler traffic (contracts: `@pathlight/protocol` `contracts/crawlers.ts`):
 * - `POST /api/sites/{siteId}/logs` (admin or owner; a session, or a key with the `logs` or `full`
 *   scope): access log lines, `text/plain` or `application/x-ndjson`, read as they stream in
 *   (`crawlers/ingest-log.ts`), at most `LOGS_MAX_BYTES` per request and 1 MiB per line;
 * - `GET /api/sites/{siteId}/crawlers` (any reader): the Crawlers page's report, registered from the
 *   report registry (`reports.ts`, its function in `page-report-parts.ts`);
 * - `GET /api/v1/sites/{siteId}/crawlers` (API key): a page of agents (not the dashboard's answer, so
 *   not its registered v1 twin).
 */
import type { Readable } from 'node:stream'
import { ingestSiteLogsEndpoint, v1CrawlersEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForAdmin, siteForMember } from '../auth/site-access.js'
import { queryCrawlerAgents } from '../crawlers/crawler-report.js'
import { estimateUnseen, ingestLog } from '../crawlers/ingest-log.js'
import { resolveQueryParams } from '../query/params.js'
import { AppError } from '../shared/errors.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { ndjsonLines } from '../transfer/ndjson-lines.js'
import { pageMeta } from './page-meta.js'
import { route } from './route.js'

/** Bytes per log request. */
export const LOGS_MAX_BYTES = 1024 * 1024 * 1024
/** Bytes per log line. */
export const LOGS_MAX_LINE_BYTES = 1024 * 1024

export interface CrawlerRouteOptions {
  db: MetadataDb
  events: EventsStore
  clock?: Clock
}

const LOG_MEDIA = /^(?:text\/plain|application\/x-ndjson)\s*(;|$)/i

/** `POST .../logs` (in the authenticated scope). */
export async function logIngestRoutes(app: FastifyInstance, { db, events }: CrawlerRouteOptions) {
  // The body is handed over as the raw stream: the ingest reads it line by line.
  app.addContentTypeParser('application/x-ndjson', (_request, payload, done) => done(null, payload))
  app.removeContentTypeParser('text/plain')
  app.addContentTypeParser('text/plain', (_request, payload, done) => done(null, payload))

  route(app, ingestSiteLogsEndpoint, {
    resolve: async ({ params, caller, request }) => {
      const { site } = await siteForAdmin(db, caller.userId, params.siteId)
      if (!LOG_MEDIA.test(request.headers['content-type'] ?? '')) {
        throw new AppError(415, 'The body must be log lines: Content-Type text/plain or application/x-ndjson')
      }
      return site
    },
    handle: async ({ query, body, resolved: site }) => {
      const lines = ndjsonLines(body as Readable, {
        maxBytes: LOGS_MAX_BYTES,
        maxLineBytes: LOGS_MAX_LINE_BYTES,
      })
      const summary = await ingestLog(events, site.site_id, lines)
      const estimate =
        query.estimate === true ? { estimate: await estimateUnseen(events, site.site_id, summary) } : {}
      return { success: true as const, ...summary, ...estimate }
    },
  })
}

/** `GET /api/v1/.../crawlers` (in the v1 scope). */
export async function v1CrawlerRoutes(
  app: FastifyInstance,
  { db, events, clock = systemClock }: CrawlerRouteOptions,
) {
  route(app, v1CrawlersEndpoint, {
    resolve: async ({ params, caller }) => (await siteForMember(db, caller.userId, params.siteId)).site,
    handle: async ({ query, resolved: site }) => {
      const params = resolveQueryParams(query, clock())
      const { data, total } = await queryCrawlerAgents(events, site.site_id, params)
      return { data, meta: pageMeta(params, total) }
    },
  })
}
