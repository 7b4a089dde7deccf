/**
 * `page_days`, `page_months` and `page_month_seals` as they are today (migration 006): the pages
 * breakdown's rollups at day and month grain, and the months' seals. Migration 006 keeps a frozen copy.
 */

/** The tables' names. */
export const PAGE_ROLLUP_TABLES = ['page_days', 'page_months', 'page_month_seals'] as const

/**
 * The `INSERT ... SELECT` rolling up the `event_hours` pathname rows matching `where` (a condition on
 * `event_hours`) into `page_days`. The caller makes sure those rows are in no `page_days` row yet.
 */
export const pageDaysInsert = (where: string): string =>
  `INSERT INTO page_days SELECT
  site_id,
  toStartOfDay(hour) AS day,
  value AS pathname,
  sum(pageview_count) AS pageview_count,
  uniqCombined64MergeState(visitor_state) AS visitor_state,
  uniqCombined64MergeState(session_state) AS session_state
FROM event_hours WHERE dimension = 'pathname' AND ${where} GROUP BY site_id, day, pathname`
