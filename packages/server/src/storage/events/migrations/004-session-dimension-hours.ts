/**
 * 004: `session_dimension_hours`, the rollup of the event breakdowns but pages: countries, regions,
 * cities, languages, browsers, operating systems, device types and UTM source, medium and campaign.
 * One row per (site, UTC hour, session, visitor, and the combination of those ten values among the
 * session's events in that hour), with the events and pageviews of that combination, kept by a
 * materialized view. The four of them `event_hours` held (003) leave it: its view is replaced by one
 * without them, and their rows are deleted.
 *
 * Why: in `event_hours` every event adds a row per dimension and its visitor and session hashes to
 * that row's `uniqCombined64` states, so each dimension costs insert time and disk in proportion, and a
 * year's breakdown merges a state per hour and value, which holds most of the same hashes again. A
 * session keeps its country, browser, language and UTM values through an hour, so here nearly every
 * session-hour is one row whatever the number of dimensions, the view is one GROUP BY of the inserted
 * block by plain columns, and a breakdown counts the rows' hashes with `uniqCombined64` once
 * (`query/rollups/rolled-dimensions.ts`), which measured faster than merging `event_hours`' states at
 * a small insert cost (bench/README.md "Regions, cities, languages and UTM from
 * `session_dimension_hours`").
 *
 * AggregatingMergeTree sums `event_count` and `pageview_count` of rows with the same key in background
 * merges; readers aggregate, so unmerged rows are never counted twice. Deletes follow the raw events'
 * (`query/rollups/rollup-maintenance.ts`). Backfill: from the stored events, month by month, before the
 * process accepts traffic, with the deletion from `event_hours` (several processes sharing one
 * ClickHouse server: upgrade with ingest stopped, or events arriving meanwhile count twice).
 */
import type { EventsStore } from '../events-store.js'
import { eventHoursGroup, eventHoursSelectOf, ROLLED_EVENT_DIMENSIONS } from './003-rollups.js'
import { refillByMonth } from './refill-by-month.js'

/**
 * The `events` columns this rollup keeps, each also a column of `session_dimension_hours` with the
 * same name and type, frozen with this migration (today's: `../rollup-schema/session-dimension-hours.ts`).
 */
const SESSION_DIMENSION_COLUMNS = [
  'country',
  'region',
  'city',
  'language',
  'browser',
  'operating_system',
  'device_type',
  'utm_source',
  'utm_medium',
  'utm_campaign',
] as const

const columns = SESSION_DIMENSION_COLUMNS.join(', ')
const group = `GROUP BY site_id, hour, session_key, visitor, ${columns}`

/** The SELECT that turns event rows into `session_dimension_hours` rows (the view's, the backfill's). */
const sessionDimensionHoursSelect = `SELECT
  site_id,
  toStartOfHour(timestamp) AS hour,
  cityHash64(session_id) AS session_key,
  cityHash64(user_id) AS visitor,
  ${columns},
  count() AS event_count,
  countIf(type = 'pageview') AS pageview_count
FROM events`

/** The `INSERT ... SELECT` that rolls up the events matching `where` into `session_dimension_hours`. */
const sessionDimensionHoursInsert = (where: string): string =>
  `INSERT INTO session_dimension_hours ${sessionDimensionHoursSelect} WHERE ${where} ${group}`

/** Migration 004: the table, its view, `event_hours`' narrower view, and the backfill. */
export const sessionDimensionHoursTable = {
  name: '004-session-dimension-hours',
  statements: [
    `CREATE TABLE IF NOT EXISTS session_dimension_hours (
      site_id UInt32,
      hour DateTime('UTC'),
      session_key UInt64,
      visitor UInt64,
      country LowCardinality(String),
      region LowCardinality(String),
      city String,
      language LowCardinality(String),
      browser LowCardinality(String),
      operating_system LowCardinality(String),
      device_type LowCardinality(String),
      utm_source String,
      utm_medium LowCardinality(String),
      utm_campaign String,
      event_count SimpleAggregateFunction(sum, UInt64),
      pageview_count SimpleAggregateFunction(sum, UInt64)
    )
    ENGINE = AggregatingMergeTree
    PARTITION BY toYYYYMM(hour)
    ORDER BY (site_id, hour, session_key, visitor, ${columns})`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS session_dimension_hours_view TO session_dimension_hours AS
     ${sessionDimensionHoursSelect} ${group}`,
    // `event_hours` keeps the site's total, pathnames and event names only.
    'DROP VIEW IF EXISTS event_hours_view',
    `CREATE MATERIALIZED VIEW event_hours_view TO event_hours AS ${eventHoursSelectOf([])} ${eventHoursGroup}`,
    `DELETE FROM event_hours WHERE dimension IN (${ROLLED_EVENT_DIMENSIONS.map((d) => `'${d}'`).join(', ')})`,
  ],
  backfill: backfillSessionDimensionHours,
} as const

/**
 * Roll up the events stored before the view existed into `session_dimension_hours`, month by month
 * (`refillByMonth`: it can run again after being cut off).
 * @throws the store's error (the migration is then not recorded and runs again at the next start)
 */
export function backfillSessionDimensionHours(store: EventsStore): Promise<void> {
  return refillByMonth(store, ['session_dimension_hours'], (where) => [sessionDimensionHoursInsert(where)])
}
