/**
 * Routes: a session's recording (analytics scope). `GET /api/sites/{siteId}/sessions/{sessionId}/replay`
 * for any reader of the site answers `{data:{events, meta:{durationMs, bytes, truncated}}}`;
 * `DELETE` the same path (admin or owner) removes it, audited as `replay.deleted`. Both 404 when the
 * session has no recording.
 */
import { sessionReplay } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { siteForAdmin, siteForReader } from '../auth/site-access.js'
import { deleteSessionReplay, readSessionReplay } from '../replay/session-replay.js'
import type { Clock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { callerOf } from './caller-of.js'
import { deleted } from './openapi/doc-parts.js'
import { json } from './openapi/route-doc.js'
import { readerOf } from './reader.js'

type ReplayParams = { Params: { siteId: string; sessionId: string } }

const params = { sessionId: 'The session id (`session_id` of a Session)' }

export async function sessionReplayRoutes(
  app: FastifyInstance,
  { db, events, clock }: { db: MetadataDb; events: EventsStore; clock?: Clock },
) {
  app.get<ReplayParams>(
    '/api/sites/:siteId/sessions/:sessionId/replay',
    {
      config: {
        doc: {
          summary: "A session's recording, for the player",
          description:
            "Every stored rrweb event of the session: batches in sequence order, each batch's events as sent.",
          tag: 'Reports',
          access: 'reader',
          params,
          responses: {
            200: json('The recording', z.object({ data: sessionReplay })),
            404: 'The session has no recording (or the credentials do not reach this site)',
          },
        },
      },
    },
    async (request) => {
      const { site } = await siteForReader(db, readerOf(request), request.params.siteId)
      return { data: await readSessionReplay(events, site, request.params.sessionId) }
    },
  )

  app.delete<ReplayParams>(
    '/api/sites/:siteId/sessions/:sessionId/replay',
    {
      config: {
        doc: {
          summary: "Delete a session's recording",
          tag: 'Reports',
          access: 'admin',
          params,
          responses: {
            200: deleted,
            401: 'No credentials (a private link key does not write), or an invalid API key',
            404: 'The session has no recording (or the site is not in your organizations)',
          },
        },
      },
    },
    async (request) => {
      const { userId } = callerOf(request)
      const { site } = await siteForAdmin(db, userId, request.params.siteId)
      await deleteSessionReplay({ db, events, clock }, site, userId, request.params.sessionId)
      return { success: true }
    },
  )
}
