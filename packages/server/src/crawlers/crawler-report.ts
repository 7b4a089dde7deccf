/**
 * The crawler reports of a site over a date range, from `crawler_requests`: per agent (operator,
 * category, verification, requests, distinct pages, bytes, first and last request), requests per day
 * by category and agent, each agent's most requested pages, and requests and bytes per status.
 * Dates are the query parameters' range (`query/params.ts`), days counted in its time zone.
 */

import type { QueryParams } from '../query/params.js'
import { fromClickHouseTime, toClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { CRAWLER_REQUESTS } from '../storage/events/rollup-schema/crawler-requests.js'
import type { CrawlerCategory } from './crawler-agents.js'

/** One agent over the range. Times ISO 8601. */
export interface CrawlerAgentRow {
  agent: string
  operator: string
  category: CrawlerCategory
  /** Every request from the operator's published ranges. */
  verified: boolean
  verifiedRequests: number
  requests: number
  pages: number
  bytes: number
  firstSeen: string
  lastSeen: string
}

/** The Crawlers page's data. */
export interface CrawlerReport {
  agents: CrawlerAgentRow[]
  series: Array<{ date: string; category: CrawlerCategory; agent: string; requests: number }>
  pages: Array<{ agent: string; pathname: string; requests: number }>
  statuses: Array<{ agent: string; status: number; requests: number; bytes: number }>
}

/** Pages listed per agent. */
const TOP_PAGES = 10

type Range = Pick<QueryParams, 'from' | 'to' | 'timeZone'>

const WHERE = `site_id = {site:UInt32} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')}`
const paramsOf = (siteId: number, range: Range) => ({
  site: siteId,
  from: toClickHouseTime(range.from),
  to: toClickHouseTime(range.to),
  zone: range.timeZone,
})

interface AgentSql {
  agent: string
  operator: string
  category: CrawlerCategory
  verified_requests: number
  requests: number
  pages: number
  bytes: number
  first_seen: string
  last_seen: string
}

const AGENTS_SQL = `SELECT agent, any(operator) AS operator, any(category) AS category,
  countIf(verified) AS verified_requests, count() AS requests, uniqExact(pathname) AS pages,
  sum(bytes) AS bytes, min(timestamp) AS first_seen, max(timestamp) AS last_seen
FROM ${CRAWLER_REQUESTS} WHERE ${WHERE}
GROUP BY agent ORDER BY requests DESC, agent`

const toAgentRow = (row: AgentSql): CrawlerAgentRow => ({
  agent: row.agent,
  operator: row.operator,
  category: row.category,
  verified: Number(row.verified_requests) === Number(row.requests),
  verifiedRequests: Number(row.verified_requests),
  requests: Number(row.requests),
  pages: Number(row.pages),
  bytes: Number(row.bytes),
  firstSeen: fromClickHouseTime(row.first_seen),
  lastSeen: fromClickHouseTime(row.last_seen),
})

/**
 * A page of agents, most requests first (v1).
 * @returns the page's rows and the number of agents in the range.
 */
export async function queryCrawlerAgents(
  events: EventsStore,
  siteId: number,
  params: Range & Pick<QueryParams, 'page' | 'limit'>,
): Promise<{ data: CrawlerAgentRow[]; total: number }> {
  const bound = paramsOf(siteId, params)
  const [rows, [total]] = await Promise.all([
    events.query<AgentSql>(
      `${AGENTS_SQL} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
      {
        ...bound,
        limit: params.limit,
        offset: (params.page - 1) * params.limit,
      },
      { label: 'crawlers' },
    ),
    events.query<{ n: number }>(
      `SELECT uniqExact(agent) AS n FROM ${CRAWLER_REQUESTS} WHERE ${WHERE}`,
      bound,
      {
        label: 'crawlers',
      },
    ),
  ])
  return { data: rows.map(toAgentRow), total: Number(total?.n ?? 0) }
}

/** Everything the Crawlers page shows over the range. */
export async function queryCrawlerReport(
  events: EventsStore,
  siteId: number,
  range: Range,
): Promise<CrawlerReport> {
  const bound = paramsOf(siteId, range)
  const options = { label: 'crawlers' }
  const [agents, series, pages, statuses] = await Promise.all([
    events.query<AgentSql>(AGENTS_SQL, bound, options),
    events.query<{ date: string; category: CrawlerCategory; agent: string; requests: number }>(
      `SELECT toString(toDate(timestamp, {zone:String})) AS date, category, agent, count() AS requests
       FROM ${CRAWLER_REQUESTS} WHERE ${WHERE} GROUP BY date, category, agent ORDER BY date, requests DESC, agent`,
      bound,
      options,
    ),
    events.query<{ agent: string; pathname: string; requests: number }>(
      `SELECT agent, pathname, count() AS requests FROM ${CRAWLER_REQUESTS} WHERE ${WHERE}
       GROUP BY agent, pathname ORDER BY agent, requests DESC, pathname LIMIT ${TOP_PAGES} BY agent`,
      bound,
      options,
    ),
    events.query<{ agent: string; status: number; requests: number; bytes: number }>(
      `SELECT agent, status, count() AS requests, sum(bytes) AS bytes FROM ${CRAWLER_REQUESTS} WHERE ${WHERE}
       GROUP BY agent, status ORDER BY agent, status`,
      bound,
      options,
    ),
  ])
  return {
    agents: agents.map(toAgentRow),
    series: series.map((row) => ({ ...row, requests: Number(row.requests) })),
    pages: pages.map((row) => ({ ...row, requests: Number(row.requests) })),
    statuses: statuses.map((row) => ({
      ...row,
      status: Number(row.status),
      requests: Number(row.requests),
      bytes: Number(row.bytes),
    })),
  }
}
