/**
 * A JSON value nested past `MAX_JSON_DEPTH` (`@pathlight/protocol` `json-depth.ts`) as the answer names
 * it: zod's flattened shape, the top-level field holding the too-deep part in `fieldErrors` (the body
 * itself in `formErrors`), so a depth refusal reads like any other invalid field.
 */
import { type JsonPath, tooDeepAt, tooDeepMessage } from '@pathlight/protocol'

export interface TooDeep {
  /** The top-level field that nests too deeply; undefined when it is the value itself. */
  field: string | undefined
  /** `properties: nested more than 512 levels deep` (without the field when it is the value itself). */
  message: string
  details: { fieldErrors: Record<string, string[]>; formErrors: string[] }
}

/** @returns the field and details when `value` nests too deeply, else undefined */
export function tooDeep(value: unknown): TooDeep | undefined {
  const path = tooDeepAt(value)
  return path === undefined ? undefined : tooDeepOf(path)
}

function tooDeepOf(path: JsonPath): TooDeep {
  const message = tooDeepMessage()
  const [first] = path
  if (first === undefined) {
    return { field: undefined, message, details: { fieldErrors: {}, formErrors: [message] } }
  }
  const field = String(first)
  return {
    field,
    message: `${field}: ${message}`,
    details: { fieldErrors: { [field]: [message] }, formErrors: [] },
  }
}
