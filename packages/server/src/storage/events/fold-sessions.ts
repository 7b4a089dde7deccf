/**
 * Folding closed sessions into `session_summaries` (migration `005-session-summaries.ts`): one row per
 * session, its `session_hours` rows aggregated, so that a long range's session reports read one row per
 * session instead of grouping the range's session-hours by session.
 *
 * Which sessions: `session_changes` holds, per (site, UTC hour), when events of that hour were last
 * inserted (`changed_at`, kept by a view on `session_hours`) and up to which insert the hour was last folded
 * (`folded_at`). An hour is pending while `changed_at > folded_at`. A fold takes the pending hours
 * before `closedBefore` that have had no insert for `settleMs`, and refolds every session with
 * a row in those hours from all its `session_hours` rows: when the session's last hour is before
 * `closedBefore` its summary is (re)written, else it is left to a later fold (its later hour is
 * pending). Then the hours are marked folded up to the `changed_at` the fold read. Readers
 * (`query/rollups/rolled-sessions.ts`) read every session with a row in a pending hour from
 * `session_hours`, whatever its summary says, so a summary is only used when it is current.
 *
 * Why `settleMs` (default 5 minutes, SESSION_FOLD_SETTLE_MS): an insert committed after the fold read
 * `session_changes`, but stamped before the `changed_at` the fold marks, would be marked folded unseen.
 * Waiting until an hour has had no insert for 5 minutes leaves inserts that long to commit.
 * Why `closedBefore` (default: the start of the hour before the store's current hour): sessions end after
 * 30 minutes without events, so a session whose last hour ended more than an hour ago is closed, and
 * folding only those makes refolds (and their deletes) rare: a late event, an import into a session
 * already stored, retention cutting a session.
 *
 * Work per fold: one chunk per (site, month) of pending hours; in each, a count of the sessions that
 * already have a summary (a lightweight DELETE, which rewrites parts, runs only when some do), one
 * `INSERT ... SELECT` over the sessions' rows, and one insert marking the hours. Not atomic: a reader
 * between the steps reads the chunk's sessions from `session_hours` (their hours are still pending), and
 * a fold cut off halfway is redone by the next. Two folds must not run at once (both would insert the
 * same summaries): the fold job (`workers/session-fold-job.ts`) takes a lock for that.
 */
import { toClickHouseTime } from './clickhouse-time.js'
import type { EventsStore } from './events-store.js'

/**
 * The columns of `session_hours` a summary keeps, each with the aggregate that folds a session's hours
 * into one value (the table's own `SimpleAggregateFunction`s). Both tables name them alike.
 */
/** How long an hour must have had no insert before it is folded, by default (ms). */
export const DEFAULT_SETTLE_MS = 5 * 60_000

export const SESSION_FOLDS = {
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

/** A column of `SESSION_FOLDS`. */
export type FoldedColumn = keyof typeof SESSION_FOLDS

/** Options of `foldSessions` (see the file's doc). */
export interface FoldOptions {
  /** Fold sessions whose last hour starts before this (epoch ms, a whole hour). Default: the previous hour's start by the store's clock. */
  closedBefore?: number
  /** Fold only hours without inserts for this long (ms; 0: every pending hour). Default 5 minutes. */
  settleMs?: number
}

/** What a fold did. */
export interface FoldResult {
  /** Pending (site, hour) pairs folded. */
  hours: number
  /** Chunks they made, one per (site, month). */
  chunks: number
}

/** A pending hour and the last insert into it the fold saw (`mark`: DateTime64(3) text). */
type PendingHour = { site_id: number; hour: string; mark: string }

/**
 * Fold the sessions of the pending hours before `closedBefore` (see the file's doc).
 * @throws the store's error; whatever was not marked folded is folded again by the next call
 */
export async function foldSessions(store: EventsStore, options: FoldOptions = {}): Promise<FoldResult> {
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS
  const [clock] = await store.query<{ closed: string; settled: string }>(
    `SELECT toStartOfHour(now() - INTERVAL 1 HOUR) AS closed,
       now64(3, 'UTC') - toIntervalMillisecond({settle:UInt64}) AS settled`,
    { settle: settleMs },
  )
  const closed =
    options.closedBefore === undefined
      ? String(clock?.closed)
      : toClickHouseTime(options.closedBefore).slice(0, 19)
  const settled = String(clock?.settled)
  // Read once: the marks written below are exactly the `changed_at` seen here.
  const hours = await store.query<PendingHour>(
    `SELECT site_id, hour, max(changed_at) AS mark
     FROM session_changes
     WHERE hour < {closed:DateTime('UTC')}
     GROUP BY site_id, hour
     HAVING max(changed_at) > max(folded_at) AND max(changed_at) <= {settled:DateTime64(3, 'UTC')}
     ORDER BY site_id, hour`,
    { closed, settled },
  )
  const chunks = chunksOf(hours)
  for (const chunk of chunks) await foldChunk(store, chunk.siteId, chunk.hours, closed)
  return { hours: hours.length, chunks: chunks.length }
}

/** The pending hours by (site, month), in order. */
function chunksOf(hours: readonly PendingHour[]): { siteId: number; hours: PendingHour[] }[] {
  const chunks = new Map<string, { siteId: number; hours: PendingHour[] }>()
  for (const row of hours) {
    const key = `${row.site_id}:${row.hour.slice(0, 7)}`
    const chunk = chunks.get(key) ?? { siteId: Number(row.site_id), hours: [] }
    chunk.hours.push(row)
    chunks.set(key, chunk)
  }
  return [...chunks.values()]
}

const SESSIONS_IN_HOURS =
  "SELECT session_key FROM session_hours WHERE site_id = {site:UInt32} AND hour IN {hours:Array(DateTime('UTC'))}"
const foldedColumns = Object.keys(SESSION_FOLDS).join(', ')
const folds = Object.entries(SESSION_FOLDS)
  .map(([column, fold]) => `${fold}(${column})`)
  .join(', ')

/** Refold the sessions with rows in `hours` of one site, then mark the hours folded. */
async function foldChunk(
  store: EventsStore,
  siteId: number,
  hours: readonly PendingHour[],
  closed: string,
): Promise<void> {
  const params = { site: siteId, hours: hours.map((h) => h.hour), closed }
  const [existing] = await store.query<{ n: number }>(
    `SELECT count() AS n FROM session_summaries WHERE site_id = {site:UInt32} AND session_key IN (${SESSIONS_IN_HOURS})`,
    params,
  )
  if (Number(existing?.n ?? 0) > 0) {
    await store.command(
      `DELETE FROM session_summaries WHERE site_id = {site:UInt32} AND session_key IN (${SESSIONS_IN_HOURS})`,
      params,
    )
  }
  await store.command(
    `INSERT INTO session_summaries (site_id, session_key, start_hour, end_hour, ${foldedColumns})
     SELECT site_id, session_key, min(hour), max(hour), ${folds}
     FROM session_hours
     WHERE site_id = {site:UInt32} AND session_key IN (${SESSIONS_IN_HOURS})
     GROUP BY site_id, session_key
     HAVING max(hour) < {closed:DateTime('UTC')}`,
    params,
  )
  await store.command(
    `INSERT INTO session_changes (site_id, hour, changed_at, folded_at)
     SELECT {site:UInt32}, pair.1, pair.2, pair.2
     FROM (SELECT arrayJoin(arrayZip({hours:Array(DateTime('UTC'))}, {marks:Array(DateTime64(3, 'UTC'))})) AS pair)`,
    { ...params, marks: hours.map((h) => h.mark) },
  )
}
