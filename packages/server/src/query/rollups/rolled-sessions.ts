/**
 * The per-session rows of `sessions-subquery.ts`, built from the rollups instead of raw events: each
 * session's hours inside the range, folded into one row. Each column means exactly what its namesake
 * in `metrics.ts` (`sessionColumns`) means over the session's events in the range (the referrer domain
 * and the entry and exit pages as the text's cityHash64), so the session metrics run over these rows
 * unchanged (`rolledSessionMetrics`: but visitors, estimated as the `event_hours` reports estimate
 * them). Only for unfiltered scopes (`matched_pageview_count` is every pageview).
 *
 * Two sources, one row per session either way:
 * - `session_summaries` (migration 005), a row per folded session: the sessions wholly inside the
 *   range whose summary is current (none of their hours pending in `session_changes`), read as is;
 * - `session_hours` (003), grouped by session over the range's hours: the rest, i.e. the sessions
 *   crossing the range's start or end (only their hours inside count, as the raw report counts only
 *   their events inside) and the sessions with a pending hour (open, or changed since folded).
 * The session breakdowns' dimensions are rolled up too: the entry channel by its code, the entry
 * referrer domain and entry and exit pages by their hashes, each packed behind its event's place in
 * `EVENT_ORDER` (migration 008), so the minimum or maximum over a session's hours names the event the
 * raw report's `argMin`/`argMax` names, ties on the same millisecond included. A breakdown by a hashed column groups the
 * sessions by hash and turns only the grouped hashes back into text (`rolledHashedBreakdownSql`),
 * looked up among the pathnames of the range's months in `pathname_months` (migration 011, where every
 * pageview's pathname is) or its referrer domains in `referrer_domain_days` (007).
 */
import { type FoldedColumn, SESSION_FOLDS } from '../../storage/events/fold-sessions.js'
import { entryChannelOf, packedHash } from '../../storage/events/rollup-schema/session-hours.js'
import { sessionMetrics } from '../metrics.js'

/**
 * `sessionMetrics` over the rolled per-session rows, but visitors counted with `uniqCombined64`
 * (exact for small sets, within 1 % above, as the other rolled reports): counting a year's visitor
 * hashes exactly was a large share of the rolled overview's time (bench/README.md "Every rolled report
 * after `metrics` and estimated session visitors"). Sessions, pageviews, bounce rate and durations stay
 * exact.
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

/**
 * The condition on a day table's `day` (a UTC day's start, `DateTime('UTC')`) for every day the range
 * touches (the rollup tests also pass with the server's time zone set to America/New_York).
 */
const RANGE_DAYS = "day >= toStartOfDay({from:DateTime64(3, 'UTC')}) AND day < {to:DateTime64(3, 'UTC')}"

/**
 * The pathnames of pageviews in the range's months (`pathname_months`), an array: every entry or exit
 * page of the range, and those of the rest of its first and last months. Not from `page_days`, which
 * is sorted by pathname: listing a year's pathnames there read every row of the year.
 */
const rangePathnames = `(SELECT groupUniqArray(pathname) FROM pathname_months WHERE site_id = {site:UInt32}
  AND month >= toDateTime(toStartOfMonth({from:DateTime64(3, 'UTC')}), 'UTC') AND month < {to:DateTime64(3, 'UTC')})`

/** The referrer domains of the range's days (`referrer_domain_days`), an array, as `rangePathnames`. */
const rangeReferrerDomains = `(SELECT groupUniqArray(referrer_domain) FROM referrer_domain_days WHERE site_id = {site:UInt32} AND ${RANGE_DAYS})`

/** A session's folded stored column, as the union below names it. */
const folded = (column: FoldedColumn): string => `folded_${column}`

/**
 * The per-session columns the reports read, by the raw column's name: the stored columns each needs
 * (`SESSION_FOLDS`) and its expression over them once folded. A column kept as a hash has `texts`,
 * the array its hash is looked up in, and its `sql` is the hash (cityHash64 of the text).
 */
