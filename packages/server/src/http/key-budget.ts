/**
 * One request budget per API key for every API route a key may read: the v1 API, the dashboard's
 * routes under `/api/sites/*`, `/api/organizations/*`, `/api/user/*` and the report batch. At most
 * `limit.max` requests per `limit.windowMs` per key (spec: 50 per minute) across all of them, counted
 * in one bucket per key (in process, or in Redis under `pl:rl:v1:` and so shared by every node), so
 * calling the same reads through another route family does not get a key a second budget.
 *
 * Only requests with a valid API key count: requests without one (session cookies, private link keys,
 * anonymous reads of public sites) and unknown keys (answered 401 by the scope) use no bucket. Keyed
 * responses carry `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`; beyond the
 * budget, 429 with `Retry-After`. `POST /api/track` keeps its own, larger limit.
 */
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify'
import type { Redis } from 'ioredis'
import type { ApiKeys } from '../auth/api-keys.js'
import { bearerToken } from '../auth/bearer-token.js'
import { rateLimitError } from './rate-limit-error.js'
import { keyBucketOf } from './rate-limit-key.js'

export interface KeyBudgetOptions {
  apiKeys: Pick<ApiKeys, 'verify'>
  limit: { max: number; windowMs: number }
  redis?: Redis
}

/**
 * Create the budget: one `@fastify/rate-limit` instance (so one store) in a scope of its own.
 * @returns an onRequest hook; every scope it is added to draws on the same buckets
 */
export async function createKeyBudget(
  app: FastifyInstance,
  { apiKeys, limit, redis }: KeyBudgetOptions,
): Promise<onRequestAsyncHookHandler> {
  let hook: onRequestAsyncHookHandler | undefined
  await app.register(async (holder) => {
    await holder.register(rateLimit, {
      global: false,
      max: limit.max,
      timeWindow: limit.windowMs,
      ...(redis ? { redis, nameSpace: 'pl:rl:v1:' } : {}),
      keyGenerator: (request) => keyBucketOf(request.headers.authorization) ?? '',
      allowList: async (request) => {
        const token = bearerToken(request.headers.authorization)
        return token === undefined || (await apiKeys.verify(token)) === null
      },
      errorResponseBuilder: () => rateLimitError(limit),
    })
    // Without options the handler uses the plugin's own store: each call shares it.
    hook = holder.rateLimit() as unknown as onRequestAsyncHookHandler
  })
  if (!hook) throw new Error('the key budget was not created')
  return hook
}
