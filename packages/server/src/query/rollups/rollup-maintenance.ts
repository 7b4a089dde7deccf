/**
 * Keeping the rollups (`storage/events/migrations/003-rollups.ts`) equal to the raw events they sum when
 * raw events are deleted: a site's deletion deletes its rollup rows; retention deletes the whole hours
 * before the cutoff and rebuilds the hour the cutoff falls in from the events left in it.
 */

import { toClickHouseTime } from '../../storage/events/clickhouse-time.js'
import type { EventsStore } from '../../storage/events/events-store.js'
import { ROLLUP_TABLES, rollupInserts } from '../../storage/events/rollup-tables.js'

const HOUR_MS = 3_600_000

/**
 * Delete every rollup row of a site (after its raw events), as background mutations: the statement
 * returns once the mutation is scheduled. Nothing reads a deleted site's rows meanwhile (site ids are
 * never reused: serial on PostgreSQL, AUTOINCREMENT on SQLite), and a synchronous delete waits for the
 * merges running on the table's parts, which the materialized views' small inserts keep busy: seconds
 * on a loaded machine, during which the embedded store answers nothing else.
 */
export async function deleteSiteRollups(events: EventsStore, siteId: number): Promise<void> {
  for (const table of ROLLUP_TABLES) {
    await events.command(
      `ALTER TABLE ${table} DELETE WHERE site_id = {site:UInt32} SETTINGS mutations_sync = 0`,
      { site: siteId },
    )
  }
}

/**
 * After a site's events before `cutoff` (epoch ms) were deleted: delete its rollup rows of the hours
 * before the cutoff's hour, and when the cutoff is inside an hour, roll that hour up again from the
 * events that remain in it.
 */
export async function expireRollups(events: EventsStore, siteId: number, cutoff: number): Promise<void> {
  const hour = Math.floor(cutoff / HOUR_MS) * HOUR_MS
  const partial = hour !== cutoff
  const params = {
    site: siteId,
    hour: toClickHouseTime(hour),
    next: toClickHouseTime(hour + HOUR_MS),
  }
  const before = partial ? "hour <= {hour:DateTime64(3, 'UTC')}" : "hour < {hour:DateTime64(3, 'UTC')}"
  for (const table of ROLLUP_TABLES) {
    await events.command(`DELETE FROM ${table} WHERE site_id = {site:UInt32} AND ${before}`, params)
  }
  if (!partial) return
  const remaining =
    "site_id = {site:UInt32} AND timestamp >= {hour:DateTime64(3, 'UTC')} AND timestamp < {next:DateTime64(3, 'UTC')}"
  for (const statement of rollupInserts(remaining)) await events.command(statement, params)
}
