/**
 * 006: `page_days` and `page_months`, the pages breakdown's rollups at day and month grain: one row per
 * (site, UTC day or month, pathname) with the pageviews summed exactly and the visitors and sessions as
 * `uniqCombined64` states, as `event_hours` holds them per hour.
 *
 * - `page_days` is kept by a materialized view on `event_hours` (a chained view: every insert into
 *   `event_hours`, by its own view on `events`, a backfill or retention's refill, passes its pathname
 *   rows on, already grouped by hour, so the view merges a few states per inserted block).
 * - `page_months` holds closed months only, written once from `page_days` by the server's fold pass
 *   (`../seal-page-months.ts`). `page_month_seals` has per (site, month) the last insert into
 *   `page_days` (`changed_at`, kept by a view) and the last one a seal saw (`sealed_at`); a month inserted
 *   into since is read from its days until sealed again. A view filling `page_months` added CPU to
 *   every insert (bench/README.md "Pages by day and month"): every insert rewrote the current month's
 *   states, HyperLogLogs of 96 KiB for busy paths, in the merges of the parts it made.
 *
 * Why: the pages breakdown with visitors or sessions (the API's default) merged one state per hour and
 * path of the range from `event_hours`, 8,760 per path over a year, and `event_hours`, sorted by hour,
 * had every path's states of the range read to find the page's paths. A year now reads a state per path
 * for each sealed whole month, each other whole day and each hour outside those days
 * (`query/rollups/rolled-pages.ts`). Sorted by (site,
 * pathname, time) in small granules (a granule's states are deserialized whole, wanted or not), a page's
 * paths are read as short key ranges. Merging the states of all grains gives what the hours alone give
 * (a union of sets): equal answers, tested.
 *
 * Deletes follow the raw events' (`query/rollups/rollup-maintenance.ts`: a site's rows; retention's
 * days before the cutoff, the cutoff's day rebuilt from `event_hours`, and the months up to the cutoff's
 * unsealed). Backfill: `page_days` from `event_hours`, month by month, then every closed month sealed,
 * before the process accepts traffic (as 003 and 004; several processes sharing one ClickHouse server:
 * upgrade with ingest stopped).
 */
import type { EventsStore } from '../events-store.js'
import { sealPageMonths } from '../seal-page-months.js'

/** The tables of this migration. */
const PAGE_ROLLUP_TABLES = ['page_days', 'page_months', 'page_month_seals'] as const

const stateColumns = `pageview_count SimpleAggregateFunction(sum, UInt64),
      visitor_state AggregateFunction(uniqCombined64, UInt64),
      session_state AggregateFunction(uniqCombined64, UInt64)`

/** The SELECT turning `event_hours` rows into `page_days` rows (the view's, backfill's, refill's). */
const pageDaysSelect = `SELECT
  site_id,
  toStartOfDay(hour) AS day,
  value AS pathname,
  sum(pageview_count) AS pageview_count,
  uniqCombined64MergeState(visitor_state) AS visitor_state,
  uniqCombined64MergeState(session_state) AS session_state
FROM event_hours`
const pageDaysGroup = 'GROUP BY site_id, day, pathname'

/**
 * The `INSERT ... SELECT` rolling up the `event_hours` pathname rows matching `where` (a condition on
 * `event_hours`) into `page_days`. The caller makes sure those rows are in no `page_days` row yet.
 */
const pageDaysInsert = (where: string): string =>
  `INSERT INTO page_days ${pageDaysSelect} WHERE dimension = 'pathname' AND ${where} ${pageDaysGroup}`

/** Migration 006: the tables, the views filling `page_days` and marking changed months, the backfill. */
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
    `CREATE TABLE IF NOT EXISTS page_month_seals (
      site_id UInt32,
      month DateTime('UTC'),
      changed_at SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
      sealed_at SimpleAggregateFunction(max, DateTime64(3, 'UTC'))
    )
    ENGINE = AggregatingMergeTree
    ORDER BY (site_id, month)`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS page_month_changes_view TO page_month_seals AS
     SELECT site_id, toDateTime(toStartOfMonth(day), 'UTC') AS month, now64(3, 'UTC') AS changed_at,
       toDateTime64(0, 3, 'UTC') AS sealed_at
     FROM page_days
     GROUP BY site_id, month`,
  ],
  backfill: backfillPageRollups,
} as const

/**
 * Roll up the `event_hours` pathname rows stored before the view existed into `page_days`, one month
 * at a time (the tables are emptied first, so a backfill cut off halfway can run again), then seal
 * every closed month.
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
  await sealPageMonths(store, { settleMs: 0 })
}
