/**
 * 017: `imported_days`, another tool's history kept as daily totals (Plausible's CSV export): one row
 * per (site, dimension, day, value) with the counts that tool reported for it. `dimension` is a
 * Pathlight breakdown name (`pages`, `entry_pages`, `exit_pages`, `referrers`, `utm_source`,
 * `utm_medium`, `utm_campaign`, `countries`, `device_types`, `browsers`, `operating_systems`), `visitors`
 * for the day's totals (value '') or `custom_events` (value the event name). `day` is the calendar day
 * in the source's time zone, as the source wrote it; counts are whole numbers, `visit_duration` in
 * seconds summed over the day's visits.
 *
 * Written only by the Plausible import (`transfer/import-plausible.ts`), which replaces a site's rows
 * as a whole; read by `query/imported-totals.ts`. Deleting a site deletes its rows.
 */

/** This migration's table. */
const IMPORTED_DAYS = 'imported_days'

/** Migration 017: the table. */
export const importedDaysTable = {
  name: '016-imported-days',
  statements: [
    `CREATE TABLE IF NOT EXISTS ${IMPORTED_DAYS} (
      site_id UInt32,
      dimension LowCardinality(String),
      day Date,
      value String,
      visitors UInt64,
      visits UInt64,
      pageviews UInt64,
      bounces UInt64,
      visit_duration UInt64,
      events UInt64
    )
    ENGINE = MergeTree
    ORDER BY (site_id, dimension, day, value)`,
  ],
} as const
