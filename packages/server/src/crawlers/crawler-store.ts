/**
 * Writing crawler requests into the events store's `crawler_requests` table (events migration 014),
 * apart from `events`: no rollup or report of visits reads them.
 */
import { toClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { CRAWLER_REQUESTS } from '../storage/events/rollup-schema/crawler-requests.js'
import type { CrawlerCategory } from './crawler-agents.js'

/** One stored crawler request. `timestamp`: epoch ms. No client address is kept. */
export interface CrawlerRequestRow {
  site_id: number
  timestamp: number
  agent: string
  operator: string
  category: CrawlerCategory
  verified: boolean
  method: string
  host: string
  pathname: string
  status: number
  bytes: number
  user_agent: string
}

/** Longest user agent and path kept, in characters (longer ones are cut). */
const MAX_TEXT = 1000

/**
 * Insert crawler requests; resolves once they are committed.
 * @throws the store's error (then none may be assumed written)
 */
export async function insertCrawlerRequests(
  events: EventsStore,
  rows: readonly CrawlerRequestRow[],
): Promise<void> {
  if (rows.length === 0) return
  const lines = new Array<string>(rows.length)
  const quoted = new Map<string, string>()
  /** A string's JSON, made once per distinct value in the batch (agents, methods and user agents repeat). */
  const once = (value: string) => {
    let json = quoted.get(value)
    if (json === undefined) {
      json = JSON.stringify(value)
      quoted.set(value, json)
    }
    return json
  }
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as CrawlerRequestRow
    lines[i] =
      `{"site_id":${row.site_id},"timestamp":"${toClickHouseTime(row.timestamp)}","agent":${once(row.agent)},` +
      `"operator":${once(row.operator)},"category":${once(row.category)},"verified":${row.verified},` +
      `"method":${once(row.method)},"host":${once(row.host.slice(0, 253))},` +
      `"pathname":${JSON.stringify(row.pathname.slice(0, MAX_TEXT))},"status":${row.status},` +
      `"bytes":${Number.isFinite(row.bytes) ? row.bytes : null},"user_agent":${once(row.user_agent.slice(0, MAX_TEXT))}}`
  }
  await events.command(`INSERT INTO ${CRAWLER_REQUESTS} FORMAT JSONEachRow\n${lines.join('\n')}`)
}

/** Delete a site's crawler requests (site deletion), as a background mutation like its rollups. */
export async function deleteSiteCrawlerRequests(events: EventsStore, siteId: number): Promise<void> {
  await events.command(
    `ALTER TABLE ${CRAWLER_REQUESTS} DELETE WHERE site_id = {site:UInt32} SETTINGS mutations_sync = 0`,
    { site: siteId },
  )
}

/** Delete a site's crawler requests before `cutoff` (epoch ms): retention. */
export async function expireCrawlerRequests(
  events: EventsStore,
  siteId: number,
  cutoff: number,
): Promise<void> {
  const where = `site_id = {site:UInt32} AND timestamp < {cutoff:DateTime64(3, 'UTC')}`
  const params = { site: siteId, cutoff: toClickHouseTime(cutoff) }
  // A lightweight DELETE rewrites parts: only when there is something to delete.
  const [row] = await events.query<{ n: number }>(
    `SELECT count() AS n FROM ${CRAWLER_REQUESTS} WHERE ${where}`,
    params,
  )
  if (Number(row?.n ?? 0) > 0) await events.command(`DELETE FROM ${CRAWLER_REQUESTS} WHERE ${where}`, params)
}
