/**
 * Checks answers against the OpenAPI document: the status must be documented (or covered by
 * `default`), the media type must be one the document lists for it, and a JSON body must validate
 * against its schema (ajv, JSON Schema 2020-12, formats checked). The test instance runs every answer
 * through it (`testing/test-instance.ts`), so the whole test suite keeps the document honest.
 */

import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { OpenApiDocument, Operation } from './build-document.js'
import type { JsonSchema } from './to-json-schema.js'

/** One answer, as an `onSend` hook sees it. */
export interface Answer {
  method: string
  /** The matched route's URL (`request.routeOptions.url`); undefined when no route matched. */
  route: string | undefined
  status: number
  contentType: string | undefined
  /** The serialized body: a string or Buffer; anything else (a stream) is not read. */
  payload: unknown
}

/** Checks answers; `check` returns what is wrong with one, or null. */
export interface ResponseValidator {
  check(answer: Answer): string | null
}

const COMPONENTS_ID = 'urn:pathlight:openapi:components'

/** A validator for `document`. Answers of routes the document lacks are not checked (null). */
export function createResponseValidator(document: OpenApiDocument): ResponseValidator {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true })
  addFormatsModule.default(ajv)
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: toAjvRefs(document.components.schemas) })

  const operations = new Map<string, Operation>()
  for (const methods of Object.values(document.paths)) {
    for (const operation of Object.values(methods)) operations.set(operation['x-route'], operation)
  }
  const validators = new Map<string, ValidateFunction>()
  const validatorOf = (key: string, schema: JsonSchema) => {
    let validate = validators.get(key)
    if (!validate) {
      validate = ajv.compile(toAjvRefs(schema) as JsonSchema)
      validators.set(key, validate)
    }
    return validate
  }

  return {
    check({ method, route, status, contentType, payload }) {
      if (route === undefined || method === 'HEAD') return null
      const key = `${method} ${route}`
      const operation = operations.get(key)
      if (!operation) return null
      const where = `${key} ${status}`
      const response = operation.responses[String(status)] ?? operation.responses.default
      if (!response) return `${where}: status not documented`
      if (status === 204 || status === 304) return null
      const text =
        typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null
      const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
      // A stream (a file) is not read; without a content type there is nothing to check about it.
      const hasBody = text === null ? payload != null && mediaType !== '' : text !== ''
      if (!hasBody) return null
      const documented = Object.keys(response.content ?? {})
      const match = documented.find((type) => mediaTypeMatches(type, mediaType))
      if (match === undefined) {
        return `${where}: answered ${mediaType || 'a body without a content type'}, documented: ${
          documented.join(', ') || 'no body'
        }`
      }
      const schema = response.content?.[match]?.schema
      if (!schema || text === null || !/[/+]json$/.test(mediaType)) return null
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        return `${where}: the body is not JSON: ${text.slice(0, 200)}`
      }
      const validate = validatorOf(`${where} ${match}`, schema)
      if (validate(body)) return null
      return `${where}: ${describeErrors(validate.errors ?? [])}; body: ${text.slice(0, 500)}`
    },
  }
}

/** `text/*` and `*\/*` match by type; otherwise exact. */
function mediaTypeMatches(documented: string, actual: string): boolean {
  if (documented === '*/*' || documented === actual) return true
  return documented.endsWith('/*') && actual.startsWith(documented.slice(0, -1))
}

/** Point component references at the components schema registered with ajv. */
function toAjvRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toAjvRefs)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')
        ? `${COMPONENTS_ID}#/$defs/${child.slice('#/components/schemas/'.length)}`
        : toAjvRefs(child),
    ]),
  )
}

function describeErrors(errors: ErrorObject[]): string {
  return errors
    .map((error) => {
      const extra =
        error.keyword === 'additionalProperties'
          ? ` (${String(error.params.additionalProperty)})`
          : error.keyword === 'required' || error.keyword === 'enum' || error.keyword === 'const'
            ? ` ${JSON.stringify(error.params)}`
            : ''
      return `${error.instancePath || '/'} ${error.message ?? error.keyword}${extra}`
    })
    .join('; ')
}
