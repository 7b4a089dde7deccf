/**
 * zod -> JSON Schema 2020-12 (the dialect of OpenAPI 3.1), with documentation from `openApiRegistry`:
 * schemas registered with an `id` become references to `#/components/schemas/<id>` and are returned
 * beside the schema. Request schemas convert their input side (`io: 'input'`: what a client sends,
 * before transforms and defaults); response schemas their output side (objects closed with
 * `additionalProperties: false` unless declared loose). Refinements and transforms have no JSON
 * Schema equivalent and are left out (`unrepresentable: 'any'`): the route still enforces them. A
 * schema given a documented shape (`documentAs`) converts as that shape, keeping its description.
 */
import { documentedShape, openApiRegistry } from '@pathlight/protocol'
import { z } from 'zod'

/** A JSON Schema object. */
export type JsonSchema = { [keyword: string]: unknown }

/** A converted schema and the components it references. */
export interface Converted {
  schema: JsonSchema
  components: Record<string, JsonSchema>
}

const COMPONENTS = '#/components/schemas/'

/** Convert one zod schema. @param io 'input' for what clients send, 'output' for what the server answers */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Converted {
  const components: Record<string, JsonSchema> = {}
  const raw = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    metadata: openApiRegistry,
    override: ({ zodSchema, jsonSchema }) => {
      const shape = documentedShape(zodSchema as unknown as z.ZodType)
      if (!shape) return
      const documented = toJsonSchema(shape, io)
      Object.assign(components, documented.components)
      const { description } = jsonSchema
      for (const key of Object.keys(jsonSchema)) delete jsonSchema[key]
      Object.assign(jsonSchema, documented.schema, description === undefined ? {} : { description })
    },
  }) as JsonSchema
  const { $schema: _dialect, $defs, ...rest } = raw
  for (const [id, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
    components[id] = tidy(definition) as JsonSchema
  }
  return { schema: tidy(rest) as JsonSchema, components }
}

/**
 * Rewrite `#/$defs/<id>` references to components, and drop the ±2^53-1 bounds zod adds to every
 * integer (noise: JSON numbers beyond them are not integers a client could send or receive anyway).
 */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy)
  if (value === null || typeof value !== 'object') return value
  const out: JsonSchema = {}
  for (const [key, child] of Object.entries(value)) {
    const safeIntegerBound = key === 'minimum' || key === 'maximum'
    if (safeIntegerBound && Math.abs(Number(child)) === Number.MAX_SAFE_INTEGER) continue
    if (key === '$ref' && typeof child === 'string' && child.startsWith('#/$defs/')) {
      out[key] = COMPONENTS + child.slice('#/$defs/'.length)
    } else out[key] = tidy(child)
  }
  return out
}
