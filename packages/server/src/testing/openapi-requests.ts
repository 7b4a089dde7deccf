/**
 * Test support: requests for the operations of the OpenAPI document, valid or made hostile, for the
 * fuzzed-surface suite. An operation's valid request comes from its parameter and body schemas
 * (`exampleOf`: the smallest value each schema accepts) or from the caller, who knows real ids; a
 * `RequestPlan` then says what to make hostile: one field at a time (a path parameter, a query
 * parameter, any node of the body, a missing required property), so that validation past the first
 * field is reached, or everything at once. Plans are drawn by fast-check and rendered into
 * `app.inject()` options by `renderRequest`, once the valid path values are known (the caller may
 * create a fresh resource for each run of a destructive operation).
 */
import fc from 'fast-check'
import type { OpenApiDocument, Operation, Parameter } from '../http/openapi/build-document.js'
import type { JsonSchema } from '../http/openapi/to-json-schema.js'
import {
  badDates,
  badTimeZones,
  encodeHostile,
  type HostileJson,
  hostileFilters,
  hostileJson,
  hostilePathSegment,
  hostileText,
  RawJson,
  toJsonText,
} from './hostile-values.js'

/** One operation of the document. */
export interface OperationEntry {
  /** `'GET /api/sites/{siteId}'`: the method and the document's path. */
  key: string
  method: string
  /** The document's path template, `{name}` for each path parameter. */
  path: string
  operation: Operation
}

/** Every operation of the document, in document order. */
export function operationsOf(document: OpenApiDocument): OperationEntry[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      key: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path,
      operation,
    })),
  )
}

/** The schemas `$ref`s point to (`#/components/schemas/<id>`). */
export type Components = Record<string, JsonSchema>

const resolve = (schema: JsonSchema, components: Components): JsonSchema => {
  const ref = schema.$ref
  if (typeof ref !== 'string') return schema
  const target = components[ref.replace('#/components/schemas/', '')]
  if (!target) throw new Error(`unknown schema reference ${ref}`)
  return resolve(target, components)
}

const branchesOf = (schema: JsonSchema): JsonSchema[] =>
  [schema.anyOf, schema.oneOf, schema.allOf].flatMap((list) =>
    Array.isArray(list) ? (list as JsonSchema[]) : [],
  )

const exampleStrings = ['fuzz', 'fuzz@example.com', 'https://example.com/fuzz', '/fuzz', 'example.com', 'a']

/**
 * The smallest value a schema accepts, as far as its keywords say: `const`, the first of an `enum`,
 * the first branch of `anyOf`/`oneOf` that is not null, `minimum` (or 1), `minItems` items, required
 * properties only; strings are the first of a few samples that fit `pattern`, `format` and the length
 * bounds. Cross-field rules the schema cannot state (one control variant, unique names) are the
 * caller's: pass a real example to `requestPlan` where they matter.
 * @throws Error for a `$ref` to an unknown component
 */
export function exampleOf(schema: JsonSchema, components: Components = {}): unknown {
  const s = resolve(schema, components)
  if ('const' in s) return s.const
  if (Array.isArray(s.enum)) return s.enum[0]
  if ('default' in s) return s.default
  const branches = branchesOf(s)
  if (branches.length > 0) {
    const nonNull = branches.find((branch) => resolve(branch, components).type !== 'null') ?? branches[0]
    return exampleOf(nonNull ?? {}, components)
  }
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? s.type[0]) : s.type
  switch (type) {
    case 'null':
      return null
    case 'boolean':
      return true
    case 'integer':
    case 'number': {
      if (typeof s.minimum === 'number') return s.minimum
      if (typeof s.exclusiveMinimum === 'number') return Math.floor(s.exclusiveMinimum) + 1
      return typeof s.maximum === 'number' ? Math.min(1, s.maximum) : 1
    }
    case 'array': {
      const count = typeof s.minItems === 'number' ? s.minItems : 0
      return Array.from({ length: count }, () => exampleOf((s.items as JsonSchema) ?? {}, components))
    }
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, JsonSchema>
      const required = (s.required ?? []) as string[]
      return Object.fromEntries(required.map((name) => [name, exampleOf(properties[name] ?? {}, components)]))
    }
    default:
      return exampleString(s)
  }
}

