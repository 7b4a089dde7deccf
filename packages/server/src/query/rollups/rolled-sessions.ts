/**
 * The per-session rows of `sessions-subquery.ts`, built from the `session_hours` rollup instead of raw
 * events: the session's hours inside the range, grouped by session. Each column means exactly what its
 * namesake in `metrics.ts` (`sessionColumns`) means over the session's events in the range, so the
 * session metrics run over these rows unchanged (`rolledSessionMetrics`: but visitors, estimated as
 * the `event_hours` reports estimate them). Only for unfiltered scopes
 * (`matched_pageview_count` is every pageview). The session breakdowns' dimensions are rolled up too:
 * the entry channel by its code, the entry referrer domain and entry and exit pages by their hashes,
 * which come back to text through the range's pathnames in `event_hours` (where every pageview's
 * pathname is) and the range's referrer domains in `events` (a scan of that one column).
 */
import { ENTRY_CHANNEL_SQL, packedHash } from '../../storage/events/migrations/003-rollups.js'
import { sessionMetrics } from '../metrics.js'

/**
 * `sessionMetrics` over the rolled per-session rows, but visitors counted with `uniqCombined64`
 * (exact for small sets, within 1 % above, as the other rolled reports): counting a year's ~1 M
 * visitor hashes exactly took a quarter of the rolled overview (10 M events, 365 days: 169 against
 * 128 ms p50). Sessions, pageviews, bounce rate and durations stay exact.
 */
export const rolledSessionMetrics = {
  ...sessionMetrics,
  visitors: {
    sql: 'uniqCombined64(visitor_key)',
    means: 'distinct visitors of the counted sessions (estimated: within 1 %)',
  },
} as const satisfies Record<keyof typeof sessionMetrics, { sql: string; means: string }>

/** The rollup's condition: site and the range's hours (placeholders `site`, `from`, `to` of the scope). */
export const ROLLUP_SCOPE_SQL =
  "site_id = {site:UInt32} AND hour >= {from:DateTime64(3, 'UTC')} AND hour < {to:DateTime64(3, 'UTC')}"

/** The range's pageview pathnames (`event_hours`, dimension pathname): a scalar subquery, an array. */
const rangePathnames = `(SELECT groupArray(value) FROM (SELECT value FROM event_hours WHERE ${ROLLUP_SCOPE_SQL} AND dimension = 'pathname' GROUP BY value))`

/** The range's referrer domains (no rollup lists them): a scalar subquery, an array. */
const rangeReferrerDomains =
  "(SELECT groupArray(domain) FROM (SELECT DISTINCT referrer_domain AS domain FROM events WHERE site_id = {site:UInt32} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')}))"

/** A packed aggregate back to its text, looked up among `texts` ('' for none: no text has that hash). */
const textOf = (aggregate: string, texts: string): string =>
  `transform(${packedHash(aggregate)}, arrayMap(t -> cityHash64(t), ${texts}), ${texts}, '')`

/** Rollup expressions for the per-session columns the reports read, by the raw column's name. */
export const rolledSessionColumns = {
  visitor_key: 'any(visitor)',
  pageview_count: 'sum(pageviews)',
  matched_pageview_count: 'sum(pageviews)',
  interaction_count: 'sum(interactions)',
  duration_seconds:
    'intDiv(toUnixTimestamp64Milli(max(last_at)) - toUnixTimestamp64Milli(min(first_at)), 1000)',
  entry_channel: ENTRY_CHANNEL_SQL,
  entry_referrer_domain: textOf('min(first_referrer)', rangeReferrerDomains),
  entry_page: textOf('min(first_pageview)', rangePathnames),
  exit_page: textOf('max(last_pageview)', rangePathnames),
} as const satisfies Record<string, string>

/** A per-session column the rollup provides. */
export type RolledSessionColumn = keyof typeof rolledSessionColumns

/** Whether the rollup provides the per-session column (a session breakdown's dimension, say). */
export const isRolledSessionColumn = (column: string): column is RolledSessionColumn =>
  Object.hasOwn(rolledSessionColumns, column)

/** `SELECT session_key, <columns> FROM session_hours WHERE <scope> GROUP BY session_key`. */
export function rolledSessionsSubquery(columns: readonly RolledSessionColumn[]): string {
  return [
    `SELECT session_key, ${columns.map((c) => `${rolledSessionColumns[c]} AS ${c}`).join(', ')}`,
    'FROM session_hours',
    `WHERE ${ROLLUP_SCOPE_SQL}`,
    'GROUP BY session_key',
  ].join('\n')
}
