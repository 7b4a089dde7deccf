/**
 * Folding closed sessions into `session_summaries` (migration `005-session-summaries.ts`): one row per
 * session, its `session_hours` rows aggregated, so that a long range's session reports read one row per
 * session instead of grouping the range's session-hours by session.
 *
 * Which sessions: `session_changes` holds, per (site, UTC hour), when rows of that hour were last
 * inserted into `session_hours` (`changed_at`, kept by a view on `session_hours`) and up to which insert
 * the hour was last folded (`folded_at`). An hour is pending while `changed_at > folded_at`. A fold
 * takes the pending hours before `closedBefore` that have had no insert for `settleMs`, and refolds
 * every session with a row in those hours from all its `session_hours` rows: when the session's last
 * hour is before `closedBefore` its summary is (re)written, else it is left to a later fold (its later
 * hour is pending). Then those hours are marked folded up to their last insert. Readers
 * (`query/rollups/rolled-sessions.ts`) read every session with a row in a pending hour from
 * `session_hours`, whatever its summary says, so a summary is only used when it is current.
 *
 * Why `settleMs` (default 5 minutes, SESSION_FOLD_SETTLE_MS): an insert committed after the fold read
 * an hour, but stamped before the `changed_at` the fold marks, would be marked folded unseen. Waiting
 * until an hour has had no insert for 5 minutes leaves inserts that long to commit.
 * Why `closedBefore` (default: the start of the hour before the store's current hour): sessions end after
 * 30 minutes without events, so a session whose last hour ended more than an hour ago is closed, and
 * folding only those makes refolds (and their deletes) rare: a late event, an import into a session
 * already stored, retention cutting a session.
 *
 * Next to each summary the fold writes the session's time on page per pathname (`session_page_times`,
 * migration `010-session-page-times.ts`), from the session's pageviews in `events`, and deletes it with
 * the summary when refolding.
 *
 * Work per site with pending hours: its sessions in those hours are split by hash into parts of at most
 * `PART_SESSIONS` (each part a whole set of sessions, so no session is folded twice in one fold, and the
 * memory of one `GROUP BY` stays bounded after an import of years). Per part: a count of the sessions
 * that already have a summary (a lightweight DELETE, which rewrites parts and takes seconds, runs only
 * when some do), and one `INSERT ... SELECT` over the sessions' rows; then one insert marks the site's
 * hours. Not atomic: a reader between the steps reads those sessions from `session_hours` (their hours
 * are still pending), and a fold cut off halfway is redone by the next. Two folds must not run at once
 * (both would insert the same summaries): in one process `foldSessions` queues the calls on one store
 * object; across processes the server's pass (`workers/session-fold-pass.ts`) takes a lock.
 */
import { toClickHouseTime } from './clickhouse-time.js'
import type { EventsStore } from './events-store.js'
import { sessionPageTimesInsert } from './rollup-schema/session-page-times.js'
import { createStoreQueue } from './store-queue.js'

/** How long an hour must have had no insert before it is folded, by default (ms). */
export const DEFAULT_SETTLE_MS = 5 * 60_000

/** The most sessions one `INSERT ... SELECT` of a fold groups. */
export const PART_SESSIONS = 500_000

/**
 * The columns of `session_hours` a summary keeps, each with the aggregate that folds a session's hours
 * into one value (the table's own `SimpleAggregateFunction`s). Both tables name them alike.
 */
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
  first_country: 'min',
  first_utm_source: 'min',
  first_utm_medium: 'min',
  first_utm_campaign: 'min',
} as const

/** A column of `SESSION_FOLDS`. */
export type FoldedColumn = keyof typeof SESSION_FOLDS

/** Options of `foldSessions` (see the file's doc). */
export interface FoldOptions {
  /** Fold sessions whose last hour starts before this (epoch ms, a whole hour). Default: the previous hour's start by the store's clock. */
  closedBefore?: number
  /** Fold only hours without inserts for this long (ms; 0: every pending hour). Default 5 minutes. */
  settleMs?: number
  /**
   * The columns to fold and their aggregates. Default `SESSION_FOLDS`; a migration's backfill passes
   * the columns the tables had when it ran (its frozen copy), which later migrations add to.
   */
  folds?: Readonly<Record<string, string>>
}

/** What a fold did. */
export interface FoldResult {
  /** Pending (site, hour) pairs folded. */
  hours: number
  /** `INSERT ... SELECT`s it took (one per site, more for sites with over `PART_SESSIONS` sessions). */
  parts: number
}

/**
 * The (site, hour) pairs a fold takes: before `closed`, changed since last folded, the last change at or
 * before `settled` (placeholders `closed`, `settled`). Also counted as the backlog (`rollup-backlog.ts`).
 */
export const HOURS_TO_FOLD = `SELECT site_id, hour, max(changed_at) AS last_change FROM session_changes
  WHERE hour < {closed:DateTime('UTC')}
  GROUP BY site_id, hour
  HAVING last_change > max(folded_at) AND last_change <= {settled:DateTime64(3, 'UTC')}`

const SITE_HOURS_TO_FOLD = `SELECT hour FROM (${HOURS_TO_FOLD}) WHERE site_id = {site:UInt32}`

