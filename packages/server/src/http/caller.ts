/**
 * Who is calling: a bearer API key (`Authorization: Bearer pl_...`) or a Better Auth session cookie.
 * `requireCaller` is the preHandler of the authenticated scope; routes read `request.caller`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ApiKeys } from '../auth/api-keys.js'
import type { Auth } from '../auth/better-auth.js'
import { unauthorized } from '../shared/errors.js'

export interface Caller {
  userId: string
  via: 'api_key' | 'session'
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null
  }
}

/** Resolve the caller; null when the request carries no valid credentials. @throws 401 for a bad key */
export async function resolveCaller(
  request: FastifyRequest,
  auth: Auth,
  apiKeys: ApiKeys,
): Promise<Caller | null> {
  const header = request.headers.authorization
  if (header) {
    const match = /^Bearer\s+(\S+)$/i.exec(header)
    const key = match?.[1] ? await apiKeys.verify(match[1]) : null
    if (!key) throw unauthorized('Invalid API key')
    return { userId: key.userId, via: 'api_key' }
  }
  if (!request.headers.cookie) return null
  const session = await auth.api.getSession({ headers: toHeaders(request) })
  return session ? { userId: session.user.id, via: 'session' } : null
}

/** A preHandler that answers 401 unless the request has a caller. */
export function requireCaller(auth: Auth, apiKeys: ApiKeys) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    request.caller = await resolveCaller(request, auth, apiKeys)
    if (!request.caller) throw unauthorized()
  }
}

/** Fastify's incoming headers as a WHATWG Headers object (for Better Auth). */
export function toHeaders(request: FastifyRequest): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const v of value) headers.append(name, v)
    else headers.set(name, value)
  }
  return headers
}
