/**
 * A session's recording (session replay): read by any reader of the site, deleted by admins and
 * owners. Recording it is the tracking script's `POST /api/replay`, not declared here.
 */
import { z } from 'zod'
import { sessionReplay } from '../behaviour-schemas.js'
import { endpoint } from '../contract.js'
import { doc } from '../openapi-registry.js'
import { successResponse } from '../response-schemas.js'
import * as at from './addresses.js'

/** `:siteId` and `:sessionId` (a session without a recording is a 404). */
const replayParams = z.object({
  siteId: z.string(),
  sessionId: doc(z.string(), 'The session id (`session_id` of a Session)'),
})

/** `GET /api/sites/:siteId/sessions/:sessionId/replay`: the recording, for the player. */
export const getSessionReplayEndpoint = endpoint({
  ...at.getSessionReplay,
  summary: "A session's recording, for the player",
  description:
    "Every stored rrweb event of the session: batches in sequence order, each batch's events as sent. " +
    'Streamed; a read stops after the replay limits (`REPLAY_MAX_SESSION_BYTES` plus one batch of JSON, or 30 s), ' +
    'with `meta.truncated`.',
  tag: 'Reports',
  access: 'reader',
  params: replayParams,
  // Streamed batch by batch: a recording may hold tens of megabytes of JSON.
  raw: true,
  responses: {
    200: { description: 'The recording', schema: z.object({ data: sessionReplay }) },
    404: 'The session has no recording (or the credentials do not reach this site)',
  },
})

/** `DELETE /api/sites/:siteId/sessions/:sessionId/replay`: delete the recording (audited). */
export const deleteSessionReplayEndpoint = endpoint({
  ...at.deleteSessionReplay,
  summary: "Delete a session's recording",
  tag: 'Reports',
  access: 'admin',
  params: replayParams,
  responses: {
    200: { description: 'Deleted', schema: successResponse },
    401: 'No credentials (a private link key does not write), or an invalid API key',
    404: 'The session has no recording (or the site is not in your organizations)',
  },
})

/** Every session replay endpoint (the route/contract coverage test reads these). */
export const replayEndpoints = [getSessionReplayEndpoint, deleteSessionReplayEndpoint] as const

declare module './addresses.js' {
  interface EndpointContracts {
    getSessionReplay: typeof getSessionReplayEndpoint
    deleteSessionReplay: typeof deleteSessionReplayEndpoint
  }
}
