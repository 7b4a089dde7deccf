/**
 * Mounts Better Auth at `/api/auth/*`: the Fastify request becomes a WHATWG Request, Better Auth's
 * Response is copied back (status, headers including Set-Cookie, body).
 */
import type { FastifyInstance } from 'fastify'
import type { Auth } from '../auth/better-auth.js'
import { toHeaders } from './caller.js'

export async function authRoutes(app: FastifyInstance, { auth, baseUrl }: { auth: Auth; baseUrl: string }) {
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    async handler(request, reply) {
      const url = new URL(request.url, baseUrl)
      const body =
        request.method === 'GET' || request.body === undefined ? undefined : JSON.stringify(request.body)
      const headers = toHeaders(request)
      if (body !== undefined) headers.set('content-type', 'application/json')
      const response = await auth.handler(new Request(url, { method: request.method, headers, body }))
      reply.code(response.status)
      for (const [name, value] of response.headers) {
        if (name.toLowerCase() !== 'set-cookie') reply.header(name, value)
      }
      const cookies = response.headers.getSetCookie()
      if (cookies.length > 0) reply.header('set-cookie', cookies)
      return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null)
    },
  })
}
