/**
 * Routes: a session's recording (analytics scope), registered from their contracts
 * (`@pathlight/protocol` `contracts/replay.ts`). `GET /api/sites/{siteId}/sessions/{sessionId}/replay`
 * for any reader of the site answers `{data:{events, meta:{durationMs, bytes, truncated}}}`;
 * `DELETE` the same path (admin or owner) removes it, audited as `replay.deleted`. Both 404 when the
 * session has no recording.
 */
import { deleteSessionReplayEndpoint, getSessionReplayEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForAdmin, siteForReader } from '../auth/site-access.js'
import { deleteSessionReplay, readSessionReplay } from '../replay/session-replay.js'
import type { Clock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { route } from './route.js'

/** GET and DELETE `/api/sites/{siteId}/sessions/{sessionId}/replay`. */
export async function sessionReplayRoutes(
  app: FastifyInstance,
  { db, events, clock }: { db: MetadataDb; events: EventsStore; clock?: Clock },
) {
  route(app, getSessionReplayEndpoint, async ({ params, reader }) => {
    const { site } = await siteForReader(db, reader, params.siteId)
    return { data: await readSessionReplay(events, site, params.sessionId) }
  })

  route(app, deleteSessionReplayEndpoint, async ({ params, caller }) => {
    const { site } = await siteForAdmin(db, caller.userId, params.siteId)
    await deleteSessionReplay({ db, events, clock }, site, caller.userId, params.sessionId)
    return { success: true as const }
  })
}
