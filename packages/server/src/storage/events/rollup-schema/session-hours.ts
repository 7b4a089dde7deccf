/**
 * `session_hours` as it is today (created by migration 003, recreated by 008, its view recreated by
 * 014 and 018, columns added by 018): one row per (site, UTC hour, session) with the session's
 * figures over its events in that hour, and packed columns whose minimum or maximum over a session's
 * hours names its first or last event in `EVENT_ORDER` (`query/metrics.ts`):
 * - `first_channel`, `first_referrer`, `first_pageview`, `last_pageview`: UInt256,
 *   `ROLLED_EVENT_ORDER_KEY` × 2^64 + a 64-bit value (the channel's code in `CODED_CHANNELS`, or the
 *   text's cityHash64);
 * - `first_country`, `first_utm_source`, `first_utm_medium`, `first_utm_campaign`: (the first event's
 *   `ROLLED_EVENT_ORDER_KEY`, its value as text) tuples, whose minimum carries the first event's text.
 *
 * What runtime code (refills, retention, erasure, the rolled reports) reads and writes; the migrations
 * keep frozen copies of what each of them created, so changing this file changes no old migration.
 */
import { CODED_CHANNELS, channelArrayOf } from './coded-channels.js'

/** The table's name. */
export const SESSION_HOURS = 'session_hours'

/**
 * `EVENT_ORDER_KEY` of `query/metrics.ts`, as the rollups store it: an event's (epoch ms + 2^62) ×
 * 2^128 + its id's 128 bits (a test checks that the two are equal).
 */
export const ROLLED_EVENT_ORDER_KEY =
  'bitOr(bitShiftLeft(toUInt256(toUnixTimestamp64Milli(timestamp) + 4611686018427387904), 128), toUInt256(toUInt128(event_id)))'

/** An event's place in `EVENT_ORDER` and a 64-bit value (a UInt64 expression) as one UInt256. */
const packedEventAnd = (value: string): string =>
  `bitOr(bitShiftLeft(${ROLLED_EVENT_ORDER_KEY}, 64), toUInt256(${value}))`

/**
 * The `events` columns whose first value per session `session_hours` and `session_summaries` keep as
 * text, each in the column `first_<name>` (a `(UInt256, String)` tuple: the event's order key, the value).
 */
export const FIRST_VISIT_COLUMNS = ['country', 'utm_source', 'utm_medium', 'utm_campaign'] as const

/** One of `FIRST_VISIT_COLUMNS`. */
export type FirstVisitColumn = (typeof FIRST_VISIT_COLUMNS)[number]

/** A session's first value from its folded `first_<column>` tuple (an SQL expression). */
export const firstVisitValue = (folded: string): string => `tupleElement(${folded}, 2)`

/** The 64-bit value (a text's cityHash64) inside a packed aggregate (`first_referrer`, `first_pageview`, ...). */
export const packedHash = (aggregate: string): string =>
  `toUInt64(bitAnd(${aggregate}, toUInt256('18446744073709551615')))`

/** A session's `first_channel` (its hours' minimum: an SQL expression) back to the entry channel's name. */
export const entryChannelOf = (firstChannel: string): string =>
  `arrayElement(['', ${channelArrayOf(CODED_CHANNELS).slice(1, -1)}], toUInt8(bitAnd(${firstChannel}, 63)) + 1)`

/** The SELECT that turns event rows into `session_hours` rows (the view's, refills', retention's). */
const sessionHoursSelect = `SELECT
  site_id,
  toStartOfHour(timestamp) AS hour,
  cityHash64(session_id) AS session_key,
  any(cityHash64(user_id)) AS visitor,
  min(timestamp) AS first_at,
  max(timestamp) AS last_at,
  countIf(type = 'pageview') AS pageviews,
  countIf(type IN ('custom_event', 'outbound')) AS interactions,
  min(${packedEventAnd(`toUInt64(indexOf(${channelArrayOf(CODED_CHANNELS)}, channel))`)}) AS first_channel,
  min(${packedEventAnd('cityHash64(referrer_domain)')}) AS first_referrer,
  min(if(type = 'pageview', ${packedEventAnd('cityHash64(pathname)')}, toUInt256(-1))) AS first_pageview,
  maxIf(${packedEventAnd('cityHash64(pathname)')}, type = 'pageview') AS last_pageview,
  ${FIRST_VISIT_COLUMNS.map((c) => `min(tuple(${ROLLED_EVENT_ORDER_KEY}, toString(${c}))) AS first_${c}`).join(',\n  ')}
FROM events`

const sessionHoursGroup = 'GROUP BY site_id, hour, session_key'

/** `session_hours_view`'s statement as it is today. */
export const sessionHoursView = `CREATE MATERIALIZED VIEW session_hours_view TO ${SESSION_HOURS} AS
     ${sessionHoursSelect} ${sessionHoursGroup}`

/** The `INSERT ... SELECT` that rolls up the events matching `where` into `session_hours`. */
export const sessionHoursInsert = (where: string): string =>
  `INSERT INTO ${SESSION_HOURS} ${sessionHoursSelect} WHERE ${where} ${sessionHoursGroup}`
