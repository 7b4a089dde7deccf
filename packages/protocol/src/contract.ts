/**
 * Endpoint contracts: the one declaration of an HTTP endpoint's wire. A contract names the method and
 * the Fastify-style path (`/api/sites/:siteId/goals`), the schemas of the path parameters, the query
 * string and the body, the answers by status, who may call it and what an API key does with it. The
 * server registers the route from it (`http/route.ts`: the schemas validate the request and type the
 * handler), the OpenAPI document is built from it, and the dashboard's `client()` is typed by it.
 *
 * This module holds no zod values (types only), so code that imports contracts for their method and
 * path alone pulls in nothing but the contracts' own modules.
 */
import type { z } from 'zod'
import type { FiltersJson } from './analytics-query.js'

/**
 * Who may call an endpoint, as the OpenAPI document states it (the server's `access-rules.ts` gives
 * each its label, security requirements and usual error answers): `public` anyone; `reader` a member
 * of the site's organization, its private link key, or anyone for a public site; `member`, `admin`,
 * `owner` a role in the organization; `signedIn` any caller; `session` the session cookie only;
 * `instanceOwner` the first account; `apiKey` an API key only; `metricsToken` the METRICS_TOKEN.
 */
export const accessLevels = [
  'public',
  'signedIn',
  'session',
  'member',
  'admin',
  'owner',
  'instanceOwner',
  'reader',
  'apiKey',
  'metricsToken',
] as const

/** One of `accessLevels`. */
export type Access = (typeof accessLevels)[number]

/**
 * What an API key does with an endpoint, checked against the key's scope: `read`, `write`, `track`
 * or `logs` (sending a server's access log).
 * Absent: what the method says (GET reads, anything else writes).
 */
export type KeyUse = 'track' | 'read' | 'write' | 'logs'

/** The HTTP methods contracts use. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS'

/**
 * One answer of an endpoint: its description and, for a JSON body, its schema (the output side is
 * what the server sends); for another body (a script, a page), its media types instead. Neither: no
 * body (a 304). A string is an error answer (`{success:false, error, details?}`).
 */
export type Answer = { description: string; schema?: z.ZodType; media?: readonly string[] } | string

/** Everything a contract declares. */
export interface EndpointSpec {
  /** The name it is registered under in `EndpointContracts` (from its address). */
  name?: string
  method: Method
  /** Fastify-style: `:name` segments are path parameters. */
  path: string
  /** One line for the reference. */
  summary: string
  /** Markdown; details beyond the summary. */
  description?: string
  /** The reference's section (a tag of the server's `route-doc.ts`). */
  tag: string
  access: Access
  /** A precision on `access` for the reader, e.g. "anyone may remove themselves". */
  who?: string
  /** What an API key does here, when not what the method says (a POST that only reads). */
  keyUse?: KeyUse
  /** The path parameters, as text (a malformed id is the handler's 404, not a 400). */
  params?: z.ZodObject
  /** The query string: parses its text (one value per name; numbers and lists from strings). */
  query?: z.ZodObject
  /** The JSON body; with `rawBody`, what the body holds, as the document shows it. */
  body?: z.ZodType
  /** Media types the body may come as; default JSON only. */
  bodyMediaTypes?: readonly string[]
  /**
   * The handler gets the body as the route's content-type parser hands it over (text, bytes or a
   * stream) and validates it itself, by `body` or a parser of the same wire (an upload read as it
   * streams in, a tracking body the ingest pipeline parses): `body` documents it, the route does not
   * parse it.
   */
  rawBody?: boolean
  /** What a body error names: `Invalid <bodySubject>: <field>: <problem>`; default `body`. */
  bodySubject?: string
  /**
   * Name the field in the details only: a body error's message is then `Invalid <bodySubject>` alone,
   * for the surfaces whose clients show `details.fieldErrors` beside each field.
   */
  bodyFieldsInDetails?: boolean
  /**
   * How a body error names a nested field: `variants.1.name` (`dotted`, the default) or
   * `reports[1].name` (`indexed`, for bodies whose clients read the path as a JavaScript expression).
   */
  bodyFieldNames?: 'dotted' | 'indexed'
  /**
   * Security requirements when they differ from the access level's, as OpenAPI states them
   * (alternatives; `{}` is "no credentials"): e.g. a public endpoint that also takes an API key.
   */
  security?: readonly Record<string, readonly string[]>[]
  /** The answers by status; the first 2xx one is what the handler returns. */
  responses: Partial<Record<number, Answer>>
  /**
   * The handler answers through the reply itself and returns it: for answers other than the success
   * schema's JSON with its status (a script with its encoding, a 304 on a matching ETag, a 503 health
   * report). Its input is parsed and its access checked as for any other endpoint.
   */
  raw?: boolean
}

