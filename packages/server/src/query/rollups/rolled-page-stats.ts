/**
 * The v1 pages report (`../page-stats.ts`) from the rollups, for unfiltered scopes over whole UTC
 * hours: the same columns, each meaning what the raw query's does, from three queries run side by
 * side and merged here by pathname:
 *
 * - `pageviews` (exact) and `visitors` (`uniqCombined64`, within 1 %, as the pages breakdown) per
 *   pathname from the pages' month, day and hour rollups (`rolled-pages.ts`);
 * - `entries`, `exits` and `bounce_rate` from one row per session (`rolled-sessions.ts`: the entry
 *   and exit pages as hashes, grouped by hash and matched to the pathname's hash), exact;
 * - `time_on_page` (exact): the folded sessions wholly inside the range with a current summary from
 *   their sums in `session_page_times` (migration `010-session-page-times.ts`), and every other
 *   session of the range (crossing its start or end, open, or changed since folded) from its pageviews
 *   in `events` inside the range, by the raw query's window, reading only the days those sessions
 *   have hours on.
 */
import { EVENT_ORDER, SESSION_KEY } from '../metrics.js'
import type { PageTraffic } from '../page-engagement.js'
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

/** The entries, exits and entry bounces per page hash (`hash` as text, for an exact match in JavaScript). */
const SESSIONS_BY_PAGE = (sessions: string): string => `SELECT toString(place.2) AS hash,
  countIf(place.1 = 0) AS entries, countIf(place.1 = 1) AS exits,
  countIf(place.1 = 0 AND pageview_count = 1 AND interaction_count = 0) AS bounces
FROM (${sessions})
ARRAY JOIN [(0, entry_page), (1, exit_page)] AS place
GROUP BY hash`

/**
 * The rolled v1 pages report as three queries, run side by side and merged by `mergeRolledPageStats`
 * (one query with the three as joined subqueries took their sum; two at once on two CPUs take less:
 * bench/README.md "v1 pages: three queries side by side"):
 * - `pages`: rows `pathname`, `hash` (its cityHash64 as text), `pageviews`, `visitors`, `total_pages`.
 *   Sorted by pageviews it ranks the paths by their exact pageview sums, reads only the page's paths'
 *   states and answers that page in order (merging every path's visitor states was most of its time:
 *   bench/README.md "Entry and exit pages: pathnames by month; v1 pages ranked first"); sorted by
 *   another figure, every path, unordered, for `mergeRolledPageStats` to sort and cut;
 * - `sessions`: rows `hash`, `entries`, `exits`, `bounces` per entry or exit page hash;
 * - `times`: rows `pathname`, `timed`, `time_ms`.
 * Placeholders `site`, `from`, `to` of the scope, those of `rolledPagesParams` and, for `pages` sorted
 * by pageviews, `limit` and `offset`.
 */
export function rolledPageStatsQueries(sort: { field: PageSortField; order: 'asc' | 'desc' }): {
  pages: string
  sessions: string
  times: string
} {
  const ranked = sort.field === 'pageviews'
  const direction = sort.order === 'asc' ? 'ASC' : 'DESC'
  const ranking = `(SELECT (groupArray(value), any(total)) FROM (
  SELECT value, count() OVER () AS total FROM (${rolledPagesSql(null)})
  GROUP BY value ORDER BY sum(pageview_count) ${direction}, value ASC
  LIMIT {limit:UInt32} OFFSET {offset:UInt32}
)) AS ranked`
  const pages = `WITH ${SEALED_MONTHS_WITH}${ranked ? `,\n${ranking}` : ''}
SELECT value AS pathname, toString(cityHash64(value)) AS hash, sum(pageview_count) AS pageviews,
  uniqCombined64Merge(visitor_state) AS visitors, ${ranked ? 'ranked.2' : 'count() OVER ()'} AS total_pages
FROM (${rolledPagesSql(ranked ? 'value IN ranked.1' : null)})
GROUP BY value
${ranked ? `ORDER BY pageviews ${direction}, pathname ASC` : ''}`
  const sessions = rolledSessionsSubquery(['entry_page', 'exit_page', 'pageview_count', 'interaction_count'])
  return { pages, sessions: SESSIONS_BY_PAGE(sessions), times: TIME_ON_PAGE }
}

/** A row of `rolledPageStatsQueries`' `pages` (numbers as the store returns them). */
export interface RolledPagesRow {
  pathname: string
  hash: string
  pageviews: number | string
  visitors: number | string
  total_pages: number | string
}
/** A row of `rolledPageStatsQueries`' `sessions`. */
export interface RolledSessionsByPageRow {
  hash: string
  entries: number | string
  exits: number | string
  bounces: number | string
}
/** A row of `rolledPageStatsQueries`' `times`. */
export interface RolledTimeOnPageRow {
  pathname: string
  timed: number | string
  time_ms: number | string
}

/** ClickHouse's order of two sort values: numbers ascending, null after every number. */
const compareValues = (a: number | null, b: number | null): number =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a - b

/**
 * The v1 pages rows and their total from the three parts' rows, as the single query joining them
 * answered: each page's entries, exits and bounce rate (0 when none entered there) by its hash, its
 * time on page (seconds; null when no pageview on it had a next one) by its pathname. Sorted by
 * pageviews the pages part already holds the page in order; otherwise every path is sorted here by
 * `sort` (null last in either direction, as ClickHouse sorts), then pathname by its UTF-8 bytes, and
 * `page` cut out.
 */
export function mergeRolledPageStats(
  parts: { pages: RolledPagesRow[]; sessions: RolledSessionsByPageRow[]; times: RolledTimeOnPageRow[] },
  sort: { field: PageSortField; order: 'asc' | 'desc' },
  page: { limit: number; offset: number },
): { data: PageTraffic[]; total: number } {
  const sessions = new Map(parts.sessions.map((row) => [row.hash, row]))
  const times = new Map(parts.times.map((row) => [row.pathname, row]))
  const data = parts.pages.map((row): PageTraffic => {
    const session = sessions.get(row.hash)
    const time = times.get(row.pathname)
    const entries = Number(session?.entries ?? 0)
    const timed = Number(time?.timed ?? 0)
    return {
      pathname: row.pathname,
      pageviews: Number(row.pageviews),
      visitors: Number(row.visitors),
      entries,
      exits: Number(session?.exits ?? 0),
      bounce_rate: entries === 0 ? 0 : Number(session?.bounces ?? 0) / entries,
      time_on_page: timed === 0 ? null : Number(time?.time_ms) / timed / 1000,
    }
  })
  const total = parts.pages.length > 0 ? Number(parts.pages[0]?.total_pages) : 0
  if (sort.field === 'pageviews') return { data, total }
  const direction = sort.order === 'asc' ? 1 : -1
  const bytes = new Map(data.map((row) => [row.pathname, Buffer.from(row.pathname)]))
  data.sort((a, b) => {
    const [x, y] = [a[sort.field], b[sort.field]]
    const order = x === null || y === null ? compareValues(x, y) : direction * compareValues(x, y)
    return order !== 0
      ? order
      : Buffer.compare(bytes.get(a.pathname) as Buffer, bytes.get(b.pathname) as Buffer)
  })
  return { data: data.slice(page.offset, page.offset + page.limit), total }
}
