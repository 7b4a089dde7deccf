/**
 * 003: the rollups, hourly aggregates of `events` kept by materialized views, from which unfiltered
 * reports over any range answer without scanning raw events (`query/rollups/`).
 *
 * - `session_hours`: one row per (site, UTC hour, session) with the session's figures over its events
 *   in that hour: visitor, first and last event time, pageviews, interactions, and its first event's
 *   time and channel packed into one number (`first_channel`: epoch ms × 64 + the channel's code in
 *   `ROLLED_CHANNELS`), whose minimum over the hours names the session's entry channel. The overview
 *   and the channels breakdown group the hours of the range by session and get the same per-session
 *   rows the raw queries build, exactly: a session cut by the range's edge keeps only its hours inside
 *   it, as the raw report keeps only its events inside it (ranges are whole hours unless the time zone
 *   has a half-hour offset, and then reports read raw events). Entry and exit pages and referrers are
 *   not kept: grouping a year's 1.3 M sessions with a (time, text) pair each measured slower than
 *   their raw breakdowns (a (time, channel) pair did too: 496 against 353 ms; the packed number does not).
 * - `event_hours`: one row per (site, dimension, UTC hour, value): events, pageviews and custom events
 *   counted exactly, visitors and sessions as `uniqCombined64` states (estimates: within 1 % of exact,
 *   exact for small sets). Dimension '' is the site's total (value ''); `pathname` counts pageviews
 *   only and `event_name` custom events only, as their reports do; the others every event.
 *
 * AggregatingMergeTree merges rows of the same key in the background; readers always aggregate
 * (GROUP BY), so unmerged rows of separate inserts are never counted twice. Deletes of raw events
 * (retention, site deletion) delete the same hours here (`query/rollups/rollup-maintenance.ts`).
 * Backfill: `backfillRollups` fills both from the events already stored, month by month; it runs right
 * after the views exist, before the process accepts traffic (several processes sharing one ClickHouse
 * server: upgrade with ingest stopped, or events arriving between the two steps count twice).
 */
import type { EventsStore } from '../events-store.js'

/**
 * The event dimensions rolled up besides pathnames and event names (`events` column names): those of
 * the overview's first paint and the devices card. Each one costs insert time and disk in proportion
 * (every event adds a row per dimension to the view's block, and its visitor and session hashes to the
 * dimension's states); regions, languages and UTM breakdowns, a click away, read raw events.
 */
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

/** `session_hours.first_channel` back to the entry channel's name (as the aggregate over a session). */
export const ENTRY_CHANNEL_SQL = `arrayElement(['', ${channelArray.slice(1, -1)}], toUInt8(positiveModulo(min(first_channel), 64)) + 1)`

/** The rollup tables (for whole-table chores: merging parts in benchmarks, deleting a site's rows). */
export const ROLLUP_TABLES = ['session_hours', 'event_hours'] as const

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
  min(toUnixTimestamp64Milli(timestamp) * 64 + toInt64(indexOf(${channelArray}, channel))) AS first_channel
FROM events`

const dimensionTuples = [
  "('', '')",
  ...ROLLED_EVENT_DIMENSIONS.map((name) => `('${name}', toString(${name}))`),
].join(', ')

/** The SELECT that turns event rows into `event_hours` rows. */
export const eventHoursSelect = `SELECT
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

const sessionHoursGroup = 'GROUP BY site_id, hour, session_key'
const eventHoursGroup = 'GROUP BY site_id, dimension, hour, value'

/** `INSERT ... SELECT` statements that roll up the events matching `where` into both tables. */
export function rollupInserts(where: string): string[] {
  return [
    `INSERT INTO session_hours ${sessionHoursSelect} WHERE ${where} ${sessionHoursGroup}`,
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
      first_channel SimpleAggregateFunction(min, Int64)
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
 * Roll up the events stored before the views existed, one month at a time (bounded memory). Empties both
 * tables first, so that a backfill cut off halfway and run again counts nothing twice.
 * @throws the store's error (the migration is then not recorded and runs again at the next start)
 */
export async function backfillRollups(store: EventsStore): Promise<void> {
  await store.command('TRUNCATE TABLE session_hours')
  await store.command('TRUNCATE TABLE event_hours')
  const months = await store.query<{ month: number }>(
    'SELECT DISTINCT toYYYYMM(timestamp) AS month FROM events ORDER BY month',
  )
  for (const { month } of months) {
    for (const statement of rollupInserts(`toYYYYMM(timestamp) = ${Number(month)}`)) {
      await store.command(statement)
    }
  }
}
