/**
 * Custom properties in one canonical text, the form every writer stores (live tracking, both imports)
 * so that the store's property map, the reports, filters and the events list read the same values:
 *
 * - Duplicate keys: the last value wins, as `JSON.parse` decides (`{"k":1,"k":2}` is `{"k":2}`), at
 *   every depth; the key order is that of each key's first appearance.
 * - Compact JSON (no whitespace), strings and keys as `JSON.stringify` escapes them.
 * - Numbers as the IEEE 754 double they read as, written as JavaScript writes it (`String(x)`):
 *   `3.0` -> `3`, `1e21` -> `1e+21`, `1e-7` -> `1e-7`, `0.000001` -> `0.000001`, `-0` -> `0`,
 *   `9007199254740993` (2^53 + 1) -> `9007199254740992`, `-12345678901234567890` ->
 *   `-12345678901234567000`; except that a whole number of magnitude 2^63 or more, which JavaScript
 *   writes as a long integer (`18446744073709552000`), is written in exponent form
 *   (`1.8446744073709552e+19`, the same double): ClickHouse reads integer literals as 64-bit integers
 *   and refuses a document holding a longer one, which would hide every property of the event.
 * - A number beyond the double's range (`1e400`) has no such value: refused, naming its path.
 * - Nesting deeper than `MAX_JSON_DEPTH` levels: refused.
 */
import { tooDeepAt, tooDeepMessage } from './json-depth.js'

/** The canonical text, or why the value cannot have one (`path` names the offending value). */
export type CanonicalProperties = { text: string } | { error: string }

/** 2^63: from this magnitude on, an integer literal no longer fits ClickHouse's Int64 (or UInt64 for negatives). */
const INT64_LIMIT = 2 ** 63

/**
 * The canonical text of a number as a value (what the property breakdown shows and a filter
 * compares): `String(x)`, with `-0` as `0`.
 * @returns null for NaN and ±Infinity (a JSON number out of the double's range parses to ±Infinity)
 */
export function canonicalNumberText(x: number): string | null {
  if (!Number.isFinite(x)) return null
  return x === 0 ? '0' : String(x)
}

/**
 * A number as the stored JSON text writes it: its canonical text, but a whole number of magnitude
 * 2^63 or more in exponent form (see the module comment). null as for `canonicalNumberText`.
 */
function storedNumberText(x: number): string | null {
  const text = canonicalNumberText(x)
  return text !== null && Math.abs(x) >= INT64_LIMIT && !/[.e]/.test(text) ? x.toExponential() : text
}

/** A property path as the error names it: `big`, `meta.tier`, `tags[2]` (keys JSON-quoted when not plain). */
function pathText(path: readonly (string | number)[]): string {
  let text = ''
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`
    else if (/^[A-Za-z_$][\w$-]*$/.test(part)) text += text === '' ? part : `.${part}`
    else text += `[${JSON.stringify(part)}]`
  }
  return text
}

class OutOfRange extends Error {
  constructor(readonly path: (string | number)[]) {
    super('out of range')
  }
}

/**
 * Whether `value` holds a number `JSON.stringify` does not write canonically (out of range, or a
 * whole number it writes as a long integer), or a value that is not JSON.
 */
function needsOwnWriter(value: unknown): boolean {
  if (typeof value === 'number')
    return storedNumberText(value) !== (Number.isFinite(value) ? String(value === 0 ? 0 : value) : '')
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return false
  if (Array.isArray(value)) return value.some((item) => item === undefined || needsOwnWriter(item))
  if (typeof value === 'object') {
    for (const key in value) {
      if (Object.hasOwn(value, key) && needsOwnWriter((value as Record<string, unknown>)[key])) return true
    }
    return false
  }
  return true
}

/** `value` as canonical JSON text; `path` is the stack of keys down to it (pushed and popped in place). */
function write(value: unknown, path: (string | number)[]): string {
  if (value === null || typeof value === 'boolean') return String(value)
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'number') {
    const text = storedNumberText(value)
    if (text === null) throw new OutOfRange([...path])
    return text
  }
  if (Array.isArray(value)) {
    let out = '['
    for (let i = 0; i < value.length; i++) {
      path.push(i)
      out += `${i > 0 ? ',' : ''}${write(value[i] === undefined ? null : value[i], path)}`
      path.pop()
    }
    return `${out}]`
  }
  if (typeof value === 'object') {
    let out = '{'
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue
      const item = (value as Record<string, unknown>)[key]
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue
      path.push(key)
      out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${write(item, path)}`
      path.pop()
    }
    return `${out}}`
  }
  // bigint, function, symbol: not JSON values (they never come out of JSON.parse).
  throw new TypeError(`not a JSON value at ${pathText(path)}`)
}

/**
 * The canonical text of a properties object (see the module comment).
 * @param properties an object (as a client builds it, or `JSON.parse` made it)
 * @returns `{text}`, or `{error}` naming the path of a number out of the double's range
 *   (`"big": number out of range ...`), or saying it nests deeper than `MAX_JSON_DEPTH`
 */
export function canonicalPropertiesOf(properties: Record<string, unknown>): CanonicalProperties {
  // Checked first: the writer below recurses, and a value this deep is refused anyway.
  if (tooDeepAt(properties) !== undefined) return { error: tooDeepMessage() }
  try {
    // Most properties hold no number JSON.stringify writes otherwise: its native output is the text.
    return { text: needsOwnWriter(properties) ? write(properties, []) : JSON.stringify(properties) }
  } catch (error) {
    if (error instanceof OutOfRange) {
      return {
        error: `"${pathText(error.path)}": number out of range (a JSON number must be finite, at most 1.7976931348623157e+308 in magnitude)`,
      }
    }
    if (error instanceof TypeError) return { error: error.message }
    throw error
  }
}

/**
 * The canonical text of properties sent as JSON text.
 * @param text a string holding a JSON object
 * @returns `{text}`, or `{error}` when the text is not a JSON object or holds a number out of range
 */
export function canonicalPropertiesText(text: string): CanonicalProperties {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { error: 'must be a JSON object (an object, or a string holding one)' }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { error: 'must be a JSON object (an object, or a string holding one)' }
  }
  return canonicalPropertiesOf(value as Record<string, unknown>)
}