export const rolledSessionColumns = {
  visitor_key: { reads: ['visitor'], sql: folded('visitor') },
  pageview_count: { reads: ['pageviews'], sql: folded('pageviews') },
  matched_pageview_count: { reads: ['pageviews'], sql: folded('pageviews') },
  interaction_count: { reads: ['interactions'], sql: folded('interactions') },
  duration_seconds: {
    reads: ['first_at', 'last_at'],
    sql: `intDiv(toUnixTimestamp64Milli(${folded('last_at')}) - toUnixTimestamp64Milli(${folded('first_at')}), 1000)`,
  },
  entry_channel: { reads: ['first_channel'], sql: entryChannelOf(folded('first_channel')) },
  entry_referrer_domain: {
    reads: ['first_referrer'],
    sql: packedHash(folded('first_referrer')),
    texts: rangeReferrerDomains,
  },
  entry_page: { reads: ['first_pageview'], sql: packedHash(folded('first_pageview')), texts: rangePathnames },
  exit_page: { reads: ['last_pageview'], sql: packedHash(folded('last_pageview')), texts: rangePathnames },
} as const satisfies Record<string, { reads: readonly FoldedColumn[]; sql: string; texts?: string }>

/** A per-session column the rollup provides. */
export type RolledSessionColumn = keyof typeof rolledSessionColumns

/** Whether the rollup provides the per-session column (a session breakdown's dimension, say). */
export const isRolledSessionColumn = (column: string): column is RolledSessionColumn =>
  Object.hasOwn(rolledSessionColumns, column)

const SITE = 'site_id = {site:UInt32}'
const FROM = "{from:DateTime64(3, 'UTC')}"
const TO = "{to:DateTime64(3, 'UTC')}"

/** Sessions with a row in an hour changed since it was folded (`session_changes`). */
export const PENDING_SESSIONS = `SELECT session_key FROM session_hours WHERE ${SITE} AND hour IN (
  SELECT hour FROM session_changes WHERE ${SITE} GROUP BY hour HAVING max(changed_at) > max(folded_at))`

/**
 * Folded sessions crossing the range's start or end: two disjoint selections, each a range of the
 * sort key (`start_hour`) narrowed by the minmax index on `end_hour` (one condition with an OR read
 * more of the summaries: bench/README.md "A year of reports after an import").
 */
export const EDGE_SESSIONS = `SELECT session_key FROM session_summaries
  WHERE ${SITE} AND start_hour < ${FROM} AND end_hour >= ${FROM}
  UNION ALL SELECT session_key FROM session_summaries
  WHERE ${SITE} AND start_hour >= ${FROM} AND start_hour < ${TO} AND end_hour >= ${TO}`

/**
 * The condition on a summary (`session_summaries`, or a table of folded sessions with the same
 * `site_id`, `start_hour`, `end_hour` and `session_key`) that `rolledSessionsSubquery` reads it by:
 * wholly inside the range and current. Every other session with an event in the range is one of
 * `EDGE_SESSIONS` or `PENDING_SESSIONS`.
 */
export const CURRENT_SUMMARY_IN_RANGE = `${SITE} AND start_hour >= ${FROM} AND start_hour < ${TO} AND end_hour < ${TO}
    AND session_key NOT IN (${PENDING_SESSIONS})`

/** The placeholder of the hour splitting a range into two periods (`byPeriod` below). */
const SPLIT = "{split:DateTime64(3, 'UTC')}"

/** Folded sessions that start in the range and cross the split (those starting before are edge sessions). */
const SPLIT_SESSIONS = `SELECT session_key FROM session_summaries
  WHERE ${SITE} AND start_hour >= ${FROM} AND start_hour < ${SPLIT} AND end_hour >= ${SPLIT}`

/** Options of `rolledSessionsSubquery`. */
export interface RolledSessionsOptions {
  /**
   * Cut the range at the hour of placeholder `split` (inside it, a whole UTC hour) into two periods:
   * each row then also has `period`, 1 for the session's hours from the split on, 0 for those before.
   * A session crossing the split has a row in each with only that period's hours, as a session crossing
   * the range's edge keeps only its hours inside: so the rows of each period are those the period alone
   * as a range would give (the stats report reads a range and the one before it in one query).
   */
  byPeriod?: boolean
}

