/**
 * 011: `pathname_months`, the pathnames of each site's pageviews per UTC month: one row per (site,
 * month, pathname), no counts. Kept by a materialized view on `page_days` (every pageview's pathname
 * reaches `page_days` through `event_hours`, from ingest, imports, backfills and refills alike).
 *
 * Why: the session rollups keep a session's entry and exit page as a hash (`session_hours`,
 * `session_summaries`). The entry and exit pages breakdowns turn the hashes back into text by hashing
 * the range's pathnames. Those came from `page_days`, sorted by (site, pathname, day) for the pages
 * breakdown: listing a year's pathnames read every one of its rows, a large share of those
 * breakdowns' time (bench/README.md "Entry and exit pages: pathnames by month; v1 pages ranked
 * first"). This table lists them in a row per month and path.
 *
 * The month grain makes the list a superset of a range's pathnames: a range that starts or ends inside
 * a month also lists the pathnames of the month's other days. Retention keeps the cutoff's own month,
 * so the list may name a path whose events are gone. Neither matters for a lookup by hash: a text with
 * no session is never asked for.
 *
 * Deletes follow the raw events' (`query/rollups/rollup-maintenance.ts`: a site's rows; retention's
 * months before the cutoff's month; `query/rollups/erased-sessions.ts`: a visitor's erasure lists the
 * months of their events again from `page_days`, so no path only they viewed stays listed).
 * Backfill: from `page_days`, before the process accepts traffic (several processes sharing one
 * ClickHouse server: the names of events arriving meanwhile may be listed twice, which the table's
 * merges and a lookup both ignore).
 */
import type { EventsStore } from '../events-store.js'

/** This migration's table. */
const PATHNAME_MONTHS = 'pathname_months'

/** The SELECT turning `page_days` rows into `pathname_months` rows (the view's, backfill's, erasure's). */
const pathnameMonthsSelect = `SELECT site_id, toDateTime(toStartOfMonth(day), 'UTC') AS month, pathname
FROM page_days`
const pathnameMonthsGroup = 'GROUP BY site_id, month, pathname'

/** The `INSERT ... SELECT` listing the pathnames of the `page_days` rows matching `where`. */
const pathnameMonthsInsert = (where: string): string =>
  `INSERT INTO ${PATHNAME_MONTHS} ${pathnameMonthsSelect} WHERE ${where} ${pathnameMonthsGroup}`

/** Migration 011: the table, its view, the backfill. */
export const pathnameMonthsTable = {
  name: '011-pathname-months',
  statements: [
    `CREATE TABLE IF NOT EXISTS ${PATHNAME_MONTHS} (
      site_id UInt32,
      month DateTime('UTC'),
      pathname String
    )
    ENGINE = ReplacingMergeTree
    PARTITION BY toYear(month)
    ORDER BY (site_id, month, pathname)`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS pathname_months_view TO ${PATHNAME_MONTHS} AS
     ${pathnameMonthsSelect} ${pathnameMonthsGroup}`,
  ],
  backfill: backfillPathnameMonths,
} as const

/**
 * List the pathnames of every stored `page_days` row (the table is emptied first, so a backfill cut
 * off halfway can run again).
 * @throws the store's error (the migration is then not recorded and runs again at the next start)
 */
export async function backfillPathnameMonths(store: EventsStore): Promise<void> {
  await store.command(`TRUNCATE TABLE ${PATHNAME_MONTHS}`)
  await store.command(pathnameMonthsInsert('1'))
}
