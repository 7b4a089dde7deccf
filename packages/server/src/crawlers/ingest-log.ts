/**
 * A site's access log into `crawler_requests`: every line parsed (`parse-log-line.ts`), its agent
 * classified (`classify-agent.ts`), and the requests of crawlers and other bots stored, in batches.
 * People's requests are not stored (the tracking script counts them); their page requests are
 * counted, so that `estimateUnseen` can compare them with the pageviews the script reported.
 *
 * Every line is accounted for: kept (a bot's request), skipped as human, blank, or rejected with its
 * line number (from 1) and the reason naming the field.
 */
import { isPageRequest } from '../demo/access-log.js'
import { toClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { type AgentClass, classifyAgent, inPublishedRanges, VERIFIABLE_AGENTS } from './classify-agent.js'
import { type CrawlerRequestRow, insertCrawlerRequests } from './crawler-store.js'
import { parseLogLine } from './parse-log-line.js'

/** A line that could not be read: its number (from 1) and why, naming the field. */
export interface RejectedLogLine {
  line: number
  reason: string
}

/** What an ingest did with the log's lines. */
export interface LogIngestSummary {
  /** Lines read (kept + skippedHuman + blank + rejectedCount). */
  lines: number
  /** Requests of crawlers and other bots, stored. */
  kept: number
  /** Requests of people's browsers, not stored. */
  skippedHuman: number
  /** Empty lines. */
  blank: number
  rejectedCount: number
  /** The first `MAX_REJECTED_LISTED` rejected lines. */
  rejected: RejectedLogLine[]
  /** Stored requests per agent name. */
  agents: Record<string, number>
  /** People's page requests in the log (GET of a page answered 200 or 304; `isPageRequest`). */
  humanPageRequests: number
  /** Time of the first and last request read (ISO 8601), null when none. */
  from: string | null
  to: string | null
}

/** Rejected lines listed in a summary; the count covers them all. */
export const MAX_REJECTED_LISTED = 100

/** The summary of no lines. */
export function emptyLogSummary(): LogIngestSummary {
  return {
    lines: 0,
    kept: 0,
    skippedHuman: 0,
    blank: 0,
    rejectedCount: 0,
    rejected: [],
    agents: {},
    humanPageRequests: 0,
    from: null,
    to: null,
  }
}

/**
 * Add the summary of the lines that followed `total`'s (a batch sent on its own) to `total`, in place:
 * its line numbers are shifted to the whole input's, at most `MAX_REJECTED_LISTED` rejected lines kept.
 */
export function addLogSummary(total: LogIngestSummary, part: LogIngestSummary): void {
  const offset = total.lines
  total.lines += part.lines
  total.kept += part.kept
  total.skippedHuman += part.skippedHuman
  total.blank += part.blank
  total.rejectedCount += part.rejectedCount
  for (const entry of part.rejected) {
    if (total.rejected.length < MAX_REJECTED_LISTED)
      total.rejected.push({ line: entry.line + offset, reason: entry.reason })
  }
  for (const [agent, n] of Object.entries(part.agents)) total.agents[agent] = (total.agents[agent] ?? 0) + n
  total.humanPageRequests += part.humanPageRequests
  if (part.from !== null && (total.from === null || part.from < total.from)) total.from = part.from
  if (part.to !== null && (total.to === null || part.to > total.to)) total.to = part.to
}
/** Rows per INSERT: large blocks, few parts for the store to merge. */
const BATCH_ROWS = 50_000
/** Distinct user agents (and agent + address pairs) whose classification is remembered. */
const CACHE_ENTRIES = 50_000

/** Feeds lines to a site's crawler table; `finish()` stores the last batch and answers the summary. */
export interface LogIngest {
  /**
   * Read one line (without its line break). A batch it completes is sent to the store while the
   * next lines are read; resolves once the batch before that one is stored (one INSERT in flight),
   * and rejects with that INSERT's error.
   */
  add(line: string): Promise<void>
  /** Store what is left; the summary counts every line added. @throws the store's error */
  finish(): Promise<LogIngestSummary>
}

/**
 * Start an ingest into `siteId`'s crawler requests.
 * @param events the events store (table `crawler_requests`).
 * @param firstLine the number of the first line added (default 1), for a follow that goes on.
 */
export function startLogIngest(events: EventsStore, siteId: number, firstLine = 1): LogIngest {
  const summary = emptyLogSummary()
  let first = Number.POSITIVE_INFINITY
  let last = Number.NEGATIVE_INFINITY
  let batch: CrawlerRequestRow[] = []
  let inFlight: Promise<void> = Promise.resolve()
  const agents = new Map<string, number>()
  const classifier = agentClassifier()

  /** Send the batch; the INSERT before it is awaited first, so at most one runs at a time. */
  const flush = async () => {
    await inFlight
    const rows = batch
    batch = []
    inFlight = insertCrawlerRequests(events, rows)
    // Reported by the next add() or finish(); not an unhandled rejection meanwhile.
    inFlight.catch(() => {})
  }

  return {
    async add(line) {
      const number = firstLine + summary.lines
      summary.lines += 1
      if (isBlank(line)) {
        summary.blank += 1
        return
      }
      const parsed = parseLogLine(line)
      if (!parsed.ok) {
        summary.rejectedCount += 1
        if (summary.rejected.length < MAX_REJECTED_LISTED)
          summary.rejected.push({ line: number, reason: parsed.reason })
        return
      }
      const request = parsed.request
      const time = request.time.getTime()
      if (time < first) first = time
      if (time > last) last = time
      const agent = classifier(request.userAgent, request.ip)
      if (agent === null) {
        summary.skippedHuman += 1
        if (isPageRequest(request)) summary.humanPageRequests += 1
        return
      }
      summary.kept += 1
      agents.set(agent.name, (agents.get(agent.name) ?? 0) + 1)
      batch.push({
        site_id: siteId,
        timestamp: time,
        agent: agent.name,
        operator: agent.operator,
        category: agent.category,
        verified: agent.verified,
        method: request.method,
        host: request.host,
        pathname: request.path,
        status: request.status,
        bytes: request.bytes,
        user_agent: request.userAgent,
      })
      if (batch.length >= BATCH_ROWS) await flush()
    },
    async finish() {
      await flush()
      await inFlight
      summary.agents = Object.fromEntries([...agents].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])))
      summary.from = Number.isFinite(first) ? new Date(first).toISOString() : null
      summary.to = Number.isFinite(last) ? new Date(last).toISOString() : null
      return summary
    },
  }
}