function exampleString(s: JsonSchema): string {
  if (s.format === 'date') return '2026-01-15'
  if (s.format === 'date-time') return '2026-01-15T10:00:00.000Z'
  if (s.contentMediaType === 'application/json') return '[]'
  const min = typeof s.minLength === 'number' ? s.minLength : 0
  const max = typeof s.maxLength === 'number' ? s.maxLength : Number.POSITIVE_INFINITY
  const pattern = typeof s.pattern === 'string' ? new RegExp(s.pattern) : undefined
  const fits = (text: string) =>
    text.length >= min && text.length <= max && (pattern === undefined || pattern.test(text))
  const candidates =
    s.format === 'email'
      ? ['fuzz@example.com']
      : s.format === 'uri'
        ? ['https://example.com/fuzz']
        : exampleStrings
  return candidates.find(fits) ?? 'x'.repeat(Math.max(min, 1))
}

/** The valid request of an operation, apart from its path values (which `renderRequest` takes). */
export interface ValidRequest {
  /** Query parameters; default the required ones, from their schemas. */
  query: Record<string, string>
  /** The body, when the operation takes one; default `exampleOf` its schema. */
  body?: unknown
  /** Headers the valid request needs beyond credentials (e.g. an Origin for tracking). */
  headers?: Record<string, string>
}

/** A location in a JSON body: property names and array indexes from the root. */
export type Pointer = (string | number)[]

/** Marks a body property removed by a mutation. */
export const MISSING = Symbol('missing')

/** One hostile change to the valid request. */
export type Mutation =
  | { in: 'path'; name: string; segment: string }
  | { in: 'query'; name: string; values: string[] }
  | { in: 'body'; pointer: Pointer; value: HostileJson | typeof MISSING }
  | { in: 'payload'; payload: string; contentType: string | undefined }

/** What to make hostile in one request; no mutations is the valid request itself. */
export interface RequestPlan {
  mutations: Mutation[]
}

/** The valid request of an operation from its schemas alone (see `ValidRequest`). */
export function defaultValidRequest(entry: OperationEntry, components: Components = {}): ValidRequest {
  const query = Object.fromEntries(
    entry.operation.parameters
      .filter((parameter) => parameter.in === 'query' && parameter.required)
      .map((parameter) => [parameter.name, String(exampleOf(parameter.schema, components))]),
  )
  const schema = bodySchemaOf(entry.operation)
  return { query, ...(schema ? { body: exampleOf(schema, components) } : {}) }
}

/** The first media type and schema of an operation's body, if it takes one. */
export function bodySchemaOf(operation: Operation): JsonSchema | undefined {
  const [first] = Object.values(operation.requestBody?.content ?? {})
  return first?.schema
}

/**
 * Every node of a valid body a mutation may target, with the schema it has there: each property the
 * schema names (present or not, across `anyOf`/`oneOf` branches), each property present, each array
 * item and the position after the last; recursing into what is present.
 */
export function bodyTargets(schema: JsonSchema, value: unknown, components: Components = {}): Pointer[] {
  const out: Pointer[] = []
  const walk = (s: JsonSchema, v: unknown, at: Pointer) => {
    const resolved = resolve(s, components)
    const all = [resolved, ...branchesOf(resolved).map((branch) => resolve(branch, components))]
    if (Array.isArray(v)) {
      const items = all.map((x) => x.items).find((x): x is JsonSchema => typeof x === 'object' && x !== null)
      v.forEach((item, i) => {
        out.push([...at, i])
        walk(items ?? {}, item, [...at, i])
      })
      out.push([...at, v.length])
      return
    }
    if (v === null || typeof v !== 'object') return
    const properties: Record<string, JsonSchema> = {}
    for (const x of all) Object.assign(properties, (x.properties ?? {}) as Record<string, JsonSchema>)
    const record = v as Record<string, unknown>
    for (const name of new Set([...Object.keys(properties), ...Object.keys(record)])) {
      out.push([...at, name])
      if (name in record) walk(properties[name] ?? {}, record[name], [...at, name])
    }
    out.push([...at, 'fuzzUnknownProperty'])
  }
  walk(schema, value, [])
  return out
}

