/**
 * 008: the session rollups name a session's first event, first pageview and last pageview in
 * `EVENT_ORDER` (`query/metrics.ts`: by timestamp, then by event id as its text sorts), the order the
 * raw reports take, so both name the same event when several share a millisecond.
 *
 * Before, `session_hours` packed (epoch ms, cityHash64 of the text) into a UInt128 and took its minimum
 * or maximum: events of the same millisecond were told apart by their text's hash, not by anything the
 * raw reports knew, and an import with second precision (an access log) has many. Entry and exit
 * pages, entry channels and referrers then differed between a rolled report and the same report read
 * raw (a no-op filter), and between a site and its export imported into another.
 *
 * Now the four packed columns of `session_hours` and `session_summaries` are UInt256:
 * `EVENT_ORDER_KEY` (the event's (epoch ms + 2^62) × 2^128 + its id's 128 bits) × 2^64 + a 64-bit value,
 * the text's cityHash64 (`first_referrer`, `first_pageview`, `last_pageview`) or the channel's code in
 * `ROLLED_CHANNELS` (`first_channel`). Their minimum or maximum over a session's hours is its first or
 * last event in `EVENT_ORDER`, and the low 64 bits its value; two rows tie only on the same event.
 *
 * The statements drop both tables and the views writing them and create them anew (their columns'
 * types change, and every stored value must be recomputed anyway). Backfill: `session_hours` from the
 * stored events, month by month, then every session folded again, before the process accepts traffic
 * (as 003 and 005; several processes sharing one ClickHouse server: upgrade with ingest stopped).
 * Until then no report reads the tables: the migration runs before the server listens.
 */
import type { EventsStore } from '../events-store.js'
import { foldSessions } from '../fold-sessions.js'
import { ROLLED_CHANNELS } from './003-rollups.js'
import { SUMMARY_FOLDS_005, sessionChangesView } from './005-session-summaries.js'
import { refillByMonth } from './refill-by-month.js'

/**
 * `EVENT_ORDER_KEY` of `query/metrics.ts`, repeated here: a migration's SQL must not change when the
 * query layer's does (a test checks that the two are equal today).
 */
export const ROLLED_EVENT_ORDER_KEY =
  'bitOr(bitShiftLeft(toUInt256(toUnixTimestamp64Milli(timestamp) + 4611686018427387904), 128), toUInt256(toUInt128(event_id)))'

/** A channel list as a ClickHouse array literal (`['Direct', 'Organic Search', ...]`). */
export const channelArrayOf = (list: readonly string[]): string =>
  `[${list.map((name) => `'${name}'`).join(', ')}]`

/** The channel codes of 008's view and backfill (frozen: 003's list). */
const frozenChannelArray = channelArrayOf(ROLLED_CHANNELS)

/** An event's place in `EVENT_ORDER` and a 64-bit value (a UInt64 expression) as one UInt256. */
const packedEventAnd = (value: string): string =>
  `bitOr(bitShiftLeft(${ROLLED_EVENT_ORDER_KEY}, 64), toUInt256(${value}))`

const UINT256_MAX = 'toUInt256(-1)'

/**
 * The SELECT that turns event rows into `session_hours` rows as of this migration (its view's and
 * backfill's; 014's view with a longer channel list), coding channels by `channels` (an array literal).
 */
export const sessionHoursSelectOf = (channels: string): string => `SELECT
  site_id,
  toStartOfHour(timestamp) AS hour,
  cityHash64(session_id) AS session_key,
  any(cityHash64(user_id)) AS visitor,
  min(timestamp) AS first_at,
  max(timestamp) AS last_at,
  countIf(type = 'pageview') AS pageviews,
  countIf(type IN ('custom_event', 'outbound')) AS interactions,
  min(${packedEventAnd(`toUInt64(indexOf(${channels}, channel))`)}) AS first_channel,
  min(${packedEventAnd('cityHash64(referrer_domain)')}) AS first_referrer,
  min(if(type = 'pageview', ${packedEventAnd('cityHash64(pathname)')}, ${UINT256_MAX})) AS first_pageview,
  maxIf(${packedEventAnd('cityHash64(pathname)')}, type = 'pageview') AS last_pageview
FROM events`

/** The GROUP BY of `sessionHoursSelectOf`. */
export const sessionHoursGroup = 'GROUP BY site_id, hour, session_key'

/** The `INSERT ... SELECT` of this migration's backfill (frozen; today's: `../rollup-schema/session-hours.ts`). */
const sessionHoursInsert = (where: string): string =>
  `INSERT INTO session_hours ${sessionHoursSelectOf(frozenChannelArray)} WHERE ${where} ${sessionHoursGroup}`

/** Migration 008: both tables and their views anew, then the backfill. */
export const eventOrderTables = {
  name: '008-event-order',
  statements: [
    'DROP VIEW IF EXISTS session_hours_view',
    'DROP VIEW IF EXISTS session_changes_view',
    'DROP TABLE IF EXISTS session_hours',
    'DROP TABLE IF EXISTS session_summaries',
    `CREATE TABLE session_hours (
      site_id UInt32,
      hour DateTime('UTC'),
      session_key UInt64,
      visitor SimpleAggregateFunction(any, UInt64),
      first_at SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
      last_at SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
      pageviews SimpleAggregateFunction(sum, UInt64),
      interactions SimpleAggregateFunction(sum, UInt64),
      first_channel SimpleAggregateFunction(min, UInt256),
      first_referrer SimpleAggregateFunction(min, UInt256),
      first_pageview SimpleAggregateFunction(min, UInt256),
      last_pageview SimpleAggregateFunction(max, UInt256)
    )
    ENGINE = AggregatingMergeTree
    PARTITION BY toYYYYMM(hour)
    ORDER BY (site_id, hour, session_key)`,
    `CREATE TABLE session_summaries (
      site_id UInt32,
      start_hour DateTime('UTC'),
      end_hour DateTime('UTC'),
      session_key UInt64,
      visitor UInt64,
      first_at DateTime64(3, 'UTC'),
      last_at DateTime64(3, 'UTC'),
      pageviews UInt64,
      interactions UInt64,
      first_channel UInt256,
      first_referrer UInt256,
      first_pageview UInt256,
      last_pageview UInt256,
      INDEX end_hour_range end_hour TYPE minmax GRANULARITY 1
    )
    ENGINE = MergeTree
    PARTITION BY toYYYYMM(start_hour)
    ORDER BY (site_id, start_hour, session_key)`,
    `CREATE MATERIALIZED VIEW session_hours_view TO session_hours AS
     ${sessionHoursSelectOf(frozenChannelArray)} ${sessionHoursGroup}`,
    sessionChangesView,
  ],
  backfill: backfillEventOrder,
} as const

/**
 * Roll up the stored events into the new `session_hours`, month by month (`refillByMonth`: it can run
 * again after being cut off), then fold every session anew: the marks of `session_changes` are emptied
 * first, and the refill's inserts mark every hour changed through the recreated view.
 * @throws the store's error (the migration is then not recorded and runs again at the next start)
 */
export async function backfillEventOrder(store: EventsStore): Promise<void> {
  await store.command('TRUNCATE TABLE session_changes')
  await store.command('TRUNCATE TABLE session_summaries')
  await refillByMonth(store, ['session_hours'], (where) => [sessionHoursInsert(where)])
  await foldSessions(store, { settleMs: 0, folds: SUMMARY_FOLDS_005 })
}
