/**
 * Registers a route from its endpoint contract (`@pathlight/protocol` `contracts/`): method, path, the
 * OpenAPI doc and the key use come from the contract, and the handler gets the request parsed by the
 * contract's schemas and typed by them; its return value is typed by the contract's success answer
 * and sent with that status.
 *
 * The schemas run here, not in Fastify's validation phase: that phase comes before the scope's
 * preHandler (which resolves the caller), and every route answers 401, 403 and 404 before a 400. So
 * path parameters are parsed up front (text; they cannot fail but by being absent), while `query` and
 * `body` are parsed when the handler first reads them, after its access check. A failure is the
 * service's usual 400: `Invalid <parameter>: <problem>` for the path and query (`invalidParameters`),
 * `Invalid <bodySubject>: <field>: <problem>` for the body (`invalidBody`), with `details.fieldErrors`.
 */
import type { Access, Answer, BodyOf, EndpointSpec, ParamsOf, QueryOf, ResponseOf } from '@pathlight/protocol'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { parseParams } from '../query/params.js'
import { unauthorized } from '../shared/errors.js'
import { invalidBody } from '../shared/invalid-body.js'
import type { Caller } from './caller.js'
import { empty, json, type RouteDoc, type Tag, tags } from './openapi/route-doc.js'
import { readerOf } from './reader.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract the route was registered from (`route()`); absent on routes registered by hand. */
    contract?: EndpointSpec
  }
}

/** Access levels whose routes may run without a caller (the handler decides from its credentials). */
type CallerOptional = 'public' | 'reader' | 'metricsToken'
const callerOptional: ReadonlySet<Access> = new Set<CallerOptional>(['public', 'reader', 'metricsToken'])

/** The caller a handler gets: present (else 401 before it runs) unless the access level allows none. */
export type CallerOf<E extends EndpointSpec> = E['access'] extends CallerOptional ? Caller | null : Caller

/** What a handler gets. `query` and `body` are parsed on first read (400 naming the field). */
export interface RouteInput<E extends EndpointSpec> {
  params: ParamsOf<E>
  readonly query: QueryOf<E>
  readonly body: BodyOf<E>
  caller: CallerOf<E>
  /** The analytics credentials (`siteForReader`): the caller's user id and the private link key. */
  reader: { userId?: string; privateKey?: string }
  request: FastifyRequest
  reply: FastifyReply
}

/** A route's handler: the contract's success answer, or an AppError thrown. */
export type RouteHandler<E extends EndpointSpec> = (input: RouteInput<E>) => Promise<ResponseOf<E>>

/**
 * Register `contract`'s route on `app` (within the scope that resolves callers).
 * @throws Error at registration when the contract names an unknown tag or has no success answer
 */
export function route<const E extends EndpointSpec>(
  app: FastifyInstance,
  contract: E,
  handler: RouteHandler<NoInfer<E>>,
): void {
  const status = successStatus(contract)
  app.route({
    method: contract.method,
    url: contract.path,
    config: {
      doc: routeDoc(contract),
      contract,
      ...(contract.keyUse && { keyUse: contract.keyUse }),
    },
    handler: async (request, reply) => {
      if (!request.caller && !callerOptional.has(contract.access)) throw unauthorized()
      const input = routeInput(contract, request, reply)
      const answer = await handler(input)
      reply.code(status)
      return answer
    },
  })
}

function routeInput<E extends EndpointSpec>(
  contract: E,
  request: FastifyRequest,
  reply: FastifyReply,
): RouteInput<E> {
  const params = (contract.params ? parseParams(contract.params, request.params) : {}) as ParamsOf<E>
  let query: { value: QueryOf<E> } | undefined
  let body: { value: BodyOf<E> } | undefined
  return {
    params,
    get query() {
      query ??= {
        value: (contract.query ? parseParams(contract.query, request.query) : {}) as QueryOf<E>,
      }
      return query.value
    },
    get body() {
      body ??= { value: (contract.body ? parseBody(contract, request.body) : undefined) as BodyOf<E> }
      return body.value
    },
    caller: request.caller as CallerOf<E>,
    reader: readerOf(request),
    request,
    reply,
  }
}

/**
 * The body parsed by the contract's schema; an absent body parses as `{}` (so that its required
 * fields are named). @throws AppError 400 naming the first field, unknown fields first (they explain
 * the others: a config of the other goal type)
 */
export function parseBody(contract: EndpointSpec, body: unknown): unknown {
  const parsed = (contract.body as z.ZodType).safeParse(body ?? {})
  if (parsed.success) return parsed.data
  const issues = [...parsed.error.issues].sort(
    (a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'),
  )
  throw invalidBody(contract.bodySubject ?? 'body', issues)
}

/** The first of 200, 201, 202, 204 the contract answers. */
function successStatus(contract: EndpointSpec): number {
  const status = [200, 201, 202, 204].find((code) => contract.responses[code] !== undefined)
  if (status === undefined) throw new Error(`${contract.method} ${contract.path}: no success answer`)
  return status
}

/** The OpenAPI doc of a contract (`build-document.ts` reads it from the route's config). */
export function routeDoc(contract: EndpointSpec): RouteDoc {
  if (!(contract.tag in tags))
    throw new Error(`${contract.method} ${contract.path}: unknown tag ${contract.tag}`)
  const responses: RouteDoc['responses'] = {}
  for (const [status, answer] of Object.entries(contract.responses) as [string, Answer | undefined][]) {
    if (answer === undefined) continue
    responses[Number(status)] =
      typeof answer === 'string'
        ? answer
        : answer.schema
          ? json(answer.description, answer.schema)
          : empty(answer.description)
  }
  return {
    summary: contract.summary,
    ...(contract.description !== undefined && { description: contract.description }),
    tag: contract.tag as Tag,
    access: contract.access,
    ...(contract.who !== undefined && { who: contract.who }),
    ...(contract.query && { query: contract.query }),
    ...(contract.body && { body: contract.body }),
    responses,
  }
}
