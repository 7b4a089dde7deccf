/**
 * 018: the session rollups keep the session's first country and UTM source, medium and campaign as
 * text: `first_country`, `first_utm_source`, `first_utm_medium`, `first_utm_campaign` in
 * `session_hours` (`SimpleAggregateFunction(min, Tuple(UInt256, String))`: the event's place in
 * `EVENT_ORDER` as migration 008 packs it, and the value) and in `session_summaries` (the tuple, its
 * hours' minimum). The minimum over a session's hours is its first event's value, as the raw reports'
 * `argMin(column, EVENT_ORDER_KEY)` takes it.
 *
 * Why: the Query API answers a visit dimension by the session's first event (Plausible's semantics).
 * From `session_dimension_hours` that is a fold of every session-hour of the range by session to find
 * the first hour's value, which made a year of daily visitors by country 2.8 times the dashboard's
 * breakdown (bench/README.md "Query API: a year of daily visitors by country"); with these columns the
 * summaries answer whole sessions as the other session reports do, and the UTM breakdowns, which read
 * raw events, can be served from the same rows. As text, not hashes: country codes and UTM values
 * have no table to look a hash up in.
 *
 * The statements add the columns and recreate `session_hours_view` with them (014's channel codes).
 * Rows stored before have no value (the tuple's default, which would win every minimum), so the
 * backfill recomputes everything, as 008's did: `session_hours` from the stored events, month by
 * month, then every session folded again (`session_changes`, `session_summaries` and
 * `session_page_times` emptied first), before the process accepts traffic (several processes sharing
 * one ClickHouse server: upgrade with ingest stopped).
 */
import type { EventsStore } from '../events-store.js'
import { foldSessions } from '../fold-sessions.js'
import { ROLLED_CHANNELS } from './003-rollups.js'
import { SUMMARY_FOLDS_005 } from './005-session-summaries.js'
import {
  channelArrayOf,
  ROLLED_EVENT_ORDER_KEY,
  sessionHoursGroup,
  sessionHoursSelectOf,
} from './008-event-order.js'
import { refillByMonth } from './refill-by-month.js'

/** The `events` columns whose first value per session this migration keeps (frozen). */
const FIRST_VISIT_COLUMNS = ['country', 'utm_source', 'utm_medium', 'utm_campaign'] as const

/** The channels the view codes (frozen: 014's list). */
const channels = channelArrayOf([...ROLLED_CHANNELS, 'AI Assistants'])

/** The SELECT of this migration's view and backfill: 008's columns (014's codes) and the first values. */
const sessionHoursSelect = sessionHoursSelectOf(channels).replace(
  /\nFROM events$/,
  `,\n  ${FIRST_VISIT_COLUMNS.map((c) => `min(tuple(${ROLLED_EVENT_ORDER_KEY}, toString(${c}))) AS first_${c}`).join(',\n  ')}\nFROM events`,
)

/** The summaries' columns after this migration, and their folds (frozen). */
const SUMMARY_FOLDS_018 = {
  ...SUMMARY_FOLDS_005,
  ...Object.fromEntries(FIRST_VISIT_COLUMNS.map((c) => [`first_${c}`, 'min'])),
} as const

/** Migration 018: the columns, the view anew, the backfill. */
export const sessionFirstVisitColumns = {
  name: '018-session-first-visit',
  statements: [
    'DROP VIEW IF EXISTS session_hours_view',
    ...FIRST_VISIT_COLUMNS.map(
      (c) =>
        `ALTER TABLE session_hours ADD COLUMN IF NOT EXISTS first_${c} SimpleAggregateFunction(min, Tuple(UInt256, String))`,
    ),
    ...FIRST_VISIT_COLUMNS.map(
      (c) => `ALTER TABLE session_summaries ADD COLUMN IF NOT EXISTS first_${c} Tuple(UInt256, String)`,
    ),
    `CREATE MATERIALIZED VIEW session_hours_view TO session_hours AS
     ${sessionHoursSelect} ${sessionHoursGroup}`,
  ],
  backfill: backfillSessionFirstVisit,
} as const

/**
 * Roll up the stored events into `session_hours` anew, month by month (`refillByMonth`: it can run
 * again after being cut off), then fold every session anew (see the file's doc).
 * @throws the store's error (the migration is then not recorded and runs again at the next start)
 */
export async function backfillSessionFirstVisit(store: EventsStore): Promise<void> {
  for (const table of ['session_changes', 'session_summaries', 'session_page_times']) {
    await store.command(`TRUNCATE TABLE ${table}`)
  }
  await refillByMonth(store, ['session_hours'], (where) => [
    `INSERT INTO session_hours ${sessionHoursSelect} WHERE ${where} ${sessionHoursGroup}`,
  ])
  await foldSessions(store, { settleMs: 0, folds: SUMMARY_FOLDS_018 })
}
