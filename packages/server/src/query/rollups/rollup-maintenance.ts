/**
 * Keeping the rollups (`storage/events/migrations/003-rollups.ts` to `011-pathname-months.ts`)
 * equal to the raw events they sum when raw events are deleted: a site's deletion deletes its rollup
 * rows; retention deletes the whole hours before the cutoff, rebuilds the hour the cutoff falls in from
 * the events left in it, does the same for the pages' days, unseals the pages' months it reaches, sends
 * the folded sessions it cut back to be folded again, and deletes the referrer domains of the days
 * before the cutoff's and the pathnames of the months before the cutoff's (the cutoff's day and month
 * keep their lists: supersets, see 007 and 011).
 */

import { toClickHouseTime } from '../../storage/events/clickhouse-time.js'
import type { EventsStore } from '../../storage/events/events-store.js'
import { pageDaysInsert } from '../../storage/events/rollup-schema/page-days.js'
import {
  EVERY_ROLLUP_TABLE,
  PATHNAME_MONTHS,
  REFERRER_DOMAIN_DAYS,
  ROLLUP_TABLES,
  rollupInserts,
} from '../../storage/events/rollup-tables.js'
import { startOfMonth } from './rolled-pages.js'

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

/**
 * Delete every rollup row of a site (after its raw events), as background mutations: the statement
 * returns once the mutation is scheduled. Nothing reads a deleted site's rows meanwhile (site ids are
 * never reused: serial on PostgreSQL, AUTOINCREMENT on SQLite), and a synchronous delete waits for the
 * merges running on the table's parts, which the materialized views' small inserts keep busy: seconds
 * on a loaded machine, during which the embedded store answers nothing else.
 */
export async function deleteSiteRollups(events: EventsStore, siteId: number): Promise<void> {
  for (const table of EVERY_ROLLUP_TABLE) {
    await events.command(
      `ALTER TABLE ${table} DELETE WHERE site_id = {site:UInt32} SETTINGS mutations_sync = 0`,
      { site: siteId },
    )
  }
}

/**
 * After a site's events before `cutoff` (epoch ms) were deleted: delete its rollup rows of the hours
 * before the cutoff's hour, and when the cutoff is inside an hour, roll that hour up again from the
 * events that remain in it. Summaries of sessions that began in the deleted hours are deleted; the
 * hours such a session has left are marked changed, so the next fold summarises what remains of it
 * (readers group those hours meanwhile).
 */
export async function expireRollups(events: EventsStore, siteId: number, cutoff: number): Promise<void> {
  const hour = Math.floor(cutoff / HOUR_MS) * HOUR_MS
  const partial = hour !== cutoff
  const params = {
    site: siteId,
    hour: toClickHouseTime(hour),
    next: toClickHouseTime(hour + HOUR_MS),
  }
  const beforeOf = (column: string) => `${column} ${partial ? '<=' : '<'} {hour:DateTime64(3, 'UTC')}`
  const before = beforeOf('hour')
  await events.command(
    `INSERT INTO session_changes
     SELECT site_id, hour, now64(3, 'UTC'), toDateTime64(0, 3, 'UTC') FROM session_hours
     WHERE site_id = {site:UInt32} AND NOT (${before}) AND session_key IN (
       SELECT session_key FROM session_summaries WHERE site_id = {site:UInt32} AND ${beforeOf('start_hour')})
     GROUP BY site_id, hour`,
    params,
  )
  for (const table of ['session_summaries', 'session_page_times']) {
    const where = `site_id = {site:UInt32} AND ${beforeOf('start_hour')}`
    // A lightweight DELETE rewrites parts (seconds on a loaded table): only when it has rows to delete.
    const [rows] = await events.query<{ n: number }>(
      `SELECT count() AS n FROM ${table} WHERE ${where}`,
      params,
    )
    if (Number(rows?.n ?? 0) > 0) await events.command(`DELETE FROM ${table} WHERE ${where}`, params)
  }
  for (const table of [...ROLLUP_TABLES, 'session_changes']) {
    await events.command(`DELETE FROM ${table} WHERE site_id = {site:UInt32} AND ${before}`, params)
  }
  if (partial) {
    const remaining =
      "site_id = {site:UInt32} AND timestamp >= {hour:DateTime64(3, 'UTC')} AND timestamp < {next:DateTime64(3, 'UTC')}"
    for (const statement of rollupInserts(remaining)) await events.command(statement, params)
  }
  await expirePageRollups(events, siteId, cutoff)
  await events.command(
    `DELETE FROM ${REFERRER_DOMAIN_DAYS} WHERE site_id = {site:UInt32} AND day < toStartOfDay({cutoff:DateTime64(3, 'UTC')})`,
    { site: siteId, cutoff: toClickHouseTime(cutoff) },
  )
}

/**
 * After `event_hours` was cut at `cutoff`: delete the site's `page_days` rows before the cutoff's day
 * and rebuild that day from `event_hours` when the cutoff is inside it (its view marks the month
 * changed); delete the sealed months before the cutoff's with their seals, and when the cutoff is
 * inside a month, mark that month changed before deleting its rows: readers take it from `page_days`
 * until the fold pass seals it again (`storage/events/seal-page-months.ts`). The pathnames of the
 * months before the cutoff's go too; the cutoff's month keeps its list (a superset, see 011).
 */
async function expirePageRollups(events: EventsStore, siteId: number, cutoff: number): Promise<void> {
  const day = Math.floor(cutoff / DAY_MS) * DAY_MS
  const month = startOfMonth(cutoff)
  const params = {
    site: siteId,
    day: toClickHouseTime(day),
    next: toClickHouseTime(day + DAY_MS),
    month: toClickHouseTime(month),
  }
  const partialDay = day !== cutoff
  await events.command(
    `DELETE FROM page_days WHERE site_id = {site:UInt32} AND day ${partialDay ? '<=' : '<'} {day:DateTime64(3, 'UTC')}`,
    params,
  )
  if (partialDay) {
    await events.command(
      pageDaysInsert(
        "site_id = {site:UInt32} AND hour >= {day:DateTime64(3, 'UTC')} AND hour < {next:DateTime64(3, 'UTC')}",
      ),
      params,
    )
  }
  const partialMonth = month !== cutoff
  if (partialMonth) {
    await events.command(
      `INSERT INTO page_month_seals (site_id, month, changed_at, sealed_at)
       VALUES ({site:UInt32}, {month:DateTime64(3, 'UTC')}, now64(3, 'UTC'), toDateTime64(0, 3, 'UTC'))`,
      params,
    )
  }
  const monthsThrough = (last: boolean) =>
    `site_id = {site:UInt32} AND month ${last ? '<=' : '<'} {month:DateTime64(3, 'UTC')}`
  await events.command(`DELETE FROM page_months WHERE ${monthsThrough(partialMonth)}`, params)
  await events.command(`DELETE FROM page_month_seals WHERE ${monthsThrough(false)}`, params)
  await events.command(`DELETE FROM ${PATHNAME_MONTHS} WHERE ${monthsThrough(false)}`, params)
}
