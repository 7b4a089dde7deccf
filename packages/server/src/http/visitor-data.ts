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
import { eraseUserEndpoint, eraseVisitorEndpoint } from '@pathlight/protocol'
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
import type { Caller } from './caller.js'
import { callerOf } from './caller-of.js'
import { media } from './openapi/route-doc.js'
import { route } from './route.js'

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

/**
 * Register the four routes (export and erasure, by user id and by visitor id) on the authenticated
 * scope; the erasures from their contracts (`@pathlight/protocol` `contracts/privacy.ts`), the NDJSON
 * exports by hand.
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

  for (const kind of ['user', 'visitor'] as const) {
    const { segment, who, param } = kinds[kind]
    const name = visitorParam[kind]
    const path = `/api/sites/:siteId/${segment}/:${name}`
    const access = async (request: FastifyRequest) => {
      const params = request.params as Record<string, string>
      return visitorAccess(callerOf(request), params.siteId ?? '', kind, params[name])
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
  }

  route(app, eraseUserEndpoint, async ({ params, caller }) => {
    const { site, userId, id } = await visitorAccess(caller, params.siteId, 'user', params.userId)
    return { success: true as const, ...(await eraseVisitor(options, site, userId, 'user', id)) }
  })

  route(app, eraseVisitorEndpoint, async ({ params, caller }) => {
    const { site, userId, id } = await visitorAccess(caller, params.siteId, 'visitor', params.visitorId)
    return { success: true as const, ...(await eraseVisitor(options, site, userId, 'visitor', id)) }
  })
}
