/**
 * Sealing months into `page_months` (migration `006-page-days.ts`): the pages' rollup of whole closed
 * UTC months, one row per (site, month, pathname), rolled up from `page_days` by the server's fold pass
 * instead of a view, so that inserts do not rewrite a month's states (96 KiB HyperLogLogs for busy
 * paths) with every part they make.
 *
 * Which months: `page_month_seals` has per (site, month) the time of the last insert into `page_days`
 * (`changed_at`, kept by a view: every insert of events, backfill or refill reaches `page_days` through
 * `event_hours`) and the last change a seal saw (`sealed_at`). A month is sealed while
 * `sealed_at >= changed_at`; readers (`query/rollups/rolled-pages.ts`) read sealed months from
 * `page_months` and the others from `page_days`. A seal takes the months before the current one whose
 * last change is `settleMs` old or more and not sealed at it: it deletes their old rows (when there are
 * any), rolls their days up again, and records the last change it saw before reading them, so an insert
 * it missed leaves the month unsealed. Why `settleMs` (default 5 minutes, as the fold's): an insert
 * stamped before the seal read the month but committed after would be sealed unseen.
 */
import type { EventsStore } from './events-store.js'
import { DEFAULT_SETTLE_MS } from './fold-sessions.js'
import { createStoreQueue } from './store-queue.js'

/** Options of `sealPageMonths`. */
export interface SealOptions {
  /** Seal only months without inserts for this long (ms; 0: every closed month). Default 5 minutes. */
  settleMs?: number
}

/**
 * The (site, month) pairs to seal: before the store's current month, settled, and changed since sealed
 * (or never sealed). Placeholders `before`, `settled`. Also counted as the backlog (`rollup-backlog.ts`).
 */
export const MONTHS_TO_SEAL = `SELECT site_id, month, max(changed_at) AS last_change FROM page_month_seals
  GROUP BY site_id, month
  HAVING month < {before:DateTime('UTC')} AND last_change <= {settled:DateTime64(3, 'UTC')}
    AND max(sealed_at) < last_change
  ORDER BY month, site_id`

/** Seals of one process, one at a time per store object. */
const sealing = createStoreQueue()

/**
 * Seal the closed months changed since they were last sealed (see the file's doc), after any seal this
 * process started on `store` before (two at once would both write a month's rows). Across processes the
 * server's pass takes a lock (`workers/session-fold-pass.ts`).
 * @returns the number of (site, month) pairs sealed
 * @throws the store's error; what was not sealed stays read from `page_days` and is sealed next time
 */
export function sealPageMonths(store: EventsStore, options: SealOptions = {}): Promise<number> {
  return sealing(store, () => sealOnce(store, options))
}

async function sealOnce(store: EventsStore, options: SealOptions): Promise<number> {
  const [clock] = await store.query<{ before: string; settled: string }>(
    `SELECT toDateTime(toStartOfMonth(now('UTC')), 'UTC') AS before,
       now64(3, 'UTC') - toIntervalMillisecond({settle:UInt64}) AS settled`,
    { settle: options.settleMs ?? DEFAULT_SETTLE_MS },
  )
  const params = { before: String(clock?.before), settled: String(clock?.settled) }
  const months = await store.query<{ site_id: number; month: string; last_change: string }>(
    MONTHS_TO_SEAL,
    params,
  )
  for (const { site_id: site, month, last_change: lastChange } of months) {
    const pair = { site: Number(site), month: String(month), sealed: String(lastChange) }
    const where = "site_id = {site:UInt32} AND month = {month:DateTime('UTC')}"
    const [existing] = await store.query<{ n: number }>(
      `SELECT count() AS n FROM page_months WHERE ${where}`,
      pair,
    )
    // A lightweight DELETE rewrites parts (seconds on a loaded table): only for a month sealed before.
    if (Number(existing?.n ?? 0) > 0) await store.command(`DELETE FROM page_months WHERE ${where}`, pair)
    await store.command(
      `INSERT INTO page_months
       SELECT site_id, toDateTime(toStartOfMonth(day), 'UTC') AS month, pathname, sum(pageview_count),
         uniqCombined64MergeState(visitor_state), uniqCombined64MergeState(session_state)
       FROM page_days
       WHERE site_id = {site:UInt32} AND day >= {month:DateTime('UTC')} AND day < {month:DateTime('UTC')} + INTERVAL 1 MONTH
       GROUP BY site_id, month, pathname`,
      pair,
    )
    await store.command(
      `INSERT INTO page_month_seals (site_id, month, changed_at, sealed_at)
       VALUES ({site:UInt32}, {month:DateTime('UTC')}, {sealed:DateTime64(3, 'UTC')}, {sealed:DateTime64(3, 'UTC')})`,
      pair,
    )
  }
  return months.length
}