const contentTypes = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'application/json; charset=utf-16',
  'application/xml',
  undefined,
] as const

/** A whole body that is not what the operation takes: another type, malformed JSON, over 1 MB. */
const hostilePayload: fc.Arbitrary<Extract<Mutation, { in: 'payload' }>> = fc
  .record({
    payload: fc.oneof(
      { weight: 4, arbitrary: hostileJson.map(toJsonText) },
      {
        weight: 2,
        arbitrary: fc.constantFrom('', ' ', '{', '{"a":', '[1,]', "{'a':1}", 'a=1&b=2', '\u0000', '\uFEFF{}'),
      },
      { weight: 1, arbitrary: fc.constant(JSON.stringify({ padding: 'a'.repeat(1_100_000) })) },
    ),
    contentType: fc.oneof(
      { weight: 4, arbitrary: fc.constant('application/json') },
      fc.constantFrom(...contentTypes),
    ),
  })
  .map((x) => ({ in: 'payload' as const, ...x }))

/** A hostile value for a query parameter, suited to what it holds (dates, zones, filters JSON). */
function hostileQueryValues(parameter: Pick<Parameter, 'name' | 'schema'>): fc.Arbitrary<string[]> {
  const { name, schema } = parameter
  const suited =
    schema.contentMediaType === 'application/json'
      ? hostileFilters
      : schema.format === 'date'
        ? fc.constantFrom(...badDates)
        : /zone/i.test(name)
          ? fc.constantFrom(...badTimeZones)
          : hostileText
  const one = fc.oneof({ weight: 3, arbitrary: suited }, { weight: 2, arbitrary: hostileText })
  return fc.oneof(
    { weight: 5, arbitrary: one.map((value) => [value]) },
    { weight: 1, arbitrary: fc.array(one, { minLength: 2, maxLength: 3 }) },
  )
}

/** Query names an operation does not declare but that code might read anyway. */
const undeclaredQueryNames = ['__proto__', 'constructor', 'site_id', 'siteId', 'sort', 'order', 'format']

/**
 * Plans for one operation: the valid request (1 in 12), one hostile field in an otherwise valid request
 * (7 in 12), or everything hostile at once (4 in 12).
 * @param valid the operation's valid request (its body decides which body nodes are targeted)
 */
export function requestPlan(
  entry: OperationEntry,
  valid: ValidRequest,
  components: Components = {},
): fc.Arbitrary<RequestPlan> {
  const pathNames = entry.operation.parameters.filter((p) => p.in === 'path').map((p) => p.name)
  const queryParameters: Pick<Parameter, 'name' | 'schema'>[] = [
    ...entry.operation.parameters.filter((p) => p.in === 'query'),
    ...undeclaredQueryNames.map((name) => ({ name, schema: {} })),
  ]
  const schema = bodySchemaOf(entry.operation)
  const takesBody = entry.method !== 'GET'

  const pathMutation = (name: string) =>
    hostilePathSegment.map((segment): Mutation => ({ in: 'path', name, segment }))
  const queryMutation = (parameter: Pick<Parameter, 'name' | 'schema'>) =>
    hostileQueryValues(parameter).map((values): Mutation => ({ in: 'query', name: parameter.name, values }))
  const bodyMutations =
    schema && valid.body !== undefined
      ? bodyTargets(schema, valid.body, components).map((pointer) =>
          fc
            .oneof({ weight: 5, arbitrary: hostileJson }, fc.constant(MISSING))
            .map((value): Mutation => ({ in: 'body', pointer, value })),
        )
      : []
  const oneField: fc.Arbitrary<Mutation>[] = [
    ...pathNames.map(pathMutation),
    ...queryParameters.map(queryMutation),
    ...bodyMutations,
    ...(takesBody ? [hostilePayload] : []),
  ]

  const everything = fc
    .tuple(
      ...pathNames.map((name) => fc.option(pathMutation(name), { freq: 4 })),
      ...queryParameters.slice(0, 8).map((p) => fc.option(queryMutation(p), { freq: 2 })),
      takesBody ? fc.option(hostilePayload, { freq: 4 }) : fc.constant(null),
    )
    .map((mutations) => ({ mutations: mutations.filter((m): m is Mutation => m !== null) }))

  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<RequestPlan>({ mutations: [] }) },
    { weight: 7, arbitrary: fc.oneof(...oneField).map((mutation) => ({ mutations: [mutation] })) },
    { weight: 4, arbitrary: everything },
  )
}

