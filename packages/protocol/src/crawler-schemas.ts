/**
 * The wire shapes of crawler traffic: what an access log ingest did (`POST /api/sites/{siteId}/logs`)
 * and the crawler reports (`GET /api/sites/{siteId}/crawlers`, `GET /api/v1/sites/{siteId}/crawlers`).
 */
import { z } from 'zod'
import { crawlerCategoryList } from './enums.js'
import { component, doc } from './openapi-registry.js'
import { count } from './schema-fields.js'

/** What an agent does with what it fetches (the server's `crawlers/crawler-agents.ts` lists the agents). */
export const crawlerCategoryNames = crawlerCategoryList

const category = doc(
  z.enum(crawlerCategoryNames),
  'ai_training (AI training crawler), ai_search (AI search indexer), ai_assistant (AI assistant fetching for a user), search_engine, seo (SEO tool), monitor, other (other bot)',
)

export const logIngestResult = component(
  'LogIngestResult',
  z.object({
    success: z.literal(true),
    lines: count('Lines read: kept + skippedHuman + blank + rejectedCount'),
    kept: count('Requests of crawlers and other bots, stored'),
    skippedHuman: count("Requests of people's browsers, not stored (the tracking script counts people)"),
    blank: count('Empty lines'),
    rejectedCount: count('Lines that are no request in a known format'),
    rejected: doc(
      z.array(
        z.object({
          line: doc(z.int().min(1), '1-based line number in the body'),
          reason: doc(z.string(), 'What is wrong, naming the field (`status: ...`)'),
        }),
      ),
      'The first 100 rejected lines',
    ),
    agents: doc(z.record(z.string(), z.int().min(0)), 'Stored requests per agent name'),
    humanPageRequests: count("People's page requests in the log (GET of a page answered 200 or 304)"),
    from: doc(z.string().nullable(), 'First request time read (ISO 8601), null when none'),
    to: doc(z.string().nullable(), 'Last request time read (ISO 8601), null when none'),
    estimate: doc(
      z
        .object({
          humanPageRequests: count("People's page requests in the log"),
          trackedPageviews: count('Pageviews the tracking script reported over the same span'),
          estimatedUnseenShare: doc(
            z.number().min(0).max(1),
            'max(0, 1 - tracked / human page requests): an estimate of page views the script did not see (blockers), not a count',
          ),
        })
        .nullable(),
      'With `estimate=true`: the estimate of unseen page views (null without human page requests); absent otherwise',
    ).optional(),
  }),
  'What an access log ingest stored, skipped and rejected.',
)

export const crawlerAgentRow = component(
  'CrawlerAgent',
  z.object({
    agent: doc(z.string(), "The agent's name ('GPTBot'); for an unknown bot its product token"),
    operator: doc(z.string(), "Who runs it ('OpenAI'); '' when unknown"),
    category,
    verified: doc(
      z.boolean(),
      "True when every request came from an address in the operator's published ranges; false: claimed by the user agent alone (or partly)",
    ),
    verifiedRequests: count("Requests from the operator's published ranges"),
    requests: count('Requests in the range'),
    pages: count('Distinct paths requested'),
    bytes: count('Response bytes served'),
    firstSeen: doc(z.string(), 'First request in the range (ISO 8601)'),
    lastSeen: doc(z.string(), 'Last request in the range (ISO 8601)'),
  }),
  'One crawler or agent over a date range.',
)

export const crawlerReport = component(
  'CrawlerReport',
  z.object({
    agents: z.array(crawlerAgentRow),
    series: doc(
      z.array(z.object({ date: z.string(), category, agent: z.string(), requests: count('Requests') })),
      'Requests per day (YYYY-MM-DD in the time zone), category and agent',
    ),
    pages: doc(
      z.array(z.object({ agent: z.string(), pathname: z.string(), requests: count('Requests') })),
      'The 10 paths each agent requested most',
    ),
    statuses: doc(
      z.array(
        z.object({ agent: z.string(), status: z.int(), requests: count('Requests'), bytes: count('Bytes') }),
      ),
      'Requests and bytes per agent and HTTP status',
    ),
  }),
  "A site's crawler traffic over a date range.",
)

/** One agent over a range. */
export type CrawlerAgent = z.infer<typeof crawlerAgentRow>
/** The Crawlers page's data. */
export type CrawlerReport = z.infer<typeof crawlerReport>
/** What an access log ingest answers. */
export type LogIngestResult = z.infer<typeof logIngestResult>