/** The site's sessions with a row in an hour to fold, those of part `part` of `parts` by hash. */
const SESSIONS_TO_FOLD = `SELECT session_key FROM session_hours
  WHERE site_id = {site:UInt32} AND hour IN (${SITE_HOURS_TO_FOLD})
    AND session_key % {parts:UInt32} = {part:UInt32}`

/** The UTC days with events of the sessions to fold (where `session_page_times` reads their pageviews). */
const SESSION_DAYS_TO_FOLD = `SELECT DISTINCT toDate(hour) FROM session_hours
  WHERE site_id = {site:UInt32} AND session_key IN (${SESSIONS_TO_FOLD})`

/** The column list and the aggregates of a fold's `INSERT ... SELECT`. */
const foldSql = (folds: Readonly<Record<string, string>>) => ({
  columns: Object.keys(folds).join(', '),
  aggregates: Object.entries(folds)
    .map(([column, fold]) => `${fold}(${column})`)
    .join(', '),
})

/** Folds of one process, one at a time per store object. */
const folding = createStoreQueue()

/**
 * Fold the sessions of the pending hours before `closedBefore` (see the file's doc), after any fold
 * this process started on `store` before.
 * @throws the store's error; whatever was not marked folded is folded again by the next call
 */
export function foldSessions(store: EventsStore, options: FoldOptions = {}): Promise<FoldResult> {
  return folding(store, () => foldOnce(store, options))
}

async function foldOnce(store: EventsStore, options: FoldOptions): Promise<FoldResult> {
  const [clock] = await store.query<{ closed: string; settled: string }>(
    `SELECT toStartOfHour(now() - INTERVAL 1 HOUR) AS closed,
       now64(3, 'UTC') - toIntervalMillisecond({settle:UInt64}) AS settled`,
    { settle: options.settleMs ?? DEFAULT_SETTLE_MS },
  )
  const times = {
    closed:
      options.closedBefore === undefined
        ? String(clock?.closed)
        : toClickHouseTime(options.closedBefore).slice(0, 19),
    settled: String(clock?.settled),
  }
  const sites = await store.query<{ site_id: number; hours: number }>(
    `SELECT site_id, count() AS hours FROM (${HOURS_TO_FOLD}) GROUP BY site_id ORDER BY site_id`,
    times,
  )
  if (sites.length === 0) return { hours: 0, parts: 0 }
  const sessions = new Map(
    (
      await store.query<{ site_id: number; sessions: number }>(
        `SELECT site_id, uniqExact(session_key) AS sessions FROM session_hours
         WHERE (site_id, hour) IN (SELECT site_id, hour FROM (${HOURS_TO_FOLD})) GROUP BY site_id`,
        times,
      )
    ).map((row) => [Number(row.site_id), Number(row.sessions)]),
  )
  // Folds run by the backfills of migrations before 010 find no `session_page_times` yet (010 fills it).
  const [table] = await store.query<{ n: number }>(
    "SELECT count() AS n FROM system.tables WHERE database = currentDatabase() AND name = 'session_page_times'",
  )
  const pageTimes = Number(table?.n ?? 0) > 0
  const fold = foldSql(options.folds ?? SESSION_FOLDS)
  const result: FoldResult = { hours: 0, parts: 0 }
  for (const site of sites) {
    const parts = Math.max(1, Math.ceil((sessions.get(Number(site.site_id)) ?? 0) / PART_SESSIONS))
    for (let part = 0; part < parts; part++) {
      await foldPart(store, { ...times, site: Number(site.site_id), parts, part }, pageTimes, fold)
    }
    await store.command(
      `INSERT INTO session_changes (site_id, hour, changed_at, folded_at)
       SELECT site_id, hour, last_change, last_change FROM (${HOURS_TO_FOLD}) WHERE site_id = {site:UInt32}`,
      { ...times, site: Number(site.site_id) },
    )
    result.hours += Number(site.hours)
    result.parts += parts
  }
  return result
}

/** Refold one part of a site's sessions with rows in its hours to fold. */
async function foldPart(
  store: EventsStore,
  params: Record<string, string | number>,
  pageTimes: boolean,
  fold: { columns: string; aggregates: string },
): Promise<void> {
  const [existing] = await store.query<{ n: number }>(
    `SELECT count() AS n FROM session_summaries WHERE site_id = {site:UInt32} AND session_key IN (${SESSIONS_TO_FOLD})`,
    params,
  )
  if (Number(existing?.n ?? 0) > 0) {
    for (const table of pageTimes ? ['session_summaries', 'session_page_times'] : ['session_summaries']) {
      await store.command(
        `DELETE FROM ${table} WHERE site_id = {site:UInt32} AND session_key IN (${SESSIONS_TO_FOLD})`,
        params,
      )
    }
  }
  await store.command(
    `INSERT INTO session_summaries (site_id, session_key, start_hour, end_hour, ${fold.columns})
     SELECT site_id, session_key, min(hour), max(hour), ${fold.aggregates}
     FROM session_hours
     WHERE site_id = {site:UInt32} AND session_key IN (${SESSIONS_TO_FOLD})
     GROUP BY site_id, session_key
     HAVING max(hour) < {closed:DateTime('UTC')}`,
    params,
  )
  if (pageTimes) await store.command(sessionPageTimesInsert(SESSIONS_TO_FOLD, SESSION_DAYS_TO_FOLD), params)
}
