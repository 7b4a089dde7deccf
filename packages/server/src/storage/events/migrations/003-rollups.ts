/**
 * 003: the rollups, hourly aggregates of `events` kept by materialized views, from which unfiltered
 * reports over any range answer without scanning raw events (`query/rollups/`).
 *
 * - `session_hours`: one row per (site, UTC hour, session) with the session's figures over its events
 *   in that hour: visitor, first and last event time, pageviews, interactions, and four packed
 *   numbers whose minimum or maximum over the hours names what a session breakdown groups by:
 *   `first_channel` (epoch ms × 64 + the first event's channel code in `ROLLED_CHANNELS`),
 *   `first_referrer` ((epoch ms + 2^62) × 2^64 + cityHash64 of the first event's referrer domain, as
 *   UInt128), `first_pageview` and `last_pageview` (the same of the first and last pageview's
 *   pathname; hours without pageviews hold the neutral value). The overview and the channels,
 *   referrers, entry and exit pages breakdowns group the hours of the range by session and get the
 *   same per-session rows the raw queries build, exactly: a session cut by the range's edge keeps only
 *   its hours inside it, as the raw report keeps only its events inside it (ranges are whole hours
 *   unless the time zone has a half-hour offset, and then reports read raw events). Numbers, because
 *   the same pairs as (time, text) or (Int64, UInt64) tuples measured no faster than the raw
 *   breakdowns (bench/README.md "query: rollups against raw events").
 * - `event_hours`: one row per (site, dimension, UTC hour, value): events, pageviews and custom events
 *   counted exactly, visitors and sessions as `uniqCombined64` states (estimates: within 1 % of exact,
 *   exact for small sets). Dimension '' is the site's total (value ''); `pathname` counts pageviews
 *   only and `event_name` custom events only, as their reports do; the others every event. (Migration
 *   004 moved the others, `ROLLED_EVENT_DIMENSIONS`, to a table of their own.)
 *
 * (Migration 008 recreates `session_hours` with the packed columns as UInt256, the event's time and id
 * before the value, so that ties on the same millisecond are broken by event id, as raw reports break
 * them; its `entryChannelOf` and `packedHash` read that layout.)
 *
 * AggregatingMergeTree merges rows of the same key in the background; readers always aggregate
 * (GROUP BY), so unmerged rows of separate inserts are never counted twice. Deletes of raw events
 * (retention, site deletion) delete the same hours here (`query/rollups/rollup-maintenance.ts`).
 * Backfill: `backfillRollups` fills both from the events already stored, month by month; it runs right
 * after the views exist, before the process accepts traffic (several processes sharing one ClickHouse
 * server: upgrade with ingest stopped, or events arriving between the two steps count twice).
 */
import type { EventsStore } from '../events-store.js'
import { refillByMonth } from './refill-by-month.js'

/**
 * The channels `session_hours` codes, by position (code = index + 1; 0 for '' and any other text, which
 * the importer rejects). Frozen with this migration: a channel added later needs a migration that
 * appends it and recreates the view (a test compares this list with `ingest/enrich/channel.ts`).
 */
export const ROLLED_CHANNELS = [
  'Direct',
  'Organic Search',
  'Paid Search',
  'Organic Social',
  'Paid Social',
  'Email',
  'Affiliates',
  'Display',
  'Video',
  'Referral',
  'Internal',
] as const

const channelArray = `[${ROLLED_CHANNELS.map((name) => `'${name}'`).join(', ')}]`

/** An event's time and a text column as one UInt128: (epoch ms + 2^62) × 2^64 + cityHash64(text). */
const packedTimeAnd = (column: string): string =>
  `bitShiftLeft(toUInt128(toUnixTimestamp64Milli(timestamp) + 4611686018427387904), 64) + cityHash64(${column})`
const UINT128_MAX = "toUInt128('340282366920938463463374607431768211455')"

/** This migration's tables (every rollup table: `ROLLUP_TABLES` of `../rollup-tables.ts`). */
export const SESSION_AND_EVENT_HOURS = ['session_hours', 'event_hours'] as const

/**
 * The event dimensions this migration rolled up besides pathnames and event names (`events` column
 * names). Each one costs insert time and disk in proportion (every event adds a row per dimension to
 * the view's block, and its visitor and session hashes to the dimension's states); migration 004 moved
 * them to a cheaper and faster table of their own (`004-session-dimension-hours.ts`).
 */
export const ROLLED_EVENT_DIMENSIONS = ['country', 'browser', 'operating_system', 'device_type'] as const

