/**
 * Custom property filters in the dashboard: the `properties.<key>` parameter of a key, the key of a
 * parameter, parsing one from the URL, and the filters a value of the event properties panel adds
 * (the event's name and the property's value, so the figures are those of the panel's row).
 */
import type { PropertyFilter, PropertyFilterParameter, ReportFilter } from '@pathlight/protocol'
import {
  MAX_PROPERTY_KEY_LENGTH,
  PROPERTY_FILTER_PREFIX,
  type PropertyFilterType,
  propertyFilterTypes,
} from '@pathlight/protocol/enums'
import type { ReportView } from './report-view'

/** Whether `key` is a property key the API takes: 1 to 100 characters, none a control character. */
export function isPropertyKey(key: string): boolean {
  return key.length >= 1 && [...key].length <= MAX_PROPERTY_KEY_LENGTH && /^\P{C}*$/u.test(key)
}

/** `properties.<key>`, the filter parameter of a property key. */
export const propertyParameter = (key: string): PropertyFilterParameter => `properties.${key}`

/** The key of a `properties.<key>` parameter; undefined for a column's parameter. */
export function propertyKeyOf(parameter: string): string | undefined {
  return parameter.startsWith(PROPERTY_FILTER_PREFIX)
    ? parameter.slice(PROPERTY_FILTER_PREFIX.length)
    : undefined
}

/** Whether `filter` is a custom property's. */
export const isPropertyFilter = (filter: ReportFilter): filter is PropertyFilter =>
  propertyKeyOf(filter.parameter) !== undefined

/**
 * A property filter from the URL's JSON fields, or undefined when malformed: the parameter names a
 * valid key, the type is a property filter type, `is_set` / `is_not_set` have no values and the others
 * at least one.
 */
export function parsePropertyFilter(
  parameter: string,
  type: string,
  value: string[],
): PropertyFilter | undefined {
  const key = propertyKeyOf(parameter)
  if (key === undefined || !isPropertyKey(key)) return undefined
  if (!(propertyFilterTypes as readonly string[]).includes(type)) return undefined
  const presence = type === 'is_set' || type === 'is_not_set'
  if (presence ? value.length > 0 : value.length === 0) return undefined
  return { parameter: propertyParameter(key), type: type as PropertyFilterType, value }
}

/**
 * The filters of one value of the event properties panel: `event_name` equals `eventName` and
 * `properties.<key>` equals `value`; for the empty value also `properties.<key>` is set (events
 * without the key read as '' too, and the panel counts only the events carrying it).
 */
export function propertyValueFilters(eventName: string, key: string, value: string): ReportFilter[] {
  const parameter = propertyParameter(key)
  return [
    { parameter: 'event_name', type: 'equals', value: [eventName] },
    { parameter, type: 'equals', value: [value] },
    ...(value === '' ? [{ parameter, type: 'is_set' as const, value: [] }] : []),
  ]
}

/**
 * The view with `propertyValueFilters`. Filters of the same parameter and type are replaced (another
 * value swaps the value); back on page 1.
 */
export function withPropertyValue(
  view: ReportView,
  eventName: string,
  key: string,
  value: string,
): ReportView {
  const added = propertyValueFilters(eventName, key, value)
  const kept = view.filters.filter(
    (f) => !added.some((a) => a.parameter === f.parameter && a.type === f.type),
  )
  return { ...view, filters: [...kept, ...added], page: undefined }
}
