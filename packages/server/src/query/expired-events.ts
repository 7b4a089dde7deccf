/**
 * Retention's SQL: counting and deleting one site's events older than a cutoff. The delete is a
 * lightweight `DELETE FROM` (as site deletion's): rows are masked at once, so reads right after it no
 * longer see them, and merges reclaim the space later.
 * Not a partition drop: partitions are months of every site (PARTITION BY toYYYYMM(timestamp)), and
 * with periods set per site a month rarely expires for all of them at once.
 */

import { expireCrawlerRequests } from '../crawlers/crawler-store.js'
import { toClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { expireRollups } from './rollups/rollup-maintenance.js'

const expired = "site_id = {site:UInt32} AND timestamp < {cutoff:DateTime64(3, 'UTC')}"

/** The statements and their parameters, for a site and a cutoff (epoch ms; events before it expire). */
export function expiredEventsSql(siteId: number, cutoff: number) {
  return {
    count: `SELECT count() AS count FROM events WHERE ${expired}`,
    delete: `DELETE FROM events WHERE ${expired}`,
    params: { site: siteId, cutoff: toClickHouseTime(cutoff) },
  }
}

/** Events of a site with a timestamp before `cutoff` (epoch ms), every type counted. */
export async function countExpiredEvents(
  events: EventsStore,
  siteId: number,
  cutoff: number,
): Promise<number> {
  const sql = expiredEventsSql(siteId, cutoff)
  const [row] = await events.query<{ count: number | string }>(sql.count, sql.params)
  return Number(row?.count ?? 0)
}

/**
 * Delete the events of a site with a timestamp before `cutoff` (epoch ms), and their share of the
 * rollups, and the site's crawler requests before it; resolves once they are gone.
 */
export async function deleteExpiredEvents(
  events: EventsStore,
  siteId: number,
  cutoff: number,
): Promise<void> {
  const sql = expiredEventsSql(siteId, cutoff)
  await events.command(sql.delete, sql.params)
  await expireRollups(events, siteId, cutoff)
  await expireCrawlerRequests(events, siteId, cutoff)
}
