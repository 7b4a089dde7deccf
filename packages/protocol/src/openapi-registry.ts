/**
 * The registry the OpenAPI document reads schema documentation from: component names (`id`) and JSON
 * Schema annotations. A registry of its own (not zod's global one), so that ids here never collide
 * with other modules' metadata.
 */
import { z } from 'zod'

/** What a schema may carry into the document. `id` makes it a component (`#/components/schemas/<id>`). */
export interface SchemaDoc {
  id?: string
  title?: string
  description?: string
  format?: string
  examples?: unknown[]
  deprecated?: boolean
  /** For a string holding JSON: its media type and the schema of the JSON it holds (JSON Schema 2020-12). */
  contentMediaType?: string
  contentSchema?: Record<string, unknown>
}

/** The documentation registry; `toJsonSchema` passes it to `z.toJSONSchema` as `metadata`. */
export const openApiRegistry = z.registry<SchemaDoc>()

/**
 * Document a schema: a copy of it carrying `meta` (a description when given a string), so that one
 * schema reused in several places can be described differently in each. The copy keeps the shape
 * `documentAs` gave the schema.
 */
export function doc<T extends z.ZodType>(schema: T, meta: SchemaDoc | string): T {
  const copy = schema.clone() as T
  openApiRegistry.add(copy, typeof meta === 'string' ? { description: meta } : meta)
  const shape = documentedShapes.get(schema)
  if (shape) documentedShapes.set(copy, shape)
  const value = jsonValues.get(schema)
  if (value) jsonValues.set(copy, value)
  return copy
}

/** Document a schema as the component `id`. */
export function component<T extends z.ZodType>(id: string, schema: T, description: string): T {
  return doc(schema, { id, description })
}

const documentedShapes = new WeakMap<z.ZodType, z.ZodType>()

/**
 * Document `schema` (itself, not a copy: pass a schema made for the purpose) as `shape`, keeping its
 * description: for a value whose checks cannot be one zod shape (they depend on a sibling field or on
 * stored state), documented by the shape those checks accept. The document's converter
 * (`toJsonSchema`) reads it with `documentedShape`.
 * @returns `schema`, its input type narrowed to the shape's (so clients are typed by the documented shape)
 */
export function documentAs<T extends z.ZodType, Shape extends z.ZodType>(
  schema: T,
  shape: Shape,
): Documented<T, Shape> {
  documentedShapes.set(schema, shape)
  return schema as Documented<T, Shape>
}

/** A schema whose input type is narrowed to its documented shape's (what clients are typed to send). */
export type Documented<T extends z.ZodType, Shape extends z.ZodType> = T & { _zod: { input: z.input<Shape> } }

const jsonValues = new WeakMap<z.ZodType, { value: z.ZodType; check: z.ZodType }>()

/**
 * Record the JSON value a query-string parser stands for, where a JSON body carries the same
 * parameter (a batch part's `params`): `value`, as the document shows it (a list for a comma-separated
 * list, a number for an integer's text), and `check`, that value with every check the parser makes of
 * the text and its messages, where the document shows fewer (an integer's upper bound, whose 400 names
 * the parameter). @returns `schema` itself
 */
export function jsonValueAs<T extends z.ZodType>(schema: T, value: z.ZodType, check: z.ZodType = value): T {
  jsonValues.set(schema, { value, check })
  return schema
}

/**
 * The JSON value a query-string parameter stands for: what `jsonValueAs` recorded, through
 * `.optional()`; otherwise the schema itself (a text or an enumeration is its own JSON value).
 */
export function jsonValueOf(schema: z.ZodType): z.ZodType {
  const recorded = jsonValues.get(schema)
  if (recorded) return recorded.value
  return schema instanceof z.ZodOptional ? jsonValueOf(schema.unwrap() as z.ZodType) : schema
}

/**
 * The parser of a query-string parameter's JSON value with the checks and messages of the parser of
 * its text (`jsonValueAs`'s `check`), through `.optional()`; otherwise the schema itself (a text or an
 * enumeration parses its JSON value as it parses the text).
 */
export function jsonCheckOf(schema: z.ZodType): z.ZodType {
  const recorded = jsonValues.get(schema)
  if (recorded) return recorded.check
  return schema instanceof z.ZodOptional ? jsonCheckOf(schema.unwrap() as z.ZodType) : schema
}

/** The shape `documentAs` gave `schema`, if any. */
export const documentedShape = (schema: z.ZodType): z.ZodType | undefined => documentedShapes.get(schema)
