/**
 * The demo's traffic: the page requests of an access log, each at its own logged time moved forward by
 * one offset so that the log's latest request happens now (the spacing between requests is kept), sent
 * to a running Pathlight as one `POST /api/sites/{siteId}/import` of raw NDJSON lines. The import
 * enriches them as live tracking does (geolocation, user agent, channel, visitor id, bots dropped when
 * the site blocks them) and sessionizes them by timestamp, so the site shows days, sessions with
 * durations and comparisons as a real site would.
 */
import type { ImportResult } from '@pathlight/protocol'
import { type AccessLogLine, isPageRequest } from './access-log.js'

/** Options of {@link importAccessLog}. */
export interface ImportAccessLogOptions {
  /** Server origin without trailing slash, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string
  siteId: number
  /** The site's domain: each line's `hostname`. */
  domain: string
  /** A session cookie (`name=value`) of an admin or owner of the site; sent with `Origin: baseUrl`. */
  cookie: string
  /** Parsed log lines in any order; only those passing {@link isPageRequest} are sent. */
  lines: readonly AccessLogLine[]
  /** Where the log's latest page request lands, epoch ms (default: `Date.now()`). */
  now?: number
  /** Called with `(0, total)` first, then as the upload takes the lines (`done` lines handed over). */
  onProgress?: (done: number, total: number) => void
}

/** What {@link importAccessLog} sent and what the server made of it. */
export interface ImportAccessLogResult {
  /** Page requests of the log (with or without a user agent). */
  pages: number
  /** Lines sent to the import. */
  sent: number
  /** Events stored. */
  imported: number
  /**
   * Page requests not stored, by reason: the import's own (`bot:crawler`, `excluded_ip`, ...) plus
   * `bot:empty_user_agent` for requests logged without a user agent, which are not sent (a tracking
   * script runs in a browser, which always names itself; live tracking drops them under that reason).
   */
  dropped: Record<string, number>
  /** Lines the import refused as invalid (none expected). */
  rejected: number
  /** The offset added to every logged time, ms. */
  offsetMs: number
  /** The first and the last event time after the shift (the last is `now`); null without pages. */
  from: Date | null
  to: Date | null
}

/** Lines per chunk of the streamed body (and per progress step). */
const CHUNK_LINES = 500

/**
 * The offset that moves the latest of `times` to `now`.
 * @param times epoch ms, any order
 * @returns ms to add to each time (0 for none)
 */
export function offsetToNow(times: readonly number[], now: number): number {
  if (times.length === 0) return 0
  let latest = Number.NEGATIVE_INFINITY
  for (const time of times) if (time > latest) latest = time
  return now - latest
}

/**
 * One raw import line for a logged page request: the tracking body's fields plus `timestamp`
 * (ISO 8601 UTC, the logged time plus `offsetMs`) and the logged address and user agent.
 */
export function toImportLine(line: AccessLogLine, domain: string, offsetMs: number): Record<string, string> {
  return {
    timestamp: new Date(line.time.getTime() + offsetMs).toISOString(),
    type: 'pageview',
    hostname: domain,
    pathname: line.path,
    querystring: line.querystring,
    referrer: line.referrer,
    ip_address: line.ip,
    user_agent: line.userAgent,
  }
}

/**
 * Import the log's page requests into the site, oldest first (the import sessionizes exactly in that
 * order), as one streamed request.
 * @throws Error naming the status and the server's answer when the import is refused (401, 403, 404,
 *   413, 415), or when the connection fails
 */
export async function importAccessLog(opts: ImportAccessLogOptions): Promise<ImportAccessLogResult> {
  const pages = opts.lines.filter(isPageRequest)
  const browserPages = pages
    .filter((line) => line.userAgent !== '')
    .sort((a, b) => a.time.getTime() - b.time.getTime())
  const withoutAgent = pages.length - browserPages.length
  const offsetMs = offsetToNow(
    pages.map((line) => line.time.getTime()),
    opts.now ?? Date.now(),
  )
  const total = browserPages.length
  opts.onProgress?.(0, total)

  const encoder = new TextEncoder()
  let next = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next >= total) {
        controller.close()
        return
      }
      const chunk = browserPages.slice(next, next + CHUNK_LINES)
      next += chunk.length
      const text = chunk.map((line) => `${JSON.stringify(toImportLine(line, opts.domain, offsetMs))}\n`)
      controller.enqueue(encoder.encode(text.join('')))
      opts.onProgress?.(next, total)
    },
  })
  const response = await fetch(`${opts.baseUrl}/api/sites/${opts.siteId}/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', cookie: opts.cookie, origin: opts.baseUrl },
    body,
    // A streamed request body: Node's fetch requires saying that the answer comes after it.
    duplex: 'half',
  } as RequestInit & { duplex: 'half' })
  const text = await response.text()
  if (!response.ok) throw new Error(`POST /api/sites/${opts.siteId}/import: ${response.status} ${text}`)
  const result = JSON.parse(text) as ImportResult
  const dropped = { ...result.dropped }
  if (withoutAgent > 0)
    dropped['bot:empty_user_agent'] = (dropped['bot:empty_user_agent'] ?? 0) + withoutAgent
  let earliest = Number.POSITIVE_INFINITY
  let latest = Number.NEGATIVE_INFINITY
  for (const line of pages) {
    earliest = Math.min(earliest, line.time.getTime())
    latest = Math.max(latest, line.time.getTime())
  }
  return {
    pages: pages.length,
    sent: total,
    imported: result.imported,
    dropped,
    rejected: result.rejectedCount,
    offsetMs,
    from: pages.length > 0 ? new Date(earliest + offsetMs) : null,
    to: pages.length > 0 ? new Date(latest + offsetMs) : null,
  }
}
