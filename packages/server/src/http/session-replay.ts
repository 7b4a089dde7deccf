/**
 * Routes: a session's recording (analytics scope), registered from their contracts
 * (`@pathlight/protocol` `contracts/replay.ts`). `GET /api/sites/{siteId}/sessions/{sessionId}/replay`
 * for any reader of the site answers `{data:{events, meta:{durationMs, bytes, truncated}}}`, streamed
 * batch by batch (`streamSessionReplay`: memory bounded by one batch, one read by the replay limits);
 * `DELETE` the same path (admin or owner) removes it, audited as `replay.deleted`. Both 404 when the
 * session has no recording.
 */
import { deleteSessionReplayEndpoint, getSessionReplayEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForAdmin, siteForReader } from '../auth/site-access.js'
import type { ReplayLimits } from '../replay/replay-limits.js'
import { deleteSessionReplay, streamSessionReplay } from '../replay/session-replay.js'
import type { Clock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { route } from './route.js'

/** GET and DELETE `/api/sites/{siteId}/sessions/{sessionId}/replay`. */
export async function sessionReplayRoutes(
  app: FastifyInstance,
  {
    db,
    events,
    clock,
    replayLimits,
  }: { db: MetadataDb; events: EventsStore; clock?: Clock; replayLimits?: ReplayLimits },
) {
  route(app, getSessionReplayEndpoint, async ({ params, reader, reply }) => {
    const { site } = await siteForReader(db, reader, params.siteId)
    const answer = await streamSessionReplay(events, site, params.sessionId, { limits: replayLimits })
    return reply.type('application/json; charset=utf-8').send(answer)
  })

  route(app, deleteSessionReplayEndpoint, async ({ params, caller }) => {
    const { site } = await siteForAdmin(db, caller.userId, params.siteId)
    await deleteSessionReplay({ db, events, clock }, site, caller.userId, params.sessionId)
    return { success: true as const }
  })
}
