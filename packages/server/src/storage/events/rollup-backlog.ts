/**
 * How far the server's fold pass (`../../workers/session-fold-pass.ts`) is behind: the closed hours of
 * `session_hours` inserted into since they were last folded (`fold-sessions.ts`), and the closed months
 * of `page_days` inserted into since they were last sealed (`seal-page-months.ts`), over every site.
 * Both are 0 once the pass has caught up. Until then, reports are still right, but slower: they read
 * those sessions from their hours and those months from their days. After an import of history, the
 * backlog shows when its long-range reports are back to full speed. Hours and months count as behind
 * from their last insert on, although a pass waits `SESSION_FOLD_SETTLE_MS` before taking them: the
 * backlog is what the fold and the seal would take with no settling time.
 */
import type { IngestStats } from '@pathlight/protocol'
import type { EventsStore } from './events-store.js'
import { HOURS_TO_FOLD } from './fold-sessions.js'
import { MONTHS_TO_SEAL } from './seal-page-months.js'

/**
 * The fold pass's backlog, as the ingest stats report it (`IngestStats['rollups']`): `hoursToFold`, hours
 * before the previous hour (by the store's clock) with rows not folded into session summaries, and
 * `monthsToSeal`, months before the current one (UTC) with pages' days not sealed into `page_months`.
 */
export type RollupBacklog = IngestStats['rollups']

/**
 * The fold pass's backlog, read from the store (so it is the same for every process sharing it).
 * @throws the store's error
 */
export async function rollupBacklog(store: EventsStore): Promise<RollupBacklog> {
  const [clock] = await store.query<{ closed: string; before: string; settled: string }>(
    `SELECT toStartOfHour(now() - INTERVAL 1 HOUR) AS closed,
       toDateTime(toStartOfMonth(now('UTC')), 'UTC') AS before, now64(3, 'UTC') AS settled`,
  )
  const [row] = await store.query<{ hours: number | string; months: number | string }>(
    `SELECT (SELECT count() FROM (${HOURS_TO_FOLD})) AS hours, (SELECT count() FROM (${MONTHS_TO_SEAL})) AS months`,
    { closed: String(clock?.closed), before: String(clock?.before), settled: String(clock?.settled) },
  )
  return { hoursToFold: Number(row?.hours ?? 0), monthsToSeal: Number(row?.months ?? 0) }
}
