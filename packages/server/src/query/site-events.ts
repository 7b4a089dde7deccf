/**
 * Whole-site facts of the events store that are not reports: how many rows a site holds (the operator's
 * check of the ingest counters), when its newest event happened (the dashboard's "waiting for the first
 * event"), and the deletion of a site's events.
 */

import { deleteSiteCrawlerRequests } from '../crawlers/crawler-store.js'
import { fromClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { deleteImportedDays } from './imported-totals.js'
import { deleteSiteRollups } from './rollups/rollup-maintenance.js'

/** Rows the events store holds for a site, every type counted. */
export async function countSiteEvents(events: EventsStore, siteId: number): Promise<number> {
  const [row] = await events.query<{ count: number | string }>(
    'SELECT count() AS count FROM events WHERE site_id = {site:UInt32}',
    { site: siteId },
  )
  return Number(row?.count ?? 0)
}

/**
 * The time of a site's newest event, ISO 8601 UTC with milliseconds, or null when it has none. The sort
 * follows the table's key (site_id, toDate(timestamp), timestamp), so ClickHouse reads the site's rows
 * in reverse order and stops at the first one.
 */
export async function lastSiteEventAt(events: EventsStore, siteId: number): Promise<string | null> {
  const [row] = await events.query<{ timestamp: string }>(
    `SELECT timestamp FROM events WHERE site_id = {site:UInt32}
     ORDER BY toDate(timestamp) DESC, timestamp DESC LIMIT 1`,
    { site: siteId },
  )
  return row ? fromClickHouseTime(row.timestamp) : null
}

/**
 * Delete every event of a site (a lightweight delete: masked when this resolves), its imported daily
 * totals, its crawler requests, and its rollup rows (in the background, see `deleteSiteRollups`).
 */
export async function deleteSiteEvents(events: EventsStore, siteId: number): Promise<void> {
  await events.command('DELETE FROM events WHERE site_id = {site:UInt32}', { site: siteId })
  await deleteImportedDays(events, siteId)
  await deleteSiteRollups(events, siteId)
  await deleteSiteCrawlerRequests(events, siteId)
}
