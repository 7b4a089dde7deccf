/**
 * Registers a route from its endpoint contract (`@pathlight/protocol` `contracts/`): method, path, the
 * OpenAPI doc and the key use come from the contract, and the handler gets the request parsed by the
 * contract's schemas and typed by them; its return value is typed by the contract's success answer
 * and sent with that status.
 *
 * The schemas run here, not in Fastify's validation phase: that phase comes before the scope's
 * preHandler (which resolves the caller), and every route answers 401, 403 and 404 before a 400. So a
 * route whose access check needs its path parameters (the site, the goal) gives `resolve`, which gets
 * the parameters and the credentials and runs before the query and the body are parsed; `handle` then
 * gets what it resolved with the parsed input. A `rawBody` contract's handler gets the body as the
 * content-type parser handed it over and validates it itself. Path parameters are text and cannot fail but by being
 * absent. A failure is the service's usual 400: `Invalid <parameter>: <problem>` for the path and the
 * query (`invalidParameters`), `Invalid <bodySubject>: <field>: <problem>` for the body
 * (`invalidBody`), with `details.fieldErrors`.
 *
 * In a scope that applies saved segments (`segment-query.ts`), a contract whose query takes `segment`
 * gets its segment here, once `resolve` has admitted the caller to the site: `segment` is parsed and
 * the segment found first (its 400 and 404), then the other parameters, and the handler's `query`
 * holds the segment's filters after the request's own in its parsed `filters`. This is the one place
 * a segment joins a request, for every report route, the report batch and every v1 read.
 */
import {
  type Access,
  type Answer,
  type BodyOf,
  type EndpointSpec,
  openApiRegistry,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
} from '@pathlight/protocol'
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { parseParams } from '../query/params.js'
import { badRequest, unauthorized } from '../shared/errors.js'
import { fieldPath, invalidBody } from '../shared/invalid-body.js'
import type { Caller } from './caller.js'
import { empty, json, media, type RouteDoc, type Tag, tags } from './openapi/route-doc.js'
import { readerOf } from './reader.js'
import { namedSegment, segmentedQuery, segmentQuerySchemas } from './segment-query.js'

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

/** What `resolve` gets: the path parameters and the credentials, nothing parsed from the query or body. */
export interface ResolveInput<E extends EndpointSpec> {
  params: ParamsOf<E>
  caller: CallerOf<E>
  /** The analytics credentials (`siteForReader`): the caller's user id and the private link key. */
  reader: { userId?: string; privateKey?: string }
  request: FastifyRequest
}

/** What a handler gets: `resolve`'s answer as `resolved` (undefined without one) and the parsed input. */
export interface RouteInput<E extends EndpointSpec, R = undefined> extends ResolveInput<E> {
  query: QueryOf<E>
  body: BodyOf<E>
  resolved: R
  reply: FastifyReply
}

/**
 * A route's handler: the contract's success answer, or an AppError thrown; for a `raw` contract, the
 * reply it answered through.
 */
export type RouteHandler<E extends EndpointSpec, R = undefined> = (
  input: RouteInput<E, R>,
) => Promise<E extends { raw: true } ? FastifyReply : ResponseOf<E>>

/** A handler with an access step: `resolve` (401, 403, 404 answer there), then `handle`. */
export interface ResolvingHandler<E extends EndpointSpec, R> {
  resolve: (input: ResolveInput<E>) => Promise<R>
  handle: RouteHandler<E, R>
}

/**
 * What a route adds to its contract's registration: Fastify's limit on the body's bytes, and route
 * config of plugins (`rateLimit`).
 */
export interface RouteOptions {
  bodyLimit?: number
  config?: Omit<FastifyContextConfig, 'doc' | 'contract' | 'keyUse'>
}

/**
 * Register `contract`'s route on `app` (within the scope that resolves callers). Without a caller,
 * a route whose access level needs one answers 401 before anything else.
 * @throws Error at registration when the contract names an unknown tag or has no success answer
 */
