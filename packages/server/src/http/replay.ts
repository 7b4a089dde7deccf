/**
 * Route: `POST /api/replay`, where the recorder of the tracking script sends session replay batches
 * (rrweb events), and its CORS preflight. Transport only: the body is taken raw (at most 1 MB as sent,
 * gzip or JSON, `text/plain` so browsers send it without a preflight) and `replay.accept` decides.
 * Public like `/api/track`; every answer, errors included, is readable from any origin.
 */
import { recordReplayEndpoint, replayPreflightEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { MAX_REPLAY_BODY_BYTES, type ReplayIngest } from '../replay/replay-ingest.js'
import { publicPostPreflight } from './public-post-preflight.js'
import { route } from './route.js'

export async function replayRoutes(app: FastifyInstance, { replay }: { replay: ReplayIngest }) {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: MAX_REPLAY_BODY_BYTES },
    (_request, body, done) => done(null, body),
  )
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*')
  })

  publicPostPreflight(app, replayPreflightEndpoint)

  route(
    app,
    recordReplayEndpoint,
    async ({ request, reply }) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
      const result = await replay.accept({
        body,
        origin: request.headers.origin,
        referer: request.headers.referer,
        userAgent: request.headers['user-agent'],
        ip: request.ip,
      })
      return reply.code(result.status).send(result.body)
    },
    { bodyLimit: MAX_REPLAY_BODY_BYTES },
  )
}
