/**
 * One error mapper for every route: an `AppError` (or a Fastify client error such as a bad body or a
 * rate limit) becomes `{success:false, error, details?}` (`errorBody`) with its status, and so does an
 * events-store refusal `clientErrorOf` knows (a regex, a time zone, the query time bound); anything else
 * is logged and answered 500 without leaking internals.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { clientErrorOf } from '../query/run-report.js'
import { AppError, errorBody } from '../shared/errors.js'

export function errorHandler(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  // A store refusal that reached here without passing `runReport` is answered as `runReport` would.
  if (error instanceof AppError) return sendAppError(reply, error)
  const storeRefusal = clientErrorOf(error)
  if (storeRefusal) {
    request.log.warn({ err: error }, storeRefusal.message)
    return sendAppError(reply, storeRefusal)
  }
  const status = error.statusCode
  if (status !== undefined && status >= 400 && status < 500) {
    return reply.code(status).send(errorBody(clientMessage(error)))
  }
  request.log.error({ err: error }, 'unhandled error')
  return reply.code(500).send(errorBody('Internal server error'))
}

function sendAppError(reply: FastifyReply, error: AppError) {
  if (error.headers) reply.headers(error.headers)
  return reply.code(error.status).send(errorBody(error.message, error.details))
}

function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large'
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type'
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'Request body must be valid JSON'
    default:
      return error.message
  }
}
