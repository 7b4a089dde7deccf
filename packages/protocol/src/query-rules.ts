/**
 * The rules of the analytics reads' common parameters that need no parser, free of zod so that
 * browser code may import them (`@pathlight/protocol/query-rules`): the bounds (page size, range,
 * filters, segment id), what a calendar day is, and what one report filter may name and hold. The
 * query-string parsers (`analytics-query.ts`) use these bounds; the server also compiles a `regex`
 * filter's values with RE2, which only it can (`query/filters.ts`).
 */
import {
  filterParameters,
  filterTypes,
  MAX_PROPERTY_KEY_LENGTH,
  PROPERTY_FILTER_PREFIX,
  propertyFilterTypes,
} from './enums.js'
import type { ReportFilter } from './types.js'

/** Page size default and cap, page cap, default range (days) and longest range (days). */
export const DEFAULT_LIMIT = 50
export const MAX_LIMIT = 1000
export const MAX_PAGE = 100_000
export const DEFAULT_RANGE_DAYS = 30
export const MAX_RANGE_DAYS = 3660

/** Filters per request, values per filter, characters per value and per `regex` value. */
export const MAX_FILTERS = 20
export const MAX_FILTER_VALUES = 100
export const MAX_VALUE_LENGTH = 2048
export const MAX_REGEX_LENGTH = 256

/** The largest id a saved segment may have (a 32-bit signed integer). */
export const MAX_SEGMENT_ID = 2_147_483_647

/** Whether `text` is a calendar day YYYY-MM-DD from 1970 to 2100 (no month 13, no 30 February). */
export function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false
  const ms = Date.parse(`${text}T00:00:00Z`)
  if (Number.isNaN(ms)) return false
  const year = Number(text.slice(0, 4))
  return year >= 1970 && year <= 2100 && new Date(ms).toISOString().slice(0, 10) === text
}

/** The key a property filter's parameter names (`properties.plan` -> `plan`); undefined for a column's. */
export function propertyKeyOf(parameter: string): string | undefined {
  return parameter.startsWith(PROPERTY_FILTER_PREFIX)
    ? parameter.slice(PROPERTY_FILTER_PREFIX.length)
    : undefined
}

/**
 * Why `key` cannot name a custom property, or null when it can: 1 to 100 characters (UTF-16 code
 * units, as the server counts them), none of them a control, format, private-use or unassigned code
 * point (Unicode category C).
 */
export function propertyKeyProblem(key: string): string | null {
  if (key.length === 0) return 'property key must not be empty'
  if (key.length > MAX_PROPERTY_KEY_LENGTH)
    return `property key must be at most ${MAX_PROPERTY_KEY_LENGTH} characters`
  if (/\p{C}/u.test(key)) return 'property key must hold printable characters only'
  return null
}

/** One problem of a report filter: the field it is in and what is wrong. */
export interface ReportFilterProblem {
  field: 'parameter' | 'type' | 'value'
  message: string
}

const isOneOf = (values: readonly string[], value: unknown): value is string =>
  typeof value === 'string' && values.includes(value)

/**
 * The first problem of one element of the `filters` parameter's JSON, or null when it is a filter the
 * analytics reads take: `parameter` a column (`filterParameters`) or `properties.<key>` with a valid
 * key; `type` one of `filterTypes` for a column, of `propertyFilterTypes` for a property; `value` up
 * to `MAX_FILTER_VALUES` strings of up to `MAX_VALUE_LENGTH` characters, none for `is_set` and
 * `is_not_set`, at least one otherwise. Other fields are not looked at.
 * @param filter any JSON value (an object `{parameter, type, value}` to pass)
 */
export function reportFilterProblem(filter: unknown): ReportFilterProblem | null {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter))
    return { field: 'parameter', message: 'each filter must be an object {parameter, type, value}' }
  const { parameter, type, value } = filter as Record<string, unknown>
  if (typeof parameter !== 'string') return { field: 'parameter', message: 'parameter is required' }
  const key = propertyKeyOf(parameter)
  if (key === undefined && !isOneOf(filterParameters, parameter)) {
    return {
      field: 'parameter',
      message: `unknown parameter ${JSON.stringify(parameter)}; one of ${filterParameters.join(', ')}, or properties.<key>`,
    }
  }
  const keyProblem = key === undefined ? null : propertyKeyProblem(key)
  if (keyProblem) return { field: 'parameter', message: keyProblem }
  if (!isOneOf(propertyFilterTypes, type)) {
    return {
      field: 'type',
      message:
        type === undefined
          ? 'type is required'
          : `unknown type ${JSON.stringify(type)}; one of ${propertyFilterTypes.join(', ')}`,
    }
  }
  const presence = !isOneOf(filterTypes, type)
  if (presence && key === undefined)
    return { field: 'type', message: `type ${type} applies to properties.<key> only` }
  if (!Array.isArray(value)) return { field: 'value', message: 'value must be an array of strings' }
  if (!value.every((v) => typeof v === 'string')) return { field: 'value', message: 'values must be strings' }
  if (value.length > MAX_FILTER_VALUES)
    return { field: 'value', message: `value holds at most ${MAX_FILTER_VALUES} values` }
  if (value.some((v: string) => v.length > MAX_VALUE_LENGTH))
    return { field: 'value', message: `values must be at most ${MAX_VALUE_LENGTH} characters` }
  if (presence && value.length > 0) return { field: 'value', message: `value must be [] for ${type}` }
  if (!presence && value.length === 0)
    return { field: 'value', message: 'value must hold at least one value' }
  return null
}

/**
 * `filter` as a report filter, its three fields alone (`{parameter, type, value}`), or undefined when
 * `reportFilterProblem` finds a problem in it.
 */
export function toReportFilter(filter: unknown): ReportFilter | undefined {
  if (reportFilterProblem(filter) !== null) return undefined
  const { parameter, type, value } = filter as ReportFilter
  return { parameter, type, value: [...value] } as ReportFilter
}
