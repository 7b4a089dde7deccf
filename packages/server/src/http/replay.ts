/**
 * Route: `POST /api/replay`, where the recorder of the tracking script sends session replay batches
 * (rrweb events), and its CORS preflight. Transport only: the body is taken raw (at most 1 MB as sent,
 * gzip or JSON, `text/plain` so browsers send it without a preflight) and `replay.accept` decides.
 * Public like `/api/track`; every answer, errors included, is readable from any origin.
 */
import { replayBatchSchema, replayResponse } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { MAX_REPLAY_BODY_BYTES, type ReplayIngest } from '../replay/replay-ingest.js'
import { json } from './openapi/route-doc.js'
import { publicPostPreflight } from './public-post-preflight.js'

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

  publicPostPreflight(app, '/api/replay', 'the session replay endpoint')

  app.post(
    '/api/replay',
    {
      bodyLimit: MAX_REPLAY_BODY_BYTES,
      config: {
        doc: {
          summary: 'Record a session replay batch',
          description:
            "A batch of rrweb events of the visitor's current session, as JSON or gzip (told by its magic " +
            'bytes 1f 8b; at most 1 MB as sent, 16 MB inflated), usually as `text/plain`. Stored only when ' +
            "the site's `sessionReplay` is on and the session is sampled (`replaySampleRate`, decided per " +
            "session id). The checks are those of a keyless `/api/track`: Origin or Referer on the site's " +
            'domain, bots refused when the site blocks them, excluded IPs and countries dropped. The batch ' +
            "joins the session the same visitor's events get (same IP and user agent, or `user_id`). A " +
            'session holds at most 20 MB; later batches are acknowledged with `recorded:false`. Answers ' +
            '`recorded:true` only once the batch is committed; it is kept `replayRetentionDays` days.',
          tag: 'Tracking',
          access: 'public',
          body: replayBatchSchema,
          bodyMediaTypes: ['text/plain', 'application/json', 'application/octet-stream'],
          responses: {
            200: json('Recorded, or deliberately not (`recorded:false` with the reason)', replayResponse),
            400: 'Invalid payload: not JSON or gzip, or `details.fieldErrors` names the fields',
            403: 'Domain not allowed, or bot detected',
            404: 'Site not found',
            413: 'Body over 1 MB as sent, or over 16 MB inflated; nothing stored',
            503: 'Events store unavailable; nothing acknowledged',
          },
        },
      },
    },
    async (request, reply) => {
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
  )
}