/** Whether a line holds only whitespace, without trimming it (most lines fail at the first character). */
function isBlank(line: string): boolean {
  if (line.length === 0) return true
  const code = line.charCodeAt(0)
  if (code > 32 && code !== 160) return false
  return line.trim() === ''
}

/**
 * `classifyAgent` with two bounded caches (logs repeat them): the class per user agent, and the
 * verification per address for the agents that publish ranges, so that each distinct user agent is
 * classified once and each (agent, address) pair is looked up in the ranges once. A cache that
 * reaches `CACHE_ENTRIES` starts over.
 */
export function agentClassifier(): (userAgent: string, ip: string) => AgentClass | null {
  const known = new Map<string, AgentClass | null>()
  const verified = new Map<string, Map<string, AgentClass>>()
  let pairs = 0
  return (userAgent, ip) => {
    let agent = known.get(userAgent)
    if (agent === undefined) {
      agent = classifyAgent(userAgent, '')
      if (known.size >= CACHE_ENTRIES) known.clear()
      known.set(userAgent, agent)
    }
    if (agent === null || !VERIFIABLE_AGENTS.has(agent.name)) return agent
    let byAddress = verified.get(userAgent)
    if (byAddress === undefined) {
      byAddress = new Map()
      verified.set(userAgent, byAddress)
    }
    let answer = byAddress.get(ip)
    if (answer === undefined) {
      answer = inPublishedRanges(agent.name, ip) ? { ...agent, verified: true } : agent
      if (pairs >= CACHE_ENTRIES) {
        verified.clear()
        pairs = 0
        verified.set(userAgent, byAddress)
        byAddress.clear()
      }
      byAddress.set(ip, answer)
      pairs += 1
    }
    return answer
  }
}

/**
 * Ingest every line of `lines` (a file, standard input, a request body) into a site's crawler table.
 * @returns the summary once every kept request is committed.
 * @throws the store's error (requests of the batches before it stay stored), or the error of `lines`
 *   (the requests read before it are stored first)
 */
export async function ingestLog(
  events: EventsStore,
  siteId: number,
  lines: Iterable<string> | AsyncIterable<string>,
): Promise<LogIngestSummary> {
  const ingest = startLogIngest(events, siteId)
  try {
    for await (const line of lines) await ingest.add(line)
  } catch (error) {
    // A body over its limit, a file that cannot be read: what was read before is stored.
    await ingest.finish()
    throw error
  }
  return ingest.finish()
}

/** An estimate of the people's page views the tracking script did not see. */
export interface UnseenEstimate {
  /** People's page requests in the log over its time span. */
  humanPageRequests: number
  /** Pageviews the script reported over the same span. */
  trackedPageviews: number
  /** max(0, 1 - tracked / human page requests): an estimate, not a count (blockers, caches, bots that pass as people). */
  estimatedUnseenShare: number
}

/**
 * Compare a log's human page requests with the pageviews stored for the site over the log's span.
 * @returns null when the log had no people's page requests or no time span.
 */
export async function estimateUnseen(
  events: EventsStore,
  siteId: number,
  summary: LogIngestSummary,
): Promise<UnseenEstimate | null> {
  if (summary.humanPageRequests === 0 || summary.from === null || summary.to === null) return null
  const [row] = await events.query<{ n: number }>(
    `SELECT count() AS n FROM events WHERE site_id = {site:UInt32} AND type = 'pageview'
     AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp <= {to:DateTime64(3, 'UTC')}`,
    { site: siteId, from: toClickHouseTime(summary.from), to: toClickHouseTime(summary.to) },
  )
  const tracked = Number(row?.n ?? 0)
  const share = Math.max(0, 1 - tracked / summary.humanPageRequests)
  return {
    humanPageRequests: summary.humanPageRequests,
    trackedPageviews: tracked,
    estimatedUnseenShare: Math.round(share * 1000) / 1000,
  }
}
