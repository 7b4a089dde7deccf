/**
 * Routes: data-subject requests about one visitor of a site (authenticated scope; admin or owner, with
 * the session cookie or a `full` API key: an export is personal data, so a `read` key is refused too).
 * - `GET /api/sites/{siteId}/users/{userId}/export`, `GET .../visitors/{visitorId}/export`: the
 *   visitor's events as NDJSON, the site export's lines, streamed;
 * - `DELETE /api/sites/{siteId}/users/{userId}`, `DELETE .../visitors/{visitorId}`: erase them,
 *   answering `{success, deleted, sessions, replayBatches}` (zeros for an unknown id: idempotent).
 * `userId` is the `user_id` the site tracked; `visitorId` the anonymous id ingest derived
 * (`privacy/visitor-data.ts`). A bad id is a 400 naming the parameter.
 */
import { Readable } from 'node:stream'
import {
  eraseUserEndpoint,
  eraseVisitorEndpoint,
  exportUserEndpoint,
  exportVisitorEndpoint,
} from '@pathlight/protocol'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { siteForAdmin } from '../auth/site-access.js'
import type { WriteBuffer } from '../ingest/write-buffer.js'
import { eraseVisitor, exportVisitor, parseVisitorId, type VisitorKind } from '../privacy/visitor-data.js'
import { forbidden } from '../shared/errors.js'
import type { Clock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { Caller } from './caller.js'
import { route } from './route.js'

export interface VisitorDataRouteOptions {
  db: MetadataDb
  events: EventsStore
  buffer: WriteBuffer
  clock?: Clock
}

/** The 403 of a key that is not `full` (the contracts document it among the 403s). */
const keyRefused = "A `read` API key: a visitor's data needs a `full` key (or the session cookie)"
/**
 * Register the four routes (export and erasure, by user id and by visitor id) on the authenticated
 * scope, from their contracts (`@pathlight/protocol` `contracts/privacy.ts`).
 */
export async function visitorDataRoutes(app: FastifyInstance, options: VisitorDataRouteOptions) {
  /**
   * The site, the acting user and the stored id a request names: 403 for a key that is not `full`,
   * then the site's access check (401, 403, 404), then a 400 naming an invalid id.
   */
  const visitorAccess = async (caller: Caller, siteId: string, kind: VisitorKind, raw: unknown) => {
    if (caller.scope !== 'full') throw forbidden(keyRefused)
    const { site } = await siteForAdmin(options.db, caller.userId, siteId)
    return { site, userId: caller.userId, id: parseVisitorId(kind, raw) }
  }

  /** Stream the visitor's events as NDJSON, the site export's lines. */
  const sendExport = async (
    caller: Caller,
    siteId: string,
    kind: VisitorKind,
    raw: string,
    reply: FastifyReply,
  ) => {
    const { site, userId, id } = await visitorAccess(caller, siteId, kind, raw)
    const lines = await exportVisitor(options, site, userId, kind, id)
    return reply
      .type('application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="pathlight-site-${site.site_id}-${kind}s.ndjson"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(lines))
  }

  route(app, exportUserEndpoint, async ({ params, caller, reply }) =>
    sendExport(caller, params.siteId, 'user', params.userId, reply),
  )

  route(app, exportVisitorEndpoint, async ({ params, caller, reply }) =>
    sendExport(caller, params.siteId, 'visitor', params.visitorId, reply),
  )

  route(app, eraseUserEndpoint, async ({ params, caller }) => {
    const { site, userId, id } = await visitorAccess(caller, params.siteId, 'user', params.userId)
    return { success: true as const, ...(await eraseVisitor(options, site, userId, 'user', id)) }
  })

  route(app, eraseVisitorEndpoint, async ({ params, caller }) => {
    const { site, userId, id } = await visitorAccess(caller, params.siteId, 'visitor', params.visitorId)
    return { success: true as const, ...(await eraseVisitor(options, site, userId, 'visitor', id)) }
  })
}
