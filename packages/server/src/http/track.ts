/**
 * Route: `POST /api/track`, for the tracker, the Node client and any server. Transport only: the body
 * is taken raw (JSON or text/plain from beacons, at most 64 KB), the per-API-key rate limit is applied,
 * and `ingest.accept` decides. Lives outside the authenticated scope: the key is optional here.
 */
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Redis } from 'ioredis'
import type { ApiKeys } from '../auth/api-keys.js'
import { bearerToken } from '../auth/bearer-token.js'
import type { Ingest } from '../ingest/ingest.js'
import { rateLimitError } from './rate-limit-error.js'
import { rateLimitKey } from './rate-limit-key.js'

export const TRACK_BODY_LIMIT = 64 * 1024

export interface TrackRouteOptions {
  ingest: Ingest
  apiKeys: Pick<ApiKeys, 'verify'>
  keyLimit: { max: number; windowMs: number }
  redis?: Redis
}

/**
 * The Authorization header when it carries a bearer token: the per-key bucket is the hash of this
 * whole header, not of the token alone (the key lookup uses the token).
 */
const bearerHeaderOf = (request: FastifyRequest): string | undefined => {
  const header = request.headers.authorization
  return bearerToken(header) === undefined ? undefined : header
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

  app.post(
    '/api/track',
    {
      bodyLimit: TRACK_BODY_LIMIT,
      config: {
        rateLimit: {
          max: keyLimit.max,
          timeWindow: keyLimit.windowMs,
          // Only keyed requests are limited; the key itself is never used as a store key, its hash is.
          keyGenerator: (request: FastifyRequest) => rateLimitKey(bearerHeaderOf(request) ?? ''),
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
    async (request, reply) => {
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
  )
}

/**
 * CORS for browsers that call the endpoint with `application/json` from a site's own code: the answer
 * is readable from any origin (it holds nothing secret), and the preflight allows `Content-Type` only:
 * API keys must never be used in client-side code, so `Authorization` is not offered.
 */
export async function trackPreflightRoutes(app: FastifyInstance) {
  app.options('/api/track', async (_request, reply) =>
    reply
      .code(204)
      .header('access-control-allow-origin', '*')
      .header('access-control-allow-methods', 'POST')
      .header('access-control-allow-headers', 'content-type')
      .header('access-control-max-age', '86400')
      .send(),
  )
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
