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
import { erasureResult } from '@pathlight/protocol'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { siteForAdmin } from '../auth/site-access.js'
import type { WriteBuffer } from '../ingest/write-buffer.js'
import {
  eraseVisitor,
  exportVisitor,
  parseVisitorId,
  type VisitorKind,
  visitorParam,
} from '../privacy/visitor-data.js'
import { forbidden } from '../shared/errors.js'
import type { Clock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { callerOf } from './caller-of.js'
import { json, media } from './openapi/route-doc.js'

export interface VisitorDataRouteOptions {
  db: MetadataDb
  events: EventsStore
  buffer: WriteBuffer
  clock?: Clock
}

/** How each kind is named in paths and documented. */
const kinds = {
  user: {
    segment: 'users',
    who: 'a user',
    param:
      'The `user_id` the site sent when tracking (as the sessions list, the events and the export show it; ' +
      'URL-encoded)',
  },
  visitor: {
    segment: 'visitors',
    who: 'an anonymous visitor',
    param:
      'The anonymous visitor id: 16 lowercase hex digits, the `user_id` ingest gives the events of a ' +
      'visitor whose site sent none (on sites that salt ids, a new one every UTC day)',
  },
} as const satisfies Record<VisitorKind, { segment: string; who: string; param: string }>

const keyRefused = "A `read` API key: a visitor's data needs a `full` key (or the session cookie)"
const refused =
  `Your role is member (this needs admin or owner); a \`track\` key; ${keyRefused.charAt(0).toLowerCase()}${keyRefused.slice(1)}; ` +
  'or a cross-site cookie request (Origin/Referer not BASE_URL or a trusted origin)'

/** Register the four routes (export and erasure, by user id and by visitor id) on the authenticated scope. */
export async function visitorDataRoutes(app: FastifyInstance, options: VisitorDataRouteOptions) {
  for (const kind of ['user', 'visitor'] as const) {
    const { segment, who, param } = kinds[kind]
    const name = visitorParam[kind]
    const path = `/api/sites/:siteId/${segment}/:${name}`
    const access = async (request: FastifyRequest) => {
      const caller = callerOf(request)
      if (caller.scope !== 'full') throw forbidden(keyRefused)
      const params = request.params as Record<string, string>
      const { site } = await siteForAdmin(options.db, caller.userId, params.siteId)
      return { site, userId: caller.userId, id: parseVisitorId(kind, params[name]) }
    }

    app.get(
      `${path}/export`,
      {
        config: {
          doc: {
            summary: `Export ${who}'s events (NDJSON; GDPR article 15)`,
            description:
              "Every stored event with this `user_id`, oldest first, one line each in the site export's " +
              'form (`GET .../export`). Events accepted before the request are included. Audited as ' +
              '`visitor.exported` (with a SHA-256 of the id). No events: an empty body.',
            tag: 'Sites',
            access: 'admin',
            who: 'admin or owner, with the session cookie or a `full` API key',
            params: { [name]: param },
            responses: {
              200: media("The visitor's events, one JSON object per line", 'application/x-ndjson'),
              400: `The ${name} is not valid (the message names it)`,
              403: refused,
            },
          },
        },
      },
      async (request, reply) => {
        const { site, userId, id } = await access(request)
        const lines = await exportVisitor(options, site, userId, kind, id)
        return reply
          .type('application/x-ndjson; charset=utf-8')
          .header(
            'content-disposition',
            `attachment; filename="pathlight-site-${site.site_id}-${segment}.ndjson"`,
          )
          .header('cache-control', 'no-store')
          .send(Readable.from(lines))
      },
    )

    app.delete(
      path,
      {
        config: {
          doc: {
            summary: `Erase ${who}'s data (GDPR article 17)`,
            description:
              'Deletes every event with this `user_id`, every other event of its sessions (the session ids ' +
              "those events carry) and those sessions' replay recordings, and rolls the affected hours, " +
              'days and months of the rollups up again from the events left, so every report reads as if ' +
              'they had never been stored. Events accepted before the request are erased too. Idempotent: an ' +
              'id with nothing stored answers `deleted: 0`. Audited as `visitor.erased` (with a SHA-256 of ' +
              'the id and the counts).',
            tag: 'Sites',
            access: 'admin',
            who: 'admin or owner, with the session cookie or a `full` API key',
            params: { [name]: param },
            responses: {
              200: json('What was removed', erasureResult),
              400: `The ${name} is not valid (the message names it)`,
              403: refused,
            },
          },
        },
      },
      async (request) => {
        const { site, userId, id } = await access(request)
        const erased = await eraseVisitor(options, site, userId, kind, id)
        return { success: true, ...erased }
      },
    )
  }
}
