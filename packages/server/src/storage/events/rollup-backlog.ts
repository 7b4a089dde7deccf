/**
 * How far the server's fold pass (`../../workers/session-fold-pass.ts`) is behind: the closed hours of
 * `session_hours` inserted into since they were last folded (`fold-sessions.ts`), and the closed months
 * of `page_days` inserted into since they were last sealed (`seal-page-months.ts`), over every site.
 * Both are 0 once the pass has caught up. Until then, reports are still right, but slower: they read
 * those sessions from their hours and those months from their days. After an import of history, the
 * backlog shows when its long-range reports are back to full speed. Hours and months count as behind
 * from their last insert on, although a pass waits `SESSION_FOLD_SETTLE_MS` before taking them.
 */
import type { EventsStore } from './events-store.js'

/** The fold pass's backlog: counts of (site, hour) and (site, month) pairs. */
export interface RollupBacklog {
  /** Hours before the previous hour (by the store's clock) with rows not folded into session summaries. */
  hoursToFold: number
  /** Months before the current one (UTC) with pages' days not sealed into `page_months`. */
  monthsToSeal: number
}

const HOURS_TO_FOLD = `SELECT count() FROM (
  SELECT site_id, hour FROM session_changes WHERE hour < toStartOfHour(now() - INTERVAL 1 HOUR)
  GROUP BY site_id, hour HAVING max(changed_at) > max(folded_at))`

const MONTHS_TO_SEAL = `SELECT count() FROM (
  SELECT site_id, month FROM page_month_seals WHERE month < toDateTime(toStartOfMonth(now('UTC')), 'UTC')
  GROUP BY site_id, month HAVING max(changed_at) > max(sealed_at))`

/**
 * The fold pass's backlog, read from the store (so it is the same for every process sharing it).
 * @throws the store's error
 */
export async function rollupBacklog(store: EventsStore): Promise<RollupBacklog> {
  const [row] = await store.query<{ hours: number | string; months: number | string }>(
    `SELECT (${HOURS_TO_FOLD}) AS hours, (${MONTHS_TO_SEAL}) AS months`,
  )
  return { hoursToFold: Number(row?.hours ?? 0), monthsToSeal: Number(row?.months ?? 0) }
}
