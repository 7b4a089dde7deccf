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
import { errorBody } from '../shared/errors.js'
import { parseSiteId } from '../sites/sites.js'
import { publicPostPreflight } from './public-post-preflight.js'
import { rateLimitError } from './rate-limit-error.js'
import { keyBucketOf } from './rate-limit-key.js'
import { route } from './route.js'
import { type TrackCredential, trackCredentialOf, withoutApiKey } from './track-credential.js'
import { isSiteOrigin, setTrackingCors } from './tracking-cors.js'

export const TRACK_BODY_LIMIT = 64 * 1024

export interface TrackRouteOptions {
  ingest: Ingest
  apiKeys: Pick<ApiKeys, 'verify'>
  keyLimit: { max: number; windowMs: number }
  redis?: Redis
  /** Whether an Origin is some site's (credentialed preflights); default: none is. */
  isSiteOrigin?: (origin: string | undefined) => Promise<boolean>
}

/** The parsed body and key of a request, worked out once (the rate limit and the handler both ask). */
const credentials = new WeakMap<FastifyRequest, { body: unknown; credential: TrackCredential }>()
function credentialOf(request: FastifyRequest) {
  let known = credentials.get(request)
  if (!known) {
    const body = parseBody(request.body)
    known = { body, credential: trackCredentialOf(request.headers.authorization, body) }
    credentials.set(request, known)
  }
  return known
}
const authorizationOf = (request: FastifyRequest) => {
  const { credential } = credentialOf(request)
  return credential.ok ? credential.authorization : undefined
}

export async function trackRoutes(
  app: FastifyInstance,
  { ingest, apiKeys, keyLimit, redis, isSiteOrigin: siteOrigin }: TrackRouteOptions,
) {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: TRACK_BODY_LIMIT }, (_request, body, done) =>
    done(null, body),
  )

  await app.register(trackPreflightRoutes, { isSiteOrigin: siteOrigin })
  await app.register(rateLimit, {
    global: false,
    // After the body is read: a key may come in the body (`api_key`) as well as in the header.
    hook: 'preHandler',
    ...(redis ? { redis, nameSpace: 'pl:rl:track:' } : {}),
  })

  route(
    app,
    trackEndpoint,
    // The body is handed over as received: the pipeline parses it once (`ingest.accept`).
    async ({ request, reply }) => {
      const { body, credential } = credentialOf(request)
      const origin = request.headers.origin
      setTrackingCors(reply, origin, await isOriginOfSite(ingest, body, origin))
      if (!credential.ok) {
        return reply
          .code(400)
          .send(
            errorBody('Invalid payload', { fieldErrors: { api_key: [credential.message] }, formErrors: [] }),
          )
      }
      const result = await ingest.accept({
        body: withoutApiKey(body),
        authorization: credential.authorization,
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
          keyGenerator: (request: FastifyRequest) => keyBucketOf(authorizationOf(request)) ?? '',
          // Keyless requests are not limited here; neither are unknown keys, so that the pipeline answers
          // them 401 (a wrong key must read as a wrong key, not as a rate limit) and they get no bucket.
          allowList: async (request: FastifyRequest) => {
            const token = bearerToken(authorizationOf(request))
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
 * is readable from any origin (it holds nothing secret); a site's own Origin is echoed with credentials
 * allowed, for beacons (see `tracking-cors.ts`).
 */
export async function trackPreflightRoutes(
  app: FastifyInstance,
  options: { isSiteOrigin?: (origin: string | undefined) => Promise<boolean> } = {},
) {
  publicPostPreflight(app, trackPreflightEndpoint, options.isSiteOrigin)
}

/** Whether `origin` is on the domain of the site the body names (the site lookup is cached). */
async function isOriginOfSite(ingest: Ingest, body: unknown, origin: string | undefined): Promise<boolean> {
  if (!origin || body === null || typeof body !== 'object') return false
  const siteId = parseSiteId((body as { site_id?: unknown }).site_id)
  const site = siteId === null ? null : await ingest.deps.sites.get(siteId)
  return site !== null && isSiteOrigin(origin, site.domain)
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