/**
 * One row per session with an event in the range: `session_key` and `columns`, from the summaries and
 * the session-hours as the file's doc says. Placeholders `site`, `from`, `to` of the scope (and
 * `split` with `byPeriod`).
 */
export function rolledSessionsSubquery(
  columns: readonly RolledSessionColumn[],
  options: RolledSessionsOptions = {},
): string {
  const byPeriod = options.byPeriod === true
  const reads = [...new Set(columns.flatMap((column) => rolledSessionColumns[column].reads))]
  const stored = reads.map((column) => `${column} AS ${folded(column)}`)
  const grouped = reads.map((column) => `${SESSION_FOLDS[column]}(${column}) AS ${folded(column)}`)
  const regrouped = [EDGE_SESSIONS, ...(byPeriod ? [SPLIT_SESSIONS] : []), PENDING_SESSIONS]
  return [
    `SELECT session_key, ${byPeriod ? 'period, ' : ''}${columns.map((c) => `${rolledSessionColumns[c].sql} AS ${c}`).join(', ')}`,
    'FROM (',
    `  SELECT session_key, ${byPeriod ? `start_hour >= ${SPLIT} AS period, ` : ''}${stored.join(', ')}`,
    '  FROM session_summaries',
    `  WHERE ${SITE} AND start_hour >= ${FROM} AND start_hour < ${TO} AND end_hour < ${TO}`,
    ...(byPeriod ? [`    AND (start_hour >= ${SPLIT} OR end_hour < ${SPLIT})`] : []),
    `    AND session_key NOT IN (${PENDING_SESSIONS})`,
    '  UNION ALL',
    `  SELECT session_key, ${byPeriod ? `hour >= ${SPLIT} AS period, ` : ''}${grouped.join(', ')}`,
    '  FROM session_hours',
    `  WHERE ${ROLLUP_SCOPE_SQL} AND session_key IN (${regrouped.join(' UNION ALL ')})`,
    `  GROUP BY session_key${byPeriod ? ', period' : ''}`,
    ')',
  ].join('\n')
}

/** A per-session column the rollup keeps as a hash (`texts` in `rolledSessionColumns`). */
export type HashedSessionColumn = {
  [K in RolledSessionColumn]: (typeof rolledSessionColumns)[K] extends { texts: string } ? K : never
}[RolledSessionColumn]

/** Whether the rollup keeps the per-session column as a hash: referrer domain, entry and exit page. */
export const isHashedSessionColumn = (column: string): column is HashedSessionColumn =>
  isRolledSessionColumn(column) && 'texts' in rolledSessionColumns[column]

/**
 * A session breakdown from the rollups by a hashed column: one row per value with `counts`
 * (`<aggregate> AS <name>, ...` over the per-session rows, which must include `visitors`), sorted by
 * visitors descending then value, and `total_values`; `page` is the LIMIT clause. The sessions are
 * grouped by hash and only the groups' hashes are looked up, far fewer than a lookup per session
 * (bench/README.md "Session breakdowns: texts after grouping"). A hash with no text (no pageview, no
 * referrer) reads as '' and is left out, as the three breakdowns by these columns leave '' out.
 */
export function rolledHashedBreakdownSql(column: HashedSessionColumn, counts: string, page: string): string {
  const inner = rolledSessionsSubquery(['visitor_key', 'matched_pageview_count', column])
  return [
    `WITH ${rolledSessionColumns[column].texts} AS texts`,
    "SELECT transform(hash, arrayMap(t -> cityHash64(t), texts), texts, '') AS value, * EXCEPT hash,",
    '  count() OVER () AS total_values',
    `FROM (SELECT ${column} AS hash, ${counts} FROM (\n${inner}\n) GROUP BY hash)`,
    "WHERE value != ''",
    'ORDER BY visitors DESC, value ASC',
    page,
  ].join('\n')
}
