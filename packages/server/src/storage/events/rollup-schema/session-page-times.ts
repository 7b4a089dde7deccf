/**
 * `session_page_times` as it is today (migration 010): the time on page of folded sessions, one row
 * per (session, pathname), written by the fold (`../fold-sessions.ts`) next to each summary.
 * Migration 010 keeps a frozen copy.
 */
import { EVENT_ORDER, SESSION_KEY } from '../../../query/metrics.js'

/**
 * `INSERT ... SELECT` of the page times of the site's sessions chosen by `sessions` (a subquery of
 * `session_key`s over `session_summaries`' rows, whose summaries must be written first: a session
 * without one gets no row), reading only their events on the days `days` (a subquery of `Date`s in
 * UTC holding every event of those sessions). Placeholder `site` and those of the subqueries.
 */
export function sessionPageTimesInsert(sessions: string, days: string): string {
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
