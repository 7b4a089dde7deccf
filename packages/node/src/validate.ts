/**
 * Checks a call's input before anything is sent, for JavaScript callers and values TypeScript cannot see
 * (e.g. `NaN`). Each function throws a `TypeError` naming the offending field; lengths and formats
 * (IP addresses, the 2048-character properties limit) are left to the server, which answers 400 with details.
 */
import type { TrackPayload } from './types.js'

const stringFields = [
  'hostname',
  'pathname',
  'querystring',
  'page_title',
  'referrer',
  'user_id',
  'user_agent',
  'ip_address',
  'language',
] as const
const integerFields = ['screenWidth', 'screenHeight'] as const
const payloadFields: ReadonlySet<string> = new Set<string>([...stringFields, ...integerFields])

/** The payload fields of a tracking body, as sent. */
export type PayloadFields = Partial<Record<keyof TrackPayload, string | number>>

/**
 * Check a payload and return the fields to send (those not `undefined`).
 * @throws TypeError when `payload` is not a plain object, has a key that is not a tracking field, a string
 *   field that is not a string, or a screen size that is not a non-negative integer
 */
export function validatePayload(payload: unknown): PayloadFields {
  if (payload === undefined) return {}
  if (!isPlainObject(payload)) {
    throw new TypeError(`payload must be an object of tracking fields, got ${describe(payload)}`)
  }
  const fields: PayloadFields = {}
  for (const [key, value] of Object.entries(payload)) {
    if (!payloadFields.has(key)) {
      throw new TypeError(
        `payload.${key} is not a tracking field (expected ${[...payloadFields].join(', ')})`,
      )
    }
    if (value === undefined) continue
    if ((integerFields as readonly string[]).includes(key)) {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
        throw new TypeError(`payload.${key} must be a non-negative integer, got ${describe(value)}`)
      }
    } else if (typeof value !== 'string') {
      throw new TypeError(`payload.${key} must be a string, got ${describe(value)}`)
    }
    fields[key as keyof TrackPayload] = value
  }
  return fields
}

/**
 * Check a custom event's name.
 * @returns the name
 * @throws TypeError when it is not a string or is blank
 */
export function validateEventName(eventName: unknown): string {
  if (typeof eventName !== 'string' || eventName.trim() === '') {
    throw new TypeError(`eventName must be a non-empty string, got ${describe(eventName)}`)
  }
  return eventName
}

/**
 * Check custom event properties and serialize them as the JSON object string the endpoint expects.
 * Values must be strings, finite numbers, booleans or flat arrays of those; keys whose value is
 * `undefined` are left out.
 * @returns the JSON string, or `undefined` when `properties` is `undefined`
 * @throws TypeError naming the first offending key (e.g. `properties.plan`) or element (`properties.tags[2]`)
 */
export function validateProperties(properties: unknown): string | undefined {
  if (properties === undefined) return undefined
  if (!isPlainObject(properties)) {
    throw new TypeError(`properties must be a plain object, got ${describe(properties)}`)
  }
  const checked: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(properties)) {
    if (value === undefined) continue
    if (Array.isArray(value)) {
      value.forEach((element: unknown, index) => {
        if (!isScalar(element)) {
          throw new TypeError(
            `properties.${key}[${index}] must be a string, finite number or boolean, ` +
              `got ${describe(element)}`,
          )
        }
      })
    } else if (!isScalar(value)) {
      throw new TypeError(
        `properties.${key} must be a string, finite number, boolean or an array of those, ` +
          `got ${describe(value)}`,
      )
    }
    checked[key] = value
  }
  return JSON.stringify(checked)
}

const isScalar = (value: unknown): boolean =>
  typeof value === 'string' ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value))

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/** A short description of a value for error messages (never its content beyond scalars). */
function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'no prototype'})`
  return typeof value
}
