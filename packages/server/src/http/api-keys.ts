/**
 * Routes: the caller's API keys (create, list, delete), registered from their contracts
 * (`@pathlight/protocol` `contracts/account.ts`). Authenticated scope; keys are per user.
 */
import { createApiKeyEndpoint, deleteApiKeyEndpoint, listApiKeysEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import type { ApiKeys } from '../auth/api-keys.js'
import { route } from './route.js'
import { wholeList } from './whole-list.js'

/** POST/GET `/api/user/api-keys`, DELETE `/api/user/api-keys/{id}`. */
export async function apiKeyRoutes(app: FastifyInstance, { apiKeys }: { apiKeys: ApiKeys }) {
  route(app, createApiKeyEndpoint, async ({ body, caller }) => ({
    success: true as const,
    data: await apiKeys.create(caller.userId, body),
  }))

  route(app, listApiKeysEndpoint, async ({ caller }) => wholeList(await apiKeys.list(caller.userId)))

  route(app, deleteApiKeyEndpoint, async ({ params, caller }) => {
    await apiKeys.remove(caller.userId, params.id)
    return { success: true as const }
  })
}
