/**
 * Who is calling: a bearer API key (`Authorization: Bearer pl_...`) or a Better Auth session cookie.
 * `requireCaller` is the preHandler of the authenticated scope, `optionalCaller` (reader.ts) that of the
 * analytics scope; routes read `request.caller`.
 *
 * Two rules apply here, to every route of those scopes:
 * - a key may do only what its scope allows (`auth/key-scope.ts`): GET reads, other methods change
 *   something (a route may declare `config: { keyUse: 'read' }` for a POST that only reads);
 * - a state-changing request (POST, PUT, PATCH, DELETE) authenticated by the session cookie must come
 *   from a trusted page origin (`auth/origin-policy.ts`), else 403: the service's own CSRF defence,
 *   beside the cookie's SameSite=Lax. Requests with an API key are not affected (a browser cannot
 *   attach one cross-site without a CORS preflight, which these routes never allow).
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ApiKeys } from '../auth/api-keys.js'
import { bearerToken } from '../auth/bearer-token.js'
import { type Auth, CLIENT_IP_HEADER } from '../auth/better-auth.js'
import { type ApiKeyScope, assertScopeAllows, type KeyUse } from '../auth/key-scope.js'
import { isStateChanging, type OriginPolicy } from '../auth/origin-policy.js'
import { unauthorized } from '../shared/errors.js'

export interface Caller {
  userId: string
  via: 'api_key' | 'session'
  /** The key's scope; `full` for a session. */
  scope: ApiKeyScope
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null
  }
  interface FastifyContextConfig {
    /** What an API key does on this route, when not what its method says (a POST that only reads). */
    keyUse?: KeyUse
  }
}

/** What resolving a caller needs. */
export interface CallerDeps {
  auth: Auth
  apiKeys: ApiKeys
  origins: OriginPolicy
}

/**
 * Resolve the caller and apply the key-scope and origin rules.
 * @returns null when the request carries no valid credentials
 * @throws AppError 401 for a bad or expired key, 403 for a key used beyond its scope or a cross-site
 * cookie request
 */
export async function resolveCaller(request: FastifyRequest, deps: CallerDeps): Promise<Caller | null> {
  const header = request.headers.authorization
  if (header) {
    const token = bearerToken(header)
    const key = token ? await deps.apiKeys.verify(token) : null
    if (!key) throw unauthorized('Invalid API key')
    const use = request.routeOptions.config.keyUse ?? (isStateChanging(request.method) ? 'write' : 'read')
    assertScopeAllows(key.scope, use)
    return { userId: key.userId, via: 'api_key', scope: key.scope }
  }
  if (!request.headers.cookie) return null
  const session = await deps.auth.api.getSession({ headers: toHeaders(request) })
  if (!session) return null
  if (isStateChanging(request.method)) {
    deps.origins.assertTrusted({
      origin: request.headers.origin,
      referer: request.headers.referer,
      host: request.headers.host,
    })
  }
  return { userId: session.user.id, via: 'session', scope: 'full' }
}

/** A preHandler that answers 401 unless the request has a caller. */
export function requireCaller(deps: CallerDeps) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    request.caller = await resolveCaller(request, deps)
    if (!request.caller) throw unauthorized()
  }
}

/**
 * Fastify's incoming headers as a WHATWG Headers object (for Better Auth), with the client address in
 * `CLIENT_IP_HEADER` (whatever the client sent under that name is replaced).
 */
export function toHeaders(request: FastifyRequest): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const v of value) headers.append(name, v)
    else headers.set(name, value)
  }
  headers.set(CLIENT_IP_HEADER, request.ip)
  return headers
}
