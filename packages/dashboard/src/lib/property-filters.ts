/**
 * Custom property filters in the dashboard: the `properties.<key>` parameter of a key, whether a
 * filter is a property's, and the filters a value of the event properties panel adds (the event's
 * name and the property's value, so the figures are those of the panel's row). What a key and a
 * filter may hold is the protocol's (`@pathlight/protocol/query-rules`).
 */
import type { PropertyFilter, PropertyFilterParameter, ReportFilter } from '@pathlight/protocol'
import { propertyKeyOf } from '@pathlight/protocol/query-rules'
import type { ReportView } from './report-view'

/** `properties.<key>`, the filter parameter of a property key. */
export const propertyParameter = (key: string): PropertyFilterParameter => `properties.${key}`

/** Whether `filter` is a custom property's. */
export const isPropertyFilter = (filter: ReportFilter): filter is PropertyFilter =>
  propertyKeyOf(filter.parameter) !== undefined

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
