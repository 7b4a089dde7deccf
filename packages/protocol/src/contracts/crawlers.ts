/**
 * Crawler traffic: a site's access log in (`POST /api/sites/{siteId}/logs`, for log shippers and the
 * `pathlight ingest-log` command's remote use), its crawlers out (the dashboard's Crawlers page and v1).
 */
import { z } from 'zod'
import { analyticsQuery, booleanParam } from '../analytics-query.js'
import { endpoint } from '../contract.js'
import { crawlerAgentRow, crawlerReport, logIngestResult } from '../crawler-schemas.js'
import { doc } from '../openapi-registry.js'
import { pagedList, successData } from '../response-schemas.js'
import * as at from './addresses.js'

/** `:siteId`, as text: an id that names no site is a 404 of the access check, not a 400. */
const siteParams = z.object({ siteId: z.string() })

export const logsQuery = z.object({
  estimate: doc(
    booleanParam('estimate').optional(),
    "true: compare the log's human page requests with the pageviews the script reported (an estimate of visits lost to blockers)",
  ),
})

/** `POST /api/sites/:siteId/logs`: access log lines in. */
export const ingestSiteLogsEndpoint = endpoint({
  ...at.ingestSiteLogs,
  summary: "Send a site's access log",
  description:
    'One request per line: the combined or common log format (Apache, nginx), nginx JSON ' +
    '(`escape=json` with the variables under their names: `remote_addr`, `time_iso8601`, `request`, `status`, ' +
    "`body_bytes_sent`, `http_referer`, `http_user_agent`, `host`), or Caddy's JSON access log; a shipper's " +
    'NDJSON line with the raw line in `message` is read too. The requests of crawlers and other bots are ' +
    "stored (named, categorised, verified against the operator's published ranges or only claimed); people's " +
    'requests are counted, not stored. A line in no known format is listed with its number and the field, ' +
    'and does not stop the others. At most 1 GiB per request and 1 MiB per line. A key needs the `logs` ' +
    '(or `full`) scope.',
  tag: 'Sites',
  access: 'admin',
  keyUse: 'logs',
  params: siteParams,
  query: logsQuery,
  body: doc(z.string(), 'Log lines, `text/plain` or `application/x-ndjson`'),
  bodyMediaTypes: ['text/plain', 'application/x-ndjson'],
  rawBody: true,
  responses: {
    200: { description: 'What was stored, skipped and rejected', schema: logIngestResult },
    413: 'The body or a line is over its limit (the lines before it were stored)',
    415: 'The body is neither `text/plain` nor `application/x-ndjson`',
  },
})

/** `GET /api/sites/:siteId/crawlers`: the Crawlers page's data. */
export const siteCrawlersEndpoint = endpoint({
  ...at.siteCrawlers,
  summary: "A site's crawlers and agents",
  description:
    'Over the date range: each agent with its operator, category, verification, requests, pages, bytes and ' +
    'first and last request; requests per day by category and agent; the pages each agent requested most; ' +
    'requests and bytes by status. From access logs (`POST .../logs`), apart from the visit reports.',
  tag: 'Reports',
  access: 'reader',
  params: siteParams,
  query: analyticsQuery,
  responses: { 200: { description: 'The report', schema: successData(crawlerReport) } },
})

/** `GET /api/v1/sites/:siteId/crawlers`: the crawlers, a page of agents. */
export const v1CrawlersEndpoint = endpoint({
  ...at.v1Crawlers,
  summary: 'Crawlers and agents with their requests',
  description:
    "Per agent over the range: operator, category, verified (every request from the operator's published " +
    'ranges), requests and distinct pages, most requests first. From access logs sent to `POST /api/sites/{siteId}/logs`.',
  tag: 'v1',
  access: 'apiKey',
  params: siteParams,
  query: analyticsQuery,
  responses: {
    200: { description: 'A page of agents, most requests first', schema: pagedList(crawlerAgentRow) },
    404: "No site with this id is the key's user's",
  },
})

/** Every crawler endpoint (the route/contract coverage test reads these). */
export const crawlerEndpoints = [ingestSiteLogsEndpoint, siteCrawlersEndpoint, v1CrawlersEndpoint] as const

declare module './addresses.js' {
  interface EndpointContracts {
    ingestSiteLogs: typeof ingestSiteLogsEndpoint
    siteCrawlers: typeof siteCrawlersEndpoint
    v1Crawlers: typeof v1CrawlersEndpoint
  }
}
