/**
 * What the crawler alert metrics count, over a site's `crawler_requests` (its ingested access logs):
 * the requests in a window, and the agents seen at all. One query each on the events store,
 * parameters bound. A rule's `crawlerCategory` limits both (`ai`: the three AI categories), its
 * `crawlerAgent` the requests.
 */
import type { AlertCrawlerCategory } from '@pathlight/protocol'
import { toClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { CRAWLER_REQUESTS } from '../storage/events/rollup-schema/crawler-requests.js'

/** The categories `ai` stands for. */
export const AI_CATEGORIES = ['ai_training', 'ai_search', 'ai_assistant'] as const

/** A crawler rule's filter: the category (or `ai`) and the agent, null for any. */
export interface CrawlerAlertFilter {
  siteId: number
  crawlerCategory: AlertCrawlerCategory | null
  crawlerAgent?: string | null
}

function where(filter: CrawlerAlertFilter): { sql: string; params: Record<string, unknown> } {
  const categories =
    filter.crawlerCategory === null
      ? []
      : filter.crawlerCategory === 'ai'
        ? [...AI_CATEGORIES]
        : [filter.crawlerCategory]
  return {
    sql: `site_id = {site:UInt32}
       AND (length({categories:Array(String)}) = 0 OR has({categories:Array(String)}, category))
       AND ({agent:String} = '' OR agent = {agent:String})`,
    params: { site: filter.siteId, categories, agent: filter.crawlerAgent ?? '' },
  }
}

/**
 * Crawler requests of the site that match the filter, logged in (from, to].
 * @param from window start, epoch ms (exclusive)
 * @param to window end, epoch ms (inclusive)
 */
export async function crawlerRequestCount(
  events: EventsStore,
  filter: CrawlerAlertFilter,
  from: number,
  to: number,
): Promise<number> {
  const condition = where(filter)
  const [row] = await events.query<{ value: number }>(
    `SELECT count() AS value FROM ${CRAWLER_REQUESTS}
     WHERE ${condition.sql}
       AND timestamp > {from:DateTime64(3, 'UTC')} AND timestamp <= {to:DateTime64(3, 'UTC')}`,
    { ...condition.params, from: toClickHouseTime(from), to: toClickHouseTime(to) },
  )
  return Number(row?.value ?? 0)
}

/** Every agent (of the filter's category) with a stored request on the site, by name, sorted. */
export async function crawlerAgentsSeen(events: EventsStore, filter: CrawlerAlertFilter): Promise<string[]> {
  const condition = where({ ...filter, crawlerAgent: null })
  const rows = await events.query<{ agent: string }>(
    `SELECT DISTINCT agent FROM ${CRAWLER_REQUESTS} WHERE ${condition.sql} ORDER BY agent`,
    condition.params,
  )
  return rows.map((row) => row.agent)
}