/**
 * Declare an endpoint. Returns the spec as given, its literal types kept, so that handlers and clients
 * are typed from it.
 */
export function endpoint<const Spec extends EndpointSpec>(spec: Spec): Spec {
  return spec
}

type SuccessStatus = 200 | 201 | 202 | 204

/** The status the endpoint answers on success: the first of 200, 201, 202, 204 among its responses. */
export type SuccessStatusOf<E extends EndpointSpec> =
  Extract<SuccessStatus, keyof E['responses']> extends infer S ? ([S] extends [never] ? never : S) : never

/** The schema of the success answer's body, or `undefined` when it has none. */
type SuccessSchemaOf<E extends EndpointSpec> = E['responses'][SuccessStatusOf<E> &
  keyof E['responses']] extends {
  schema: infer S extends z.ZodType
}
  ? S
  : undefined

/** What a handler returns and a client receives on success (the answer's body; `undefined` without one). */
export type ResponseOf<E extends EndpointSpec> =
  SuccessSchemaOf<E> extends z.ZodType ? z.output<SuccessSchemaOf<E>> : undefined

type Parsed<S> = S extends z.ZodType ? z.output<S> : Record<string, never>

/** The handler's parsed path parameters. */
export type ParamsOf<E extends EndpointSpec> = Parsed<E['params']>
/** The handler's parsed query string. */
export type QueryOf<E extends EndpointSpec> = Parsed<E['query']>
/** The handler's parsed body (`undefined` for an endpoint without one; as received with `rawBody`). */
export type BodyOf<E extends EndpointSpec> = E extends { rawBody: true }
  ? unknown
  : E['body'] extends z.ZodType
    ? z.output<E['body']>
    : undefined

/**
 * A query-string value as a client gives it: text, a number or a boolean (sent as text); a list
 * parameter as its values (sent comma-separated) or as the text; JSON text (`filters`) as the text.
 */
type QueryValue<T> = T extends FiltersJson
  ? string
  : T extends string
    ? string
    : T extends number
      ? number | string
      : T extends boolean
        ? boolean | string
        : T extends readonly (infer U extends string)[]
          ? readonly U[] | string
          : T

/** What a client sends for an endpoint: path parameters, query parameters and body, where it has them. */
export type RequestOf<E extends EndpointSpec> = (E['params'] extends z.ZodType
  ? { params: { [K in keyof z.input<E['params']>]: string | number } }
  : { params?: undefined }) &
  (E['query'] extends z.ZodType
    ? { query?: { [K in keyof z.output<E['query']>]?: QueryValue<z.output<E['query']>[K]> | undefined } }
    : { query?: undefined }) &
  (E['body'] extends z.ZodType ? { body: z.input<E['body']> } : { body?: undefined })

/**
 * The URL path of a request: each `:name` of the contract's path replaced by its parameter,
 * URL-encoded. @throws Error when a parameter the path names is missing
 */
export function pathOf(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = params[name]
    if (value === undefined) throw new Error(`${path}: the parameter ${name} is missing`)
    return encodeURIComponent(String(value))
  })
}