export function route<const E extends EndpointSpec, R = undefined>(
  app: FastifyInstance,
  contract: E,
  handler: RouteHandler<NoInfer<E>> | ResolvingHandler<NoInfer<E>, R>,
  options: RouteOptions = {},
): void {
  const status = successStatus(contract)
  const { resolve, handle } =
    typeof handler === 'function'
      ? { resolve: undefined, handle: handler as unknown as RouteHandler<E, R> }
      : (handler as unknown as ResolvingHandler<E, R>)
  const segmentsDb = app.segmentsDb
  const segmented = segmentsDb ? segmentQuerySchemas(contract.query) : undefined
  if (segmented && (!resolve || !contract.params || !('siteId' in contract.params.shape)))
    throw new Error(
      `${contract.method} ${contract.path}: segment needs a site in the path and its access step`,
    )
  app.route({
    method: contract.method,
    url: contract.path,
    ...(options.bodyLimit !== undefined && { bodyLimit: options.bodyLimit }),
    config: {
      ...options.config,
      doc: routeDoc(contract),
      contract,
      ...(contract.keyUse && { keyUse: contract.keyUse }),
    },
    handler: async (request, reply) => {
      if (!request.caller && !callerOptional.has(contract.access)) throw unauthorized()
      const params = (contract.params ? parseParams(contract.params, request.params) : {}) as ParamsOf<E>
      const caller = request.caller as CallerOf<E>
      const reader = readerOf(request)
      const resolved = (resolve ? await resolve({ params, caller, reader, request }) : undefined) as R
      const segment =
        segmented && segmentsDb
          ? await namedSegment(
              segmentsDb,
              segmented,
              request.query,
              (params as { siteId?: unknown }).siteId,
              reader.userId ?? null,
            )
          : undefined
      const answer = async () => {
        const query = (
          segmented && segment
            ? segmentedQuery(segmented, request.query, segment)
            : contract.query
              ? parseParams(contract.query, request.query)
              : {}
        ) as QueryOf<E>
        const body = (
          contract.rawBody ? request.body : contract.body ? parseBody(contract, request.body) : undefined
        ) as BodyOf<E>
        // The handler's input is built as a literal: spreading the access step's object into it cost
        // microseconds per request (V8's object-spread slow path), on every route.
        return handle({ params, caller, reader, request, query, body, resolved, reply })
      }
      // A site's route, its access granted: its reads count as the site's organization's.
      const siteId = resolve ? (params as { siteId?: unknown }).siteId : undefined
      const tenantReads = request.server.tenantReads
      const result =
        siteId !== undefined && tenantReads
          ? await tenantReads.run(request, reply, siteId, answer)
          : await answer()
      if (contract.raw) return result
      reply.code(status)
      return result
    },
  })
}

/**
 * The body parsed by the contract's schema; an absent body parses as `{}` (so that its required
 * fields are named). @throws AppError 400 naming the first field, unknown fields first (they explain
 * the others: a config of the other goal type), by its dotted or indexed path (`bodyFieldNames`); with
 * `bodyFieldsInDetails`, `Invalid <bodySubject>`
 * and zod's flattened errors (`fieldErrors` by top-level field, `formErrors`) as the details
 */
export function parseBody(contract: EndpointSpec, body: unknown): unknown {
  const parsed = (contract.body as z.ZodType).safeParse(body ?? {})
  if (parsed.success) return parsed.data
  const issues = [...parsed.error.issues]
    .sort((a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'))
    .map((issue) =>
      contract.bodyFieldNames === 'indexed' && issue.path.length > 0
        ? { ...issue, path: [fieldPath(issue.path)] }
        : issue,
    )
  if (contract.bodyFieldsInDetails)
    throw badRequest(`Invalid ${contract.bodySubject ?? 'body'}`, z.flattenError(parsed.error))
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
  const params = paramDocs(contract)
  const responses: RouteDoc['responses'] = {}
  for (const [status, answer] of Object.entries(contract.responses) as [string, Answer | undefined][]) {
    if (answer === undefined) continue
    responses[Number(status)] =
      typeof answer === 'string'
        ? answer
        : answer.schema
          ? json(answer.description, answer.schema)
          : answer.media
            ? media(answer.description, ...answer.media)
            : empty(answer.description)
  }
  return {
    summary: contract.summary,
    ...(contract.description !== undefined && { description: contract.description }),
    tag: contract.tag as Tag,
    access: contract.access,
    ...(contract.who !== undefined && { who: contract.who }),
    ...(params && { params }),
    ...(contract.query && { query: contract.query }),
    ...(contract.body && { body: contract.body }),
    ...(contract.bodyMediaTypes && { bodyMediaTypes: [...contract.bodyMediaTypes] }),
    ...(contract.security && {
      security: contract.security.map((requirement) =>
        Object.fromEntries(Object.entries(requirement).map(([name, scopes]) => [name, [...scopes]])),
      ),
    }),
    responses,
  }
}

/**
 * The descriptions of the contract's path parameters documented on their schema (`doc()`), for the
 * parameters the document does not describe alike on every route (`id`); undefined when none is.
 */
function paramDocs(contract: EndpointSpec): Record<string, string> | undefined {
  const described = Object.entries(contract.params?.shape ?? {}).flatMap(([name, schema]) => {
    const description = openApiRegistry.get(schema as z.ZodType)?.description
    return description === undefined ? [] : [[name, description] as const]
  })
  return described.length > 0 ? Object.fromEntries(described) : undefined
}
