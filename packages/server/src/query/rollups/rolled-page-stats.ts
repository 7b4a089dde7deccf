/**
 * The v1 pages report (`../page-stats.ts`) from the rollups, for unfiltered scopes over whole UTC
 * hours: the same columns, each meaning what the raw query's does.
 *
 * - `pageviews` (exact) and `visitors` (`uniqCombined64`, within 1 %, as the pages breakdown) per
 *   pathname from the pages' month, day and hour rollups (`rolled-pages.ts`);
 * - `entries`, `exits` and `bounce_rate` from one row per session (`rolled-sessions.ts`: the entry
 *   and exit pages as hashes, grouped by hash and joined to the pathname's hash), exact;
 * - `time_on_page` (exact): the folded sessions wholly inside the range with a current summary from
 *   their sums in `session_page_times` (migration `010-session-page-times.ts`), and every other
 *   session of the range (crossing its start or end, open, or changed since folded) from its pageviews
 *   in `events` inside the range, by the raw query's window, reading only the days those sessions
 *   have hours on.
 */
import { EVENT_ORDER, SESSION_KEY } from '../metrics.js'
import type { PageSortField } from '../page-stats.js'
import { SCOPE_SQL } from '../report-scope.js'
import { rolledPagesSql, SEALED_MONTHS_WITH } from './rolled-pages.js'
import {
  CURRENT_SUMMARY_IN_RANGE,
  EDGE_SESSIONS,
  PENDING_SESSIONS,
  ROLLUP_SCOPE_SQL,
  rolledSessionsSubquery,
} from './rolled-sessions.js'

/** The range's sessions not read from their summaries. */
const LEFTOVER_SESSIONS = `${EDGE_SESSIONS} UNION ALL ${PENDING_SESSIONS}`

/** Per pathname, the timed pageviews and their milliseconds to the next pageview (see the file's doc). */
const TIME_ON_PAGE = `SELECT pathname, sum(timed) AS timed, sum(time_ms) AS time_ms FROM (
    SELECT pathname, toUInt64(timed_pageviews) AS timed, toInt64(time_ms) AS time_ms FROM session_page_times
    WHERE ${CURRENT_SUMMARY_IN_RANGE}
    UNION ALL
    SELECT pathname, toUInt64(1) AS timed, toInt64(dateDiff('millisecond', timestamp, next_at)) AS time_ms FROM (
      SELECT pathname, timestamp,
        leadInFrame(toNullable(timestamp)) OVER (PARTITION BY ${SESSION_KEY} ORDER BY ${EVENT_ORDER}
          ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) AS next_at
      FROM events
      WHERE ${SCOPE_SQL} AND type = 'pageview'
        AND toDate(timestamp) IN (
          SELECT DISTINCT toDate(hour) FROM session_hours WHERE ${ROLLUP_SCOPE_SQL} AND session_key IN (${LEFTOVER_SESSIONS}))
        AND ${SESSION_KEY} IN (${LEFTOVER_SESSIONS})
    )
    WHERE next_at IS NOT NULL
  ) GROUP BY pathname`

/**
 * The rolled v1 pages query: rows `pathname, pageviews, visitors, entries, exits, bounce_rate,
 * time_on_page` (null when no pageview on the path had a next one) and `total_pages`, sorted by
 * `sort` then pathname, one page (`{limit}`, `{offset}`). A page sorted by pageviews ranks the paths
 * by their exact pageview sums first and reads only its own paths' rows. Placeholders `site`, `from`,
 * `to` of the scope and those of `rolledPagesParams`.
 */
export function rolledPageStatsSql(sort: { field: PageSortField; order: 'asc' | 'desc' }): string {
  const sessions = rolledSessionsSubquery(['entry_page', 'exit_page', 'pageview_count', 'interaction_count'])
  const direction = sort.order === 'asc' ? 'ASC' : 'DESC'
  // Sorted by pageviews, exact sums rank the paths first and only the page's paths' visitor states
  // are merged (merging them was most of the pages part's time: bench/README.md "Entry and exit pages:
  // pathnames by month; v1 pages ranked first"). Sorted by another figure, every path's row is needed.
  const ranked = sort.field === 'pageviews'
  const ranking = `(SELECT (groupArray(value), any(total)) FROM (
  SELECT value, count() OVER () AS total FROM (${rolledPagesSql(null)})
  GROUP BY value ORDER BY sum(pageview_count) ${direction}, value ASC
  LIMIT {limit:UInt32} OFFSET {offset:UInt32}
)) AS ranked`
  return `WITH ${SEALED_MONTHS_WITH}${ranked ? `,\n${ranking}` : ''}
SELECT pv.value AS pathname, pv.pageviews AS pageviews, pv.visitors AS visitors,
  se.entries AS entries, se.exits AS exits,
  if(se.entries = 0, 0, se.bounces / se.entries) AS bounce_rate,
  if(tp.timed = 0, NULL, tp.time_ms / tp.timed / 1000) AS time_on_page,
  ${ranked ? 'ranked.2' : 'count() OVER ()'} AS total_pages
FROM (
  SELECT value, sum(pageview_count) AS pageviews, uniqCombined64Merge(visitor_state) AS visitors
  FROM (${rolledPagesSql(ranked ? 'value IN ranked.1' : null)})
  GROUP BY value
) AS pv
LEFT JOIN (
  SELECT place.2 AS hash, countIf(place.1 = 0) AS entries, countIf(place.1 = 1) AS exits,
    countIf(place.1 = 0 AND pageview_count = 1 AND interaction_count = 0) AS bounces
  FROM (${sessions})
  ARRAY JOIN [(0, entry_page), (1, exit_page)] AS place
  GROUP BY hash
) AS se ON se.hash = cityHash64(pv.value)
LEFT JOIN (${TIME_ON_PAGE}) AS tp ON tp.pathname = pv.value
ORDER BY ${sort.field} ${direction}, pathname ASC
${ranked ? '' : 'LIMIT {limit:UInt32} OFFSET {offset:UInt32}'}`
}
