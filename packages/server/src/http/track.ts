/**
 * Route: `POST /api/track`, for the tracker, the Node client and any server. Transport only: the body
 * is taken raw (JSON or text/plain from beacons, at most 64 KB), the per-API-key rate limit is applied,
 * and `ingest.accept` decides. Lives outside the authenticated scope: the key is optional here.
 */
import rateLimit from '@fastify/rate-limit'
import { trackPayloadSchema, trackResponse } from '@pathlight/protocol'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Redis } from 'ioredis'
import type { ApiKeys } from '../auth/api-keys.js'
import { bearerToken } from '../auth/bearer-token.js'
import type { Ingest } from '../ingest/ingest.js'
import { json } from './openapi/route-doc.js'
import { publicPostPreflight } from './public-post-preflight.js'
import { rateLimitError } from './rate-limit-error.js'
import { keyBucketOf } from './rate-limit-key.js'

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

  app.post(
    '/api/track',
    {
      bodyLimit: TRACK_BODY_LIMIT,
      config: {
        doc: {
          summary: 'Track an event',
          description:
            'The body may be JSON or the same JSON as `text/plain` (beacons), at most 64 KB. Without an API ' +
            "key the request's Origin, Referer or `hostname` must be the site's domain (or a subdomain) and bots " +
            "are dropped when the site blocks them; the body's `ip_address` and `user_agent` are read only with an " +
            "API key (without one, the connection's address and the User-Agent header count). Answers 200 only " +
            'once the event is committed.',
          tag: 'Tracking',
          access: 'public',
          who: "an API key is optional (server-side tracking); its user must be in the site's organization",
          security: [{}, { apiKey: [] }],
          body: trackPayloadSchema,
          bodyMediaTypes: ['application/json', 'text/plain'],
          responses: {
            200: json('Recorded, or excluded (`tracked:false`, nothing stored)', trackResponse),
            400: 'Invalid payload (`details.fieldErrors` names the fields)',
            401: 'Invalid API key',
            403: 'Access denied (key user not a member), domain not allowed, bot detected, or over the limit',
            404: 'Site not found',
            413: 'Body over 64 KB',
            429: 'More than the per-key limit (500 per 10 minutes by default); see `Retry-After`',
            503: 'Events store unavailable; nothing acknowledged',
          },
        },
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
 * is readable from any origin (it holds nothing secret).
 */
export async function trackPreflightRoutes(app: FastifyInstance) {
  publicPostPreflight(app, '/api/track', 'the tracking endpoint')
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
