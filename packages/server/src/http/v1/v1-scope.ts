/**
 * The public REST API v1: GET routes under `/api/v1`, authenticated with an API key only
 * (`Authorization: Bearer`), drawing on the key's one request budget (`http/key-budget.ts`: spec 50
 * per minute, shared with the dashboard's routes called with the key, and through Redis when
 * configured). Every keyed response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset` (seconds until the window resets); beyond the limit, 429 with `Retry-After`.
 * Keys of scope `read` or `full` only (a `track` key: 403). Responses use one envelope: `{data, meta}`.
 */
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify'
import type { ApiKeys } from '../../auth/api-keys.js'
import { bearerToken } from '../../auth/bearer-token.js'
import { assertScopeAllows } from '../../auth/key-scope.js'
import { unauthorized } from '../../shared/errors.js'

export interface V1ScopeOptions {
  apiKeys: ApiKeys
  /** The per-key budget (`createKeyBudget`) the v1 routes draw on. */
  budget: onRequestAsyncHookHandler
}

const keyOf = (request: FastifyRequest): string | undefined => bearerToken(request.headers.authorization)

/**
 * Register the v1 guard (the key budget and key authentication) on a scope; routes registered in the
 * same scope afterwards are covered. Sets `request.caller` to the key's user.
 */
export async function registerV1Guard(app: FastifyInstance, { apiKeys, budget }: V1ScopeOptions) {
  // Requests without a valid key are answered 401 by the guard below and use no bucket.
  app.addHook('onRequest', budget)
  app.addHook('preHandler', async (request) => {
    const key = keyOf(request)
    const verified = key === undefined ? null : await apiKeys.verify(key)
    if (!verified) throw unauthorized('The v1 API needs an API key: Authorization: Bearer <key>')
    assertScopeAllows(verified.scope, 'read')
    request.caller = { userId: verified.userId, via: 'api_key', scope: verified.scope }
  })
}
