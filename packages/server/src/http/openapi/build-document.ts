/**
 * Builds the OpenAPI 3.1 document of the service from its registered routes and the doc each declares
 * where it is registered (`config.doc`, collected in `app.routeList`): paths
 * (Fastify's `:param` becomes `{param}`, a trailing `*` becomes `{path}`), parameters, request bodies
 * and responses converted from zod (JSON Schema 2020-12), the shared shapes as `components.schemas`,
 * the security schemes, and the usual error answers each access level implies.
 */
import fs from 'node:fs'
import path from 'node:path'
import { errorResponse } from '@pathlight/protocol'
import type { RouteInfo } from '../../app.js'
import { SERVER_ROOT } from '../../shared/server-root.js'
import { accessRules, securitySchemes } from './access-rules.js'
import { type ResponseDoc, type RouteDoc, type Status, tags } from './route-doc.js'
import { type JsonSchema, toJsonSchema } from './to-json-schema.js'

/** The document, typed as far as the reference page and the tests read it. */
export interface OpenApiDocument {
  openapi: string
  info: { title: string; version: string; description: string } & JsonSchema
  tags: { name: string; description: string }[]
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> }
  [key: string]: unknown
}

/** One operation of the document. `x-route` is the route's key, `x-who` who may call it. */
export interface Operation {
  operationId: string
  summary: string
  description?: string
  tags: string[]
  'x-route': string
  'x-who': string
  security: Record<string, string[]>[]
  parameters: Parameter[]
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> }
  responses: Record<string, { description: string; content?: Record<string, { schema?: JsonSchema }> }>
}

export interface Parameter {
  name: string
  in: 'path' | 'query'
  required: boolean
  description?: string
  schema: JsonSchema
}

/** Path parameters every route names alike. `id` differs by route: entries describe it. */
const pathParameters: Record<string, { description?: string; schema: JsonSchema }> = {
  siteId: { description: 'The numeric site id', schema: { type: 'integer', minimum: 1 } },
  organizationId: { description: 'The organization id', schema: { type: 'string' } },
  userId: { description: "The member's user id", schema: { type: 'string' } },
  goalId: { description: 'The numeric goal id', schema: { type: 'integer', minimum: 1 } },
  deliveryId: { description: 'The delivery id', schema: { type: 'string' } },
  experimentId: { description: 'The numeric experiment id', schema: { type: 'integer', minimum: 1 } },
  funnelId: { description: 'The numeric funnel id', schema: { type: 'integer', minimum: 1 } },
  id: { schema: { type: 'string' } },
  path: { description: 'The rest of the path (may hold `/`)', schema: { type: 'string' } },
}

const defaultError = 'Any other error: 413 body too large, 415 unsupported content type, 5xx server side'
const invalidInput =
  'Invalid body or query parameter: `error` names it, `details.fieldErrors` lists the problems'

/** `'/api/sites/:siteId'` -> `'/api/sites/{siteId}'`; a trailing `*` -> `{path}`. */
export function toOpenApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{path}')
}

/** The key of a route: `'GET /api/sites/:siteId'`. */
export const routeKey = (route: RouteInfo): string => `${route.method} ${route.url}`

/**
 * Build the document of these routes (an app's `routeList`).
 * @throws Error when a route has no doc, a doc names a path parameter without a description, or two
 *   conversions disagree on a component
 */
export function buildOpenApiDocument(routes: readonly RouteInfo[]): OpenApiDocument {
  const components: Record<string, JsonSchema> = {}
  const convert = (schema: Parameters<typeof toJsonSchema>[0], io: 'input' | 'output') => {
    const converted = toJsonSchema(schema, io)
    for (const [id, definition] of Object.entries(converted.components)) {
      const known = components[id]
      if (known && JSON.stringify(known) !== JSON.stringify(definition)) {
        throw new Error(`component ${id} converts differently in two places`)
      }
      components[id] = definition
    }
    return converted.schema
  }
  convert(errorResponse, 'output')

  const paths: Record<string, Record<string, Operation>> = {}
  for (const route of routes) {
    const key = routeKey(route)
    if (!route.doc) throw new Error(`${key} has no doc: declare config.doc where it is registered`)
    const path = toOpenApiPath(route.url)
    paths[path] ??= {}
    paths[path][route.method.toLowerCase()] = operation(key, route.method, route.url, route.doc, convert)
  }

  const usedTags = new Set(Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((op) => op.tags)))
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'Pathlight API',
      version: serverVersion(),
      summary: 'Self-hostable web analytics',
      description: infoDescription,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    tags: Object.entries(tags)
      .filter(([name]) => usedTags.has(name))
      .map(([name, description]) => ({ name, description })),
    paths,
    components: { schemas: sortKeys(components), securitySchemes: { ...securitySchemes } },
  }
}

