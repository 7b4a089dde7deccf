/**
 * The per-session rows of `sessions-subquery.ts`, built from the `session_hours` rollup instead of raw
 * events: the session's hours inside the range, grouped by session. Each column means exactly what its
 * namesake in `metrics.ts` (`sessionColumns`) means over the session's events in the range, so the
 * session metrics (`sessionMetrics`) run over these rows unchanged. Only for unfiltered scopes
 * (`matched_pageview_count` is every pageview). Of the session breakdowns, channels are rolled up;
 * entry and exit pages and referrers read raw events (`003-rollups.ts` says why).
 */
import { ENTRY_CHANNEL_SQL } from '../../storage/events/migrations/003-rollups.js'

/** Rollup expressions for the per-session columns the reports read, by the raw column's name. */
export const rolledSessionColumns = {
  visitor_key: 'any(visitor)',
  pageview_count: 'sum(pageviews)',
  matched_pageview_count: 'sum(pageviews)',
  interaction_count: 'sum(interactions)',
  duration_seconds:
    'intDiv(toUnixTimestamp64Milli(max(last_at)) - toUnixTimestamp64Milli(min(first_at)), 1000)',
  entry_channel: ENTRY_CHANNEL_SQL,
} as const satisfies Record<string, string>

/** A per-session column the rollup provides. */
export type RolledSessionColumn = keyof typeof rolledSessionColumns

/** The rollup's condition: site and the range's hours (placeholders `site`, `from`, `to` of the scope). */
export const ROLLUP_SCOPE_SQL =
  "site_id = {site:UInt32} AND hour >= {from:DateTime64(3, 'UTC')} AND hour < {to:DateTime64(3, 'UTC')}"

/** `SELECT session_key, <columns> FROM session_hours WHERE <scope> GROUP BY session_key`. */
export function rolledSessionsSubquery(columns: readonly RolledSessionColumn[]): string {
  return [
    `SELECT session_key, ${columns.map((c) => `${rolledSessionColumns[c]} AS ${c}`).join(', ')}`,
    'FROM session_hours',
    `WHERE ${ROLLUP_SCOPE_SQL}`,
    'GROUP BY session_key',
  ].join('\n')
}
