/** Routes: the caller's API keys (create, list, delete). Authenticated scope; keys are per user. */
import { apiKey, createdApiKey, successData, successList } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import type { ApiKeys } from '../auth/api-keys.js'
import { createApiKeyBody, MAX_API_KEYS_PER_USER } from '../auth/api-keys.js'
import { callerOf } from './caller-of.js'
import { deleted } from './openapi/doc-parts.js'
import { json } from './openapi/route-doc.js'
import { wholeList } from './whole-list.js'

export async function apiKeyRoutes(app: FastifyInstance, { apiKeys }: { apiKeys: ApiKeys }) {
  app.post(
    '/api/user/api-keys',
    {
      config: {
        doc: {
          summary: 'Create an API key',
          description:
            'The value is shown once; Pathlight stores its SHA-256. `scope` (default `full`) limits what the ' +
            'key may do: `track` only sends events (what a server-side client needs), `read` reads reports and ' +
            'the v1 API, `full` does everything its user may. `expiresAt` (optional, in the future) ends it. ' +
            `A user holds at most ${MAX_API_KEYS_PER_USER} keys.`,
          tag: 'API keys',
          access: 'signedIn',
          body: createApiKeyBody,
          responses: {
            201: json('Created', successData(createdApiKey)),
            409: `The user already holds ${MAX_API_KEYS_PER_USER} API keys (the most allowed): delete one first`,
          },
        },
      },
    },
    async (request, reply) => {
      const created = await apiKeys.create(callerOf(request).userId, request.body)
      return reply.code(201).send({ success: true, data: created })
    },
  )

  app.get(
    '/api/user/api-keys',
    {
      config: {
        doc: {
          summary: 'My API keys',
          tag: 'API keys',
          access: 'signedIn',
          responses: { 200: json('Oldest first (never the values)', successList(apiKey)) },
        },
      },
    },
    async (request) => {
      return wholeList(await apiKeys.list(callerOf(request).userId))
    },
  )

  app.delete<{ Params: { id: string } }>(
    '/api/user/api-keys/:id',
    {
      config: {
        doc: {
          summary: 'Delete one of my API keys',
          tag: 'API keys',
          access: 'signedIn',
          params: { id: 'The API key id' },
          responses: { 200: deleted, 404: 'No key of mine with that id' },
        },
      },
    },
    async (request) => {
      await apiKeys.remove(callerOf(request).userId, request.params.id)
      return { success: true }
    },
  )
}
