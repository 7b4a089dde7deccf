import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { JsonSchema } from '../http/openapi/to-json-schema.js'
import { RawJson } from './hostile-values.js'
import {
  bodySchemaOf,
  bodyTargets,
  defaultValidRequest,
  exampleOf,
  MISSING,
  type OperationEntry,
  operationsOf,
  renderRequest,
  requestPlan,
} from './openapi-requests.js'
import { serviceDocument } from './service-document.js'

const document = await serviceDocument()
const components = document.components.schemas

/** A schema with its component references replaced by the components themselves. */
function inlined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inlined)
  if (value === null || typeof value !== 'object') return value
  const ref = (value as JsonSchema).$ref
  if (typeof ref === 'string') return inlined(components[ref.replace('#/components/schemas/', '')])
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, inlined(child)]))
}

const ajv = new Ajv2020({ strict: false, allowUnionTypes: true })
addFormatsModule.default(ajv)

const entry = (key: string): OperationEntry => {
  const found = operationsOf(document).find((e) => e.key === key)
  if (!found) throw new Error(`no operation ${key}`)
  return found
}

describe('exampleOf', () => {
  it.each(
    operationsOf(document)
      .filter((e) => bodySchemaOf(e.operation))
      .map((e) => [e.key, e] as const),
  )('gives a body %s accepts by its schema', (_key, e) => {
    const schema = bodySchemaOf(e.operation) as JsonSchema
    const validate = ajv.compile(inlined(schema) as JsonSchema)
    const body = defaultValidRequest(e, components).body
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true)
  })

  it('takes const, the first enum value, minimum, minItems and only required properties', () => {
    expect(
      exampleOf({
        type: 'object',
        properties: {
          kind: { const: 'path' },
          role: { enum: ['owner', 'admin'] },
          count: { type: 'integer', minimum: 5 },
          list: { type: 'array', minItems: 2, items: { type: 'string', format: 'email' } },
          optional: { type: 'string' },
        },
        required: ['kind', 'role', 'count', 'list'],
      }),
    ).toEqual({ kind: 'path', role: 'owner', count: 5, list: ['fuzz@example.com', 'fuzz@example.com'] })
  })
})

describe('bodyTargets', () => {
  it('lists every property the schema names, present or not, and each array item and the next one', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        variants: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
        description: { type: 'string' },
      },
    }
    expect(bodyTargets(schema, { name: 'x', variants: [{ name: 'A' }] })).toEqual([
      ['name'],
      ['variants'],
      ['variants', 0],
      ['variants', 0, 'name'],
      ['variants', 0, 'fuzzUnknownProperty'],
      ['variants', 1],
      ['description'],
      ['fuzzUnknownProperty'],
    ])
  })
})

describe('renderRequest', () => {
  const goals = entry('POST /api/sites/{siteId}/goals')
  const valid = { query: {}, body: { name: 'Fuzz', goalType: 'path', config: { pathPattern: '/a' } } }

  it('renders the valid request with its path values', () => {
    expect(renderRequest(goals, valid, { mutations: [] }, { siteId: '7' }, { cookie: 'c=1' })).toEqual({
      method: 'POST',
      url: '/api/sites/7/goals',
      headers: { 'content-type': 'application/json', cookie: 'c=1' },
      payload: JSON.stringify(valid.body),
    })
  })

  it('applies one mutation at a time: a nested body node, a missing property, a path segment, a query', () => {
    const nested = renderRequest(
      goals,
      valid,
      { mutations: [{ in: 'body', pointer: ['config', 'pathPattern'], value: new RawJson('1e309') }] },
      { siteId: '7' },
    )
    expect(nested.payload).toBe('{"name":"Fuzz","goalType":"path","config":{"pathPattern":1e309}}')
    expect(valid.body.config.pathPattern).toBe('/a')

    const missing = renderRequest(
      goals,
      valid,
      { mutations: [{ in: 'body', pointer: ['goalType'], value: MISSING }] },
      { siteId: '7' },
    )
    expect(JSON.parse(missing.payload ?? '')).toEqual({ name: 'Fuzz', config: { pathPattern: '/a' } })

    const stats = entry('GET /api/sites/{siteId}/stats')
    const path = renderRequest(
      stats,
      { query: {} },
      {
        mutations: [
          { in: 'path', name: 'siteId', segment: '..%2F1' },
          { in: 'query', name: 'time_zone', values: ['a&b', '\uD800'] },
        ],
      },
      { siteId: '7' },
    )
    expect(path.url).toBe('/api/sites/..%2F1/stats?time_zone=a%26b&time_zone=%ED%A0%80')
    expect(path.payload).toBeUndefined()
  })
})

describe('requestPlan', () => {
  it('draws plans that render for every operation', () => {
    for (const e of operationsOf(document)) {
      const valid = defaultValidRequest(e, components)
      const values = Object.fromEntries(e.operation.parameters.map((p) => [p.name, '1']))
      fc.assert(
        fc.property(requestPlan(e, valid, components), (plan) => {
          const request = renderRequest(e, valid, plan, values)
          expect(request.url.startsWith('/')).toBe(true)
        }),
        { numRuns: 20 },
      )
    }
  })
})
