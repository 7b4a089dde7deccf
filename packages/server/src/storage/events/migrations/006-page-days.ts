/**
 * 006: `page_days` and `page_months`, the pages breakdown's rollups at day and month grain: one row per
 * (site, UTC day or month, pathname) with the pageviews summed exactly and the visitors and sessions as
 * `uniqCombined64` states, as `event_hours` holds them per hour. Kept by chained materialized views:
 * every insert into `event_hours` (by its own view on `events`, a backfill, retention's refill) passes
 * its pathname rows, already grouped by hour, to `page_days_view`, and every insert into `page_days` to
 * `page_months_view`; each merges a few states per inserted block, not one per event.
 *
 * Why: the pages breakdown with visitors or sessions (the API's default) merged one state per hour and
 * path of the range from `event_hours`, 8,760 per path over a year, and `event_hours`, sorted by hour,
 * had every path's states of the range read to find the page's paths (10 M events, 365 days, 50 rows:
 * 237 ms p50 on a quiet machine). A year now reads a state per path for each whole month, each whole
 * day outside those months and each hour outside those days (`query/rollups/rolled-pages.ts`). Sorted by
 * (site, pathname, time) in small granules (a granule's states are deserialized whole, wanted or not,
 * and a busy path's state is a 96 KiB HyperLogLog), a page's paths are read as short key ranges.
 * Merging the states of all three grains gives what the hours alone give (a union of sets): equal
 * answers, tested.
 *
 * Deletes follow the raw events' (`query/rollups/rollup-maintenance.ts`: a site's rows; retention's
 * whole days and months before the cutoff, and the cutoff's day and month rebuilt from the grain
 * below). Backfill: from `event_hours`, month by month, before the process accepts traffic (as 003 and
 * 004; several processes sharing one ClickHouse server: upgrade with ingest stopped).
 */
import type { EventsStore } from '../events-store.js'

/** The tables of this migration, finest grain first. */
export const PAGE_ROLLUP_TABLES = ['page_days', 'page_months'] as const

const stateColumns = `pageview_count SimpleAggregateFunction(sum, UInt64),
      visitor_state AggregateFunction(uniqCombined64, UInt64),
      session_state AggregateFunction(uniqCombined64, UInt64)`

/** `SELECT` turning rows of `source` into rows starting at `period` (`<expression> AS <column>`). */
const rollUpSelect = (source: string, period: string, pathname: string): string => `SELECT
  site_id,
  ${period},
  ${pathname},
  sum(pageview_count) AS pageview_count,
  uniqCombined64MergeState(visitor_state) AS visitor_state,
  uniqCombined64MergeState(session_state) AS session_state
FROM ${source}`

const pageDaysSelect = rollUpSelect('event_hours', 'toStartOfDay(hour) AS day', 'value AS pathname')
const pageMonthsSelect = rollUpSelect(
  'page_days',
  "toDateTime(toStartOfMonth(day), 'UTC') AS month",
  'pathname',
)
const pageDaysGroup = 'GROUP BY site_id, day, pathname'
const pageMonthsGroup = 'GROUP BY site_id, month, pathname'

/**
 * The `INSERT ... SELECT` rolling up the `event_hours` pathname rows matching `where` (a condition on
 * `event_hours`) into `page_days`; `page_months_view` passes them on to `page_months`. The caller makes
 * sure those rows are in neither table yet.
 */
export const pageDaysInsert = (where: string): string =>
  `INSERT INTO page_days ${pageDaysSelect} WHERE dimension = 'pathname' AND ${where} ${pageDaysGroup}`

/**
 * The `INSERT ... SELECT` rolling up the `page_days` rows matching `where` into `page_months` (no view
 * follows). The caller makes sure those rows are in no `page_months` row yet.
 */
export const pageMonthsInsert = (where: string): string =>
  `INSERT INTO page_months ${pageMonthsSelect} WHERE ${where} ${pageMonthsGroup}`

/** Migration 006: both tables, their chained views, and the backfill. */
export const pageDaysTable = {
  name: '006-page-days',
  statements: [
    `CREATE TABLE IF NOT EXISTS page_days (
      site_id UInt32,
      day DateTime('UTC'),
      pathname String,
      ${stateColumns}
    )
    ENGINE = AggregatingMergeTree
    PARTITION BY toYYYYMM(day)
    ORDER BY (site_id, pathname, day)
    SETTINGS index_granularity = 64`,
    `CREATE TABLE IF NOT EXISTS page_months (
      site_id UInt32,
      month DateTime('UTC'),
      pathname String,
      ${stateColumns}
    )
    ENGINE = AggregatingMergeTree
    PARTITION BY toYear(month)
    ORDER BY (site_id, pathname, month)
    SETTINGS index_granularity = 16`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS page_days_view TO page_days AS
     ${pageDaysSelect} WHERE dimension = 'pathname' ${pageDaysGroup}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS page_months_view TO page_months AS
     ${pageMonthsSelect} ${pageMonthsGroup}`,
  ],
  backfill: backfillPageRollups,
} as const

/**
 * Roll up the `event_hours` pathname rows stored before the views existed, one month at a time (each
 * month's `page_days` insert passes on to `page_months` through its view); both tables are emptied
 * first, so a backfill cut off halfway can run again.
 * @throws the store's error (the migration is then not recorded and runs again at the next start)
 */
export async function backfillPageRollups(store: EventsStore): Promise<void> {
  for (const table of PAGE_ROLLUP_TABLES) await store.command(`TRUNCATE TABLE ${table}`)
  const months = await store.query<{ month: number }>(
    "SELECT DISTINCT toYYYYMM(hour) AS month FROM event_hours WHERE dimension = 'pathname' ORDER BY month",
  )
  for (const { month } of months) {
    await store.command(pageDaysInsert(`toYYYYMM(hour) = ${Number(month)}`))
  }
}
