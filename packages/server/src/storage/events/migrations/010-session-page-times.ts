/**
 * 010: `session_page_times`, the time on page of folded sessions: one row per (session, pathname)
 * with the pageviews on that path that had a next pageview in the session (`timed_pageviews`) and the
 * milliseconds from each to that next pageview, summed (`time_ms`; next in `EVENT_ORDER`, as the v1
 * pages report's raw query takes it). Written by the fold (`../fold-sessions.ts`) next to each
 * session's summary, with the summary's `start_hour`, `end_hour` and `visitor`, so that readers take
 * exactly the sessions whose summary they take (`query/rollups/rolled-page-stats.ts`) and every
 * deletion of summaries (a refold, retention, a visitor's erasure) deletes these rows by the same
 * condition.
 *
 * Why: time on page needs each pageview's successor in its session, a window over the range's
 * pageviews sorted by session: most of the v1 pages report's time over a year (bench/README.md "A
 * year of reports after an import"). A session wholly inside a range has all its pageviews in it, so
 * its successors are those of the range's window, and its folded sums are what the window gives.
 *
 * Backfill: the page times of every stored summary, one month of sessions (by `start_hour`) at a time.
 */
import type { EventsStore } from '../events-store.js'

/**
 * `EVENT_ORDER` and `SESSION_KEY` of `query/metrics.ts` as this migration's backfill took them, frozen:
 * a migration's SQL must not change when the query layer's does (a test checks they are equal today).
 */
export const FROZEN_EVENT_ORDER = 'timestamp, toUInt128(event_id)'
export const FROZEN_SESSION_KEY = 'cityHash64(session_id)'
const EVENT_ORDER = FROZEN_EVENT_ORDER
const SESSION_KEY = FROZEN_SESSION_KEY

/**
 * `INSERT ... SELECT` of the page times of the site's sessions chosen by `sessions` (a subquery of
 * `session_key`s over `session_summaries`' rows, whose summaries must be written first: a session
 * without one gets no row), reading only their events on the days `days` (a subquery of `Date`s in
 * UTC holding every event of those sessions). Placeholder `site` and those of the subqueries.
 */
function sessionPageTimesInsert(sessions: string, days: string): string {
  return `INSERT INTO session_page_times
  (site_id, start_hour, end_hour, session_key, visitor, pathname, timed_pageviews, time_ms)
  SELECT {site:UInt32}, s.start_hour, s.end_hour, t.session_key, s.visitor, t.pathname, count(), sum(t.ms)
  FROM (
    SELECT session_key, pathname, dateDiff('millisecond', timestamp, next_at) AS ms
    FROM (
      SELECT ${SESSION_KEY} AS session_key, pathname, timestamp,
        leadInFrame(toNullable(timestamp)) OVER (PARTITION BY ${SESSION_KEY} ORDER BY ${EVENT_ORDER}
          ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) AS next_at
      FROM events
      WHERE site_id = {site:UInt32} AND type = 'pageview' AND toDate(timestamp) IN (${days})
        AND ${SESSION_KEY} IN (${sessions})
    )
    WHERE next_at IS NOT NULL
  ) AS t
  INNER JOIN (
    SELECT session_key, start_hour, end_hour, visitor FROM session_summaries
    WHERE site_id = {site:UInt32} AND session_key IN (${sessions})
  ) AS s ON s.session_key = t.session_key
  GROUP BY s.start_hour, s.end_hour, t.session_key, s.visitor, t.pathname`
}

export const sessionPageTimesTable = {
  name: '010-session-page-times',
  statements: [
    `CREATE TABLE IF NOT EXISTS session_page_times (
      site_id UInt32,
      start_hour DateTime('UTC'),
      end_hour DateTime('UTC'),
      session_key UInt64,
      visitor UInt64,
      pathname String,
      timed_pageviews UInt32,
      time_ms UInt64,
      INDEX end_hour_range end_hour TYPE minmax GRANULARITY 1
    )
    ENGINE = MergeTree
    PARTITION BY toYYYYMM(start_hour)
    ORDER BY (site_id, start_hour, session_key)`,
  ],
  backfill: backfillSessionPageTimes,
} as const

/**
 * Fill `session_page_times` for every stored summary, site by site and month by month of `start_hour`.
 * @throws the store's error (emptied first, so a backfill cut off halfway runs again cleanly)
 */
export async function backfillSessionPageTimes(store: EventsStore): Promise<void> {
  await store.command('TRUNCATE TABLE session_page_times')
  const months = await store.query<{ site_id: number; month: string }>(
    `SELECT DISTINCT site_id, toString(toStartOfMonth(start_hour)) AS month FROM session_summaries
     ORDER BY site_id, month`,
  )
  const inMonth =
    "site_id = {site:UInt32} AND start_hour >= toDateTime({month:String}, 'UTC') AND start_hour < toDateTime({month:String}, 'UTC') + INTERVAL 1 MONTH"
  for (const { site_id: site, month } of months) {
    await store.command(
      sessionPageTimesInsert(
        `SELECT session_key FROM session_summaries WHERE ${inMonth}`,
        `SELECT DISTINCT addDays(toDate(start_hour), arrayJoin(range(toUInt32(dateDiff('day', toDate(start_hour), toDate(end_hour)) + 1))))
         FROM session_summaries WHERE ${inMonth}`,
      ),
      { site: Number(site), month: `${String(month)} 00:00:00` },
    )
  }
}
