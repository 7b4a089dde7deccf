/** Routes: the caller's API keys (create, list, delete). Authenticated scope; keys are per user. */
import type { FastifyInstance } from 'fastify'
import type { ApiKeys } from '../auth/api-keys.js'
import { callerOf } from './caller-of.js'

export async function apiKeyRoutes(app: FastifyInstance, { apiKeys }: { apiKeys: ApiKeys }) {
  app.post('/api/user/api-keys', async (request, reply) => {
    const created = await apiKeys.create(callerOf(request).userId, request.body)
    return reply.code(201).send({ success: true, data: created })
  })

  app.get('/api/user/api-keys', async (request) => {
    return { success: true, data: await apiKeys.list(callerOf(request).userId) }
  })

  app.delete<{ Params: { id: string } }>('/api/user/api-keys/:id', async (request) => {
    await apiKeys.remove(callerOf(request).userId, request.params.id)
    return { success: true }
  })
}
