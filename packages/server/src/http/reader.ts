/**
 * The analytics scope's credentials: an optional caller (API key or session) and an optional private
 * link key (`X-Private-Key`). Read routes pass `readerOf(request)` to `siteForReader`; write routes in
 * the same scope use `callerOf(request)` (401 without a caller) and `siteForAdmin`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { type CallerDeps, resolveCaller } from './caller.js'

/** A preHandler that resolves the caller when credentials are present, and never requires them. */
export function optionalCaller(deps: CallerDeps) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    request.caller = await resolveCaller(request, deps)
  }
}

/** What `siteForReader` needs from a request. */
export function readerOf(request: FastifyRequest): { userId?: string; privateKey?: string } {
  const header = request.headers['x-private-key']
  const privateKey = typeof header === 'string' && header !== '' ? header : undefined
  return {
    ...(request.caller ? { userId: request.caller.userId } : {}),
    ...(privateKey ? { privateKey } : {}),
  }
}
