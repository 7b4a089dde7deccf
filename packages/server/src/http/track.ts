/**
 * Route: `POST /api/track`, for the tracker, the Node client and any server. Transport only: the body
 * is taken raw (JSON or text/plain from beacons, at most 64 KB), the per-API-key rate limit is applied,
 * and `ingest.accept` decides. Lives outside the authenticated scope: the key is optional here.
 */
import rateLimit from '@fastify/rate-limit'
import { trackEndpoint, trackPreflightEndpoint } from '@pathlight/protocol'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Redis } from 'ioredis'
import type { ApiKeys } from '../auth/api-keys.js'
import { bearerToken } from '../auth/bearer-token.js'
import type { Ingest } from '../ingest/ingest.js'
import { publicPostPreflight } from './public-post-preflight.js'
import { rateLimitError } from './rate-limit-error.js'
import { keyBucketOf } from './rate-limit-key.js'
import { route } from './route.js'

export const TRACK_BODY_LIMIT = 64 * 1024

export interface TrackRouteOptions {
  ingest: Ingest
  apiKeys: Pick<ApiKeys, 'verify'>
  keyLimit: { max: number; windowMs: number }
  redis?: Redis
}

export async function trackRoutes(
  app: FastifyInstance,
  { ingest, apiKeys, keyLimit, redis }: TrackRouteOptions,
) {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: TRACK_BODY_LIMIT }, (_request, body, done) =>
    done(null, body),
  )

  await app.register(trackPreflightRoutes)
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'pl:rl:track:' } : {}),
  })

  route(
    app,
    trackEndpoint,
    // The body is handed over as received: the pipeline parses it once (`ingest.accept`).
    async ({ request, reply }) => {
      reply.header('access-control-allow-origin', '*')
      const result = await ingest.accept({
        body: parseBody(request.body),
        authorization: request.headers.authorization,
        origin: request.headers.origin,
        referer: request.headers.referer,
        userAgent: request.headers['user-agent'],
        ip: request.ip,
      })
      return reply.code(result.status).send(result.body)
    },
    {
      bodyLimit: TRACK_BODY_LIMIT,
      config: {
        rateLimit: {
          max: keyLimit.max,
          timeWindow: keyLimit.windowMs,
          // Only keyed requests are limited, one bucket per token however the header spells the scheme;
          // the key itself is never used as a store key, its hash is.
          keyGenerator: (request: FastifyRequest) => keyBucketOf(request.headers.authorization) ?? '',
          // Keyless requests are not limited here; neither are unknown keys, so that the pipeline answers
          // them 401 (a wrong key must read as a wrong key, not as a rate limit) and they get no bucket.
          allowList: async (request: FastifyRequest) => {
            const token = bearerToken(request.headers.authorization)
            if (token === undefined) return true
            return (await apiKeys.verify(token)) === null
          },
          errorResponseBuilder: () => rateLimitError(keyLimit),
        },
      },
    },
  )
}

/**
 * CORS for browsers that call the endpoint with `application/json` from a site's own code: the answer
 * is readable from any origin (it holds nothing secret).
 */
export async function trackPreflightRoutes(app: FastifyInstance) {
  publicPostPreflight(app, trackPreflightEndpoint)
}

/** Raw body text to a value for the payload parser; invalid JSON is passed on as the raw string. */
function parseBody(body: unknown): unknown {
  if (typeof body !== 'string') return body
  try {
    return JSON.parse(body)
  } catch {
    return body
  }
}
