/**
 * Event-level figures from the `event_hours` rollup: per dimension value (or the site's total,
 * dimension ''), events and pageviews summed exactly, visitors and sessions merged from their
 * `uniqCombined64` states (estimates within 1 % of `uniqExact`, exact for small sets).
 */
import { ROLLUP_SCOPE_SQL } from './rolled-sessions.js'

/** Aggregates over `event_hours` rows, named as the raw reports name theirs (`eventMetrics`). */
export const rolledEventMetrics = {
  visitors: 'uniqCombined64Merge(visitor_state)',
  sessions: 'uniqCombined64Merge(session_state)',
  pageviews: 'sum(pageview_count)',
  events: 'sum(event_count)',
  custom_events: 'sum(custom_event_count)',
} as const satisfies Record<string, string>

/**
 * The WHERE condition on `event_hours` for one dimension over the scope's hours; placeholders `site`,
 * `from`, `to` and `dimension` (the `events` column name, '' for the total).
 */
export const ROLLED_DIMENSION_SQL = `${ROLLUP_SCOPE_SQL} AND dimension = {dimension:String}`
