/**
 * The public REST API v1: GET routes under `/api/v1`, authenticated with an API key only
 * (`Authorization: Bearer`), limited to `limit.max` requests per `limit.windowMs` per key (spec: 50 per
 * minute) across all v1 routes, shared through Redis when configured. Every keyed response carries
 * `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (seconds until the window resets);
 * beyond the limit, 429 with `Retry-After`. Keys of scope `read` or `full` only (a `track` key: 403).
 * Responses use one envelope: `{data, meta}`.
 */
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Redis } from 'ioredis'
import type { ApiKeys } from '../../auth/api-keys.js'
import { bearerToken } from '../../auth/bearer-token.js'
import { assertScopeAllows } from '../../auth/key-scope.js'
import { unauthorized } from '../../shared/errors.js'
import { rateLimitError } from '../rate-limit-error.js'
import { keyBucketOf } from '../rate-limit-key.js'

export interface V1ScopeOptions {
  apiKeys: ApiKeys
  limit: { max: number; windowMs: number }
  redis?: Redis
}

const keyOf = (request: FastifyRequest): string | undefined => bearerToken(request.headers.authorization)

/**
 * Register the v1 guard (key authentication and rate limit) on a scope; routes registered in the same
 * scope afterwards are covered. Sets `request.caller` to the key's user.
 */
export async function registerV1Guard(app: FastifyInstance, { apiKeys, limit, redis }: V1ScopeOptions) {
  await app.register(rateLimit, {
    global: true,
    max: limit.max,
    timeWindow: limit.windowMs,
    ...(redis ? { redis, nameSpace: 'pl:rl:v1:' } : {}),
    keyGenerator: (request) => keyBucketOf(request.headers.authorization) ?? '',
    // Requests without a valid key are answered 401 by the guard below and use no bucket.
    allowList: async (request) => {
      const key = keyOf(request)
      return key === undefined || (await apiKeys.verify(key)) === null
    },
    errorResponseBuilder: () => rateLimitError(limit),
  })
  app.addHook('preHandler', async (request) => {
    const key = keyOf(request)
    const verified = key === undefined ? null : await apiKeys.verify(key)
    if (!verified) throw unauthorized('The v1 API needs an API key: Authorization: Bearer <key>')
    assertScopeAllows(verified.scope, 'read')
    request.caller = { userId: verified.userId, via: 'api_key', scope: verified.scope }
  })
}
