/**
 * A saved segment's filters (the dashboard's `{parameter, type, value}` filters) as a Query API
 * filter tree: their conditions ANDed, each comparing the stored column (`stored`), with the
 * dashboard's case rules (`equals` exact; `contains`, `starts_with` and their negations ignore case).
 * The dashboard's event filters keep events; here a segment's visit columns (channel, country, UTM,
 * browser...) select sessions by their first event, as every visit filter of this endpoint does.
 */
import type { Filter } from '../query/filters.js'
import type { Condition, FilterNode } from './report-query.js'

/** The dashboard's filter parameters as Query API dimensions. */
const dimensionOf: Record<string, string> = {
  pathname: 'event:page',
  hostname: 'event:hostname',
  event_name: 'event:name',
  referrer: 'visit:source',
  channel: 'visit:channel',
  country: 'visit:country',
  region: 'visit:region',
  city: 'visit:city',
  browser: 'visit:browser',
  operating_system: 'visit:os',
  device_type: 'visit:device',
  language: 'visit:language',
  utm_source: 'visit:utm_source',
  utm_medium: 'visit:utm_medium',
  utm_campaign: 'visit:utm_campaign',
  utm_term: 'visit:utm_term',
  utm_content: 'visit:utm_content',
  entry_page: 'visit:entry_page',
  exit_page: 'visit:exit_page',
}

const escapeRegex = (text: string) => text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')

function conditionOf(filter: Filter): Condition {
  const dimension = filter.parameter.startsWith('properties.')
    ? `event:props:${filter.parameter.slice('properties.'.length)}`
    : (dimensionOf[filter.parameter] ?? filter.parameter)
  const base = { kind: 'condition' as const, dimension, stored: true }
  switch (filter.type) {
    case 'equals':
      return { ...base, operator: 'is', values: filter.value, caseSensitive: true }
    case 'not_equals':
      return { ...base, operator: 'is_not', values: filter.value, caseSensitive: true }
    case 'contains':
      return { ...base, operator: 'contains', values: filter.value, caseSensitive: false }
    case 'not_contains':
      return { ...base, operator: 'contains_not', values: filter.value, caseSensitive: false }
    case 'starts_with':
      return {
        ...base,
        operator: 'matches',
        values: filter.value.map((v) => `^${escapeRegex(v)}`),
        caseSensitive: false,
      }
    case 'regex':
      return { ...base, operator: 'matches', values: filter.value, caseSensitive: true }
    case 'is_set':
      return { ...base, operator: 'is_not', values: ['(none)'], caseSensitive: true }
    case 'is_not_set':
      return { ...base, operator: 'is', values: ['(none)'], caseSensitive: true }
  }
}

/** The segment's filters as one node (an `and` of its conditions). */
export function segmentNode(filters: readonly Filter[]): FilterNode {
  return { kind: 'and', filters: filters.map(conditionOf) }
}