/** Options for `app.inject()`: method, URL (path and query as sent, percent-encoded), headers, body. */
export interface RenderedRequest {
  method: string
  url: string
  headers: Record<string, string>
  payload?: string
}

/**
 * Render a plan: the valid request with its mutations applied.
 * @param path valid values of the path parameters (encoded here)
 * @param headers credential headers, added last
 */
export function renderRequest(
  entry: OperationEntry,
  valid: ValidRequest,
  plan: RequestPlan,
  path: Record<string, string>,
  headers: Record<string, string> = {},
): RenderedRequest {
  const segments: Record<string, string> = Object.fromEntries(
    Object.entries(path).map(([name, value]) => [name, encodeURIComponent(value).replaceAll('%2F', '/')]),
  )
  const query = new Map<string, string[]>(Object.entries(valid.query).map(([name, value]) => [name, [value]]))
  let body = valid.body === undefined ? undefined : (structuredClone(valid.body) as HostileJson)
  let payload: { text: string; contentType: string | undefined } | undefined

  for (const mutation of plan.mutations) {
    switch (mutation.in) {
      case 'path':
        segments[mutation.name] = mutation.segment
        break
      case 'query':
        query.set(mutation.name, mutation.values)
        break
      case 'body':
        body = setAt(body, mutation.pointer, mutation.value)
        break
      case 'payload':
        payload = { text: mutation.payload, contentType: mutation.contentType }
        break
    }
  }

  const pathname = entry.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const segment = segments[name]
    if (segment === undefined) throw new Error(`${entry.key}: no value for the path parameter ${name}`)
    return segment
  })
  const search = [...query].flatMap(([name, values]) =>
    values.map((value) => `${encodeHostile(name)}=${encodeHostile(value)}`),
  )
  const url = search.length > 0 ? `${pathname}?${search.join('&')}` : pathname

  if (payload === undefined && body !== undefined) {
    const [mediaType] = Object.keys(entry.operation.requestBody?.content ?? {})
    payload = { text: toJsonText(body), contentType: mediaType ?? 'application/json' }
  }
  return {
    method: entry.method,
    url,
    headers: {
      ...(payload?.contentType ? { 'content-type': payload.contentType } : {}),
      ...valid.headers,
      ...headers,
    },
    ...(payload ? { payload: payload.text } : {}),
  }
}

/** A copy of `root` with the node at `pointer` replaced (or removed, for `MISSING`). */
function setAt(
  root: HostileJson | undefined,
  pointer: Pointer,
  value: HostileJson | typeof MISSING,
): HostileJson {
  if (pointer.length === 0) return value === MISSING ? new RawJson('') : value
  const [head, ...rest] = pointer
  const container: HostileJson =
    root !== null && typeof root === 'object' && !(root instanceof RawJson)
      ? root
      : typeof head === 'number'
        ? []
        : {}
  const child = (container as Record<string | number, HostileJson>)[head as string | number]
  const next = rest.length === 0 ? value : setAt(child, rest, value)
  if (Array.isArray(container) && typeof head === 'number') {
    if (next === MISSING) container.splice(head, 1)
    else container[head] = next
  } else {
    const record = container as Record<string, HostileJson>
    if (next === MISSING) delete record[String(head)]
    else record[String(head)] = next
  }
  return container
}

/** A request as a failure message prints it: long values abbreviated, control characters escaped. */
export function describeRequest(request: RenderedRequest): string {
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `  ${name}: ${abbreviate(value)}`)
    .join('\n')
  const body = request.payload === undefined ? '' : `\n  body: ${abbreviate(request.payload)}`
  return `${request.method} ${abbreviate(request.url)}\n${headers}${body}`
}

/** A string cut to `max` characters (with its length), non-printable characters escaped. */
export function abbreviate(text: string, max = 300): string {
  const shown = JSON.stringify(text.length > max ? text.slice(0, max) : text)
  return text.length > max ? `${shown}... (${text.length} characters)` : shown
}