function operation(
  key: string,
  method: string,
  url: string,
  entry: RouteDoc,
  convert: (schema: Parameters<typeof toJsonSchema>[0], io: 'input' | 'output') => JsonSchema,
): Operation {
  const rule = accessRules[entry.access]
  const who = entry.who ? `${rule.label}; ${entry.who}` : rule.label
  const parameters: Parameter[] = pathNames(url).map((name) => {
    const known = pathParameters[name]
    const description = entry.params?.[name] ?? known?.description
    if (!description) throw new Error(`${key}: describe the path parameter ${name} (params.${name})`)
    return { name, in: 'path', required: true, description, schema: known?.schema ?? { type: 'string' } }
  })
  if (entry.query) parameters.push(...queryParameters(convert(entry.query, 'input')))

  const responses: Operation['responses'] = {}
  const add = (status: Status, response: ResponseDoc | string) => {
    responses[String(status)] ??=
      typeof response === 'string'
        ? {
            description: response,
            content: { 'application/json': { schema: convert(errorResponse, 'output') } },
          }
        : {
            description: response.description,
            ...(response.content && {
              content: Object.fromEntries(
                Object.entries(response.content).map(([type, schema]) => [
                  type,
                  schema ? { schema: convert(schema, 'output') } : {},
                ]),
              ),
            }),
          }
  }
  for (const [status, response] of Object.entries(entry.responses)) {
    if (response) add(status === 'default' ? status : Number(status), response)
  }
  if (entry.body || entry.query) add(400, invalidInput)
  for (const [status, description] of Object.entries(rule.errors)) add(Number(status), description)
  add('default', defaultError)

  return {
    operationId: operationId(method, url),
    summary: entry.summary,
    description: [`**Who:** ${who}.`, entry.description].filter(Boolean).join('\n\n'),
    tags: [entry.tag],
    'x-route': key,
    'x-who': who,
    security: entry.security ?? [...rule.security],
    parameters,
    ...(entry.body && {
      requestBody: {
        required: true,
        content: Object.fromEntries(
          (entry.bodyMediaTypes ?? ['application/json']).map((type) => [
            type,
            { schema: convert(entry.body as NonNullable<RouteDoc['body']>, 'input') },
          ]),
        ),
      },
    }),
    responses: sortKeys(responses),
  }
}

/** The `:name` parameters of a Fastify URL, and `path` for a trailing `*`. */
function pathNames(url: string): string[] {
  const names = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] ?? '')
  return url.endsWith('*') ? [...names, 'path'] : names
}

/** An object schema's properties as query parameters (description moved to the parameter). */
function queryParameters(schema: JsonSchema): Parameter[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
  const required = new Set((schema.required ?? []) as string[])
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property
    return {
      name,
      in: 'query',
      required: required.has(name),
      ...(typeof description === 'string' && { description }),
      schema: rest,
    }
  })
}

/** `GET /api/sites/:siteId/goals` -> `getSitesSiteIdGoals`; `GET /*` -> `getAny`. */
function operationId(method: string, url: string): string {
  const words = url
    .replace(/^\/api(?=\/|$)/, '')
    .replace(/\*/g, 'any')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
  return method.toLowerCase() + words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join('')
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)))
}

let version: string | undefined
/** The server package's version (package.json), read once. */
export function serverVersion(): string {
  if (version === undefined) {
    const file = path.join(SERVER_ROOT, 'package.json')
    version = String((JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: unknown }).version ?? '0.0.0')
  }
  return version
}

const infoDescription = `Pathlight is self-hostable web analytics: a tracking endpoint with enrichment (IP \
geolocation, user agents, bot filtering, sessions), sites and their configuration, goals, error tracking, \
webhooks, alerts, API keys and roles. This document is generated from the zod schemas the routes validate \
with; the test suite validates every response against it.

**Authentication.** Every management route accepts the session cookie (\`POST /api/auth/sign-in/email\`) or \
\`Authorization: Bearer <API key>\`; a key acts with its user's role in each organization (member, admin, \
owner). Analytics reads also accept a site's private link key (\`X-Private-Key\`), and need nothing on a \
public site. The v1 API takes API keys only. Another organization's site or organization answers 404, never \
revealing that it exists.

**Errors** are \`{success:false, error, details?}\` (\`ErrorResponse\`) with 400, 401, 403, 404, 409, 413, \
429 as they mean; invalid input names the field or parameter in \`error\` and in \`details.fieldErrors\`.

**Analytics query parameters**: \`start_date\`, \`end_date\` (YYYY-MM-DD, both included, calendar days in \
\`time_zone\`; default the last 30 days), \`time_zone\` (IANA; default UTC), \`filters\` (a JSON array of \
\`{parameter, type, value}\`), \`page\` and \`limit\` (default 1 and 50, limit at most 1,000).

IP geolocation by DB-IP (https://db-ip.com), licensed under CC BY 4.0.`