/** The SELECT that turns event rows into `session_hours` rows (the view's, and the backfill's). */
export const sessionHoursSelect = `SELECT
  site_id,
  toStartOfHour(timestamp) AS hour,
  cityHash64(session_id) AS session_key,
  any(cityHash64(user_id)) AS visitor,
  min(timestamp) AS first_at,
  max(timestamp) AS last_at,
  countIf(type = 'pageview') AS pageviews,
  countIf(type IN ('custom_event', 'outbound')) AS interactions,
  min(toUnixTimestamp64Milli(timestamp) * 64 + toInt64(indexOf(${channelArray}, channel))) AS first_channel,
  min(${packedTimeAnd('referrer_domain')}) AS first_referrer,
  min(if(type = 'pageview', ${packedTimeAnd('pathname')}, ${UINT128_MAX})) AS first_pageview,
  maxIf(${packedTimeAnd('pathname')}, type = 'pageview') AS last_pageview
FROM events`

/**
 * The SELECT that turns event rows into `event_hours` rows: the site's total, pathnames of pageviews,
 * names of custom events, and one row per event for each of `dimensions` (`events` columns).
 */
export const eventHoursSelectOf = (dimensions: readonly string[]): string => {
  const dimensionTuples = ["('', '')", ...dimensions.map((name) => `('${name}', toString(${name}))`)].join(
    ', ',
  )
  return `SELECT
  site_id,
  dimension_value.1 AS dimension,
  toStartOfHour(timestamp) AS hour,
  dimension_value.2 AS value,
  count() AS event_count,
  countIf(type = 'pageview') AS pageview_count,
  countIf(type = 'custom_event') AS custom_event_count,
  uniqCombined64State(cityHash64(user_id)) AS visitor_state,
  uniqCombined64State(cityHash64(session_id)) AS session_state
FROM events
ARRAY JOIN arrayConcat(
  [${dimensionTuples}],
  if(type = 'pageview', [('pathname', pathname)], []),
  if(type = 'custom_event', [('event_name', event_name)], [])
) AS dimension_value`
}

/** This migration's `event_hours` SELECT (migration 004 replaces the view with one of fewer dimensions). */
export const eventHoursSelect = eventHoursSelectOf(ROLLED_EVENT_DIMENSIONS)

const sessionHoursGroup = 'GROUP BY site_id, hour, session_key'
/** The GROUP BY of every `event_hours` SELECT. */
export const eventHoursGroup = 'GROUP BY site_id, dimension, hour, value'

/** The `INSERT ... SELECT` that rolls up the events matching `where` into `session_hours`. */
export const sessionHoursInsert = (where: string): string =>
  `INSERT INTO session_hours ${sessionHoursSelect} WHERE ${where} ${sessionHoursGroup}`

/** `INSERT ... SELECT` statements rolling up the events matching `where` into both tables, as of 003. */
function sessionAndEventHoursInserts(where: string): string[] {
  return [
    sessionHoursInsert(where),
    `INSERT INTO event_hours ${eventHoursSelect} WHERE ${where} ${eventHoursGroup}`,
  ]
}

export const rollupTables = {
  name: '003-rollups',
  statements: [
    `CREATE TABLE IF NOT EXISTS session_hours (
      site_id UInt32,
      hour DateTime('UTC'),
      session_key UInt64,
      visitor SimpleAggregateFunction(any, UInt64),
      first_at SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
      last_at SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
      pageviews SimpleAggregateFunction(sum, UInt64),
      interactions SimpleAggregateFunction(sum, UInt64),
      first_channel SimpleAggregateFunction(min, Int64),
      first_referrer SimpleAggregateFunction(min, UInt128),
      first_pageview SimpleAggregateFunction(min, UInt128),
      last_pageview SimpleAggregateFunction(max, UInt128)
    )
    ENGINE = AggregatingMergeTree
    PARTITION BY toYYYYMM(hour)
    ORDER BY (site_id, hour, session_key)`,
    `CREATE TABLE IF NOT EXISTS event_hours (
      site_id UInt32,
      dimension LowCardinality(String),
      hour DateTime('UTC'),
      value String,
      event_count SimpleAggregateFunction(sum, UInt64),
      pageview_count SimpleAggregateFunction(sum, UInt64),
      custom_event_count SimpleAggregateFunction(sum, UInt64),
      visitor_state AggregateFunction(uniqCombined64, UInt64),
      session_state AggregateFunction(uniqCombined64, UInt64)
    )
    ENGINE = AggregatingMergeTree
    PARTITION BY toYYYYMM(hour)
    ORDER BY (site_id, dimension, hour, value)`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS session_hours_view TO session_hours AS
     ${sessionHoursSelect} ${sessionHoursGroup}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS event_hours_view TO event_hours AS
     ${eventHoursSelect} ${eventHoursGroup}`,
  ],
  backfill: backfillRollups,
} as const

/**
 * Roll up the events stored before the views existed into both tables, month by month
 * (`refillByMonth`: it can run again after being cut off).
 * @throws the store's error (the migration is then not recorded and runs again at the next start)
 */
export function backfillRollups(store: EventsStore): Promise<void> {
  return refillByMonth(store, SESSION_AND_EVENT_HOURS, sessionAndEventHoursInserts)
}
