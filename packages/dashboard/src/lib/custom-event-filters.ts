/**
 * Whether a view's filters select custom events only. Filters on event fields select events (the API's
 * rule): event counts count the events that pass, and a session counts, with all its pageviews, when one
 * of its events passes. A filter on a custom event's name or property passes no pageview, so with one
 * the overview's pageviews are 0 and its Pages card is empty, while visitors, sessions, bounce rate,
 * duration and pages per session are those of the sessions with such an event. The overview says so
 * rather than show figures that read as contradicting each other.
 */
import type { ReportFilter } from '@pathlight/protocol'
import { isPropertyFilter } from './property-filters'

/** Types that pass an event lacking the value (a pageview has no event name and no properties). */
const passesAbsent = new Set<string>(['not_equals', 'not_contains', 'is_not_set'])

/**
 * @returns true when one of `filters` passes custom events only: `event_name` or `properties.KEY`
 *   with a type that needs the value present (`equals`, `contains`, `is_set`, ...; for `equals`, not
 *   with the empty value a pageview has)
 */
export function selectsCustomEventsOnly(filters: readonly ReportFilter[]): boolean {
  return filters.some((filter) => {
    if (filter.parameter !== 'event_name' && !isPropertyFilter(filter)) return false
    if (passesAbsent.has(filter.type)) return false
    return !(filter.type === 'equals' && filter.value.includes(''))
  })
}
