import type { FastifyRequest } from 'fastify'
import { unauthorized } from '../shared/errors.js'
import type { Caller } from './caller.js'

/** The authenticated caller of a request in the authenticated scope. @throws 401 when there is none */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthorized()
  return request.caller
}
