/**
 * 005: `session_summaries`, one row per closed session (its `session_hours` rows folded:
 * `../fold-sessions.ts`), and `session_changes`, which says which hours of `session_hours` have
 * changed since they were last folded.
 *
 * Why: the overview and the session breakdowns (channels, referrers, entry and exit pages) need one
 * row per session. From `session_hours` that is a GROUP BY of the range's session-hours by session, most
 * of a long range's time; reading the summaries of the sessions inside the range and grouping only the
 * others is much faster (bench/README.md "Session summaries").
 *
 * - `session_summaries`: (site, first and last hour, session hash) and the session's `SESSION_FOLDS`
 *   columns, sorted by first hour so that a range reads its own sessions; a minmax index on the last
 *   hour skips, for the sessions crossing the range's start, the granules that ended before it.
 * - `session_changes`: per (site, hour), the time of the last insert into `session_hours` for that hour
 *   (`changed_at`, kept by a view on `session_hours`, so the views on `events`, backfills and
 *   retention's refill all count) and of the last insert the fold has seen (`folded_at`). Maxima, merged
 *   in the background; one row per site and hour once merged.
 *
 * Backfill: every stored hour is marked changed, then folded (`foldSessions`, every pending hour),
 * before the process accepts traffic.
 */
import type { EventsStore } from '../events-store.js'
import { foldSessions } from '../fold-sessions.js'

/** The view marking the hours of `session_hours` inserted into (migration 008 recreates it as is). */
export const sessionChangesView = `CREATE MATERIALIZED VIEW IF NOT EXISTS session_changes_view TO session_changes AS
     SELECT site_id, hour, now64(3, 'UTC') AS changed_at, toDateTime64(0, 3, 'UTC') AS folded_at
     FROM session_hours
     GROUP BY site_id, hour`

/**
 * The columns a summary kept when this migration created the table, and their folds: the backfill
 * folds these, not today's (`SESSION_FOLDS` of `../fold-sessions.ts`), which later migrations add to.
 */
export const SUMMARY_FOLDS_005 = {
  visitor: 'any',
  first_at: 'min',
  last_at: 'max',
  pageviews: 'sum',
  interactions: 'sum',
  first_channel: 'min',
  first_referrer: 'min',
  first_pageview: 'min',
  last_pageview: 'max',
} as const

export const sessionSummariesTables = {
  name: '005-session-summaries',
  statements: [
    `CREATE TABLE IF NOT EXISTS session_summaries (
      site_id UInt32,
      start_hour DateTime('UTC'),
      end_hour DateTime('UTC'),
      session_key UInt64,
      visitor UInt64,
      first_at DateTime64(3, 'UTC'),
      last_at DateTime64(3, 'UTC'),
      pageviews UInt64,
      interactions UInt64,
      first_channel Int64,
      first_referrer UInt128,
      first_pageview UInt128,
      last_pageview UInt128,
      INDEX end_hour_range end_hour TYPE minmax GRANULARITY 1
    )
    ENGINE = MergeTree
    PARTITION BY toYYYYMM(start_hour)
    ORDER BY (site_id, start_hour, session_key)`,
    `CREATE TABLE IF NOT EXISTS session_changes (
      site_id UInt32,
      hour DateTime('UTC'),
      changed_at SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
      folded_at SimpleAggregateFunction(max, DateTime64(3, 'UTC'))
    )
    ENGINE = AggregatingMergeTree
    ORDER BY (site_id, hour)`,
    sessionChangesView,
  ],
  backfill: backfillSessionSummaries,
} as const

/**
 * Mark every stored hour of `session_hours` changed, then fold them all.
 * @throws the store's error (the migration is then not recorded and runs again at the next start;
 *   summaries already written are refolded, not duplicated)
 */
export async function backfillSessionSummaries(store: EventsStore): Promise<void> {
  await store.command(
    `INSERT INTO session_changes
     SELECT site_id, hour, now64(3, 'UTC'), toDateTime64(0, 3, 'UTC') FROM session_hours GROUP BY site_id, hour`,
  )
  await foldSessions(store, { settleMs: 0, folds: SUMMARY_FOLDS_005 })
}
