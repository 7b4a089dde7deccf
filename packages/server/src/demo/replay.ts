import { type AccessLogLine, isPageRequest } from './access-log.js'

/** Options of {@link replayAccessLog}. */
export interface ReplayOptions {
  /** Server origin without trailing slash, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string
  /** Numeric site id; sent as a string in `site_id`. */
  siteId: number
  /** The site's domain, e.g. `example.com`: sent as `Origin: https://{domain}` and body `hostname`. */
  domain: string
  /** Parsed log lines in log order; only those passing {@link isPageRequest} are sent. */
  lines: readonly AccessLogLine[]
  /** Requests in flight at once; default 16, at least 1. */
  concurrency?: number
  /** Called with `(0, total)` first, then after every completed request (`done` counts completions). */
  onProgress?: (done: number, total: number) => void
}

/** Outcome counts of {@link replayAccessLog}. */
export interface ReplayResult {
  /** Requests attempted (= page requests among `lines`). */
  sent: number
  /** Responses `200` whose body is not `{success:false}` nor `{tracked:false}`. */
  accepted: number
  /**
   * Everything else by outcome: `'<status> <error>'` from the JSON body (`'403 Bot detected'`,
   * `'429 Too Many Requests'`, falling back to the HTTP status text), `'200 not tracked: <reason>'`
   * for `{success:true, tracked:false, reason}`, and `'network'` for connection errors and timeouts.
   */
  rejected: Record<string, number>
}

const DEFAULT_CONCURRENCY = 16
const REQUEST_TIMEOUT_MS = 30_000

/**
 * Replays the page requests of an access log against a running Pathlight server as if a tracking
 * script on `https://{domain}` had fired them: one keyless `POST {baseUrl}/api/track` per page request,
 * headers `Content-Type: application/json`, `Origin: https://{domain}`, the logged user agent as
 * `User-Agent` (empty when the log has none) and the logged address as `X-Forwarded-For` (as a reverse proxy in
 * front of the server names the visitor: the server must trust the loopback proxy, `TRUST_PROXY`; a
 * keyless request's body cannot name its address), body
 * `{site_id, type:'pageview', hostname, pathname, querystring, referrer}`.
 *
 * Requests start in the lines' original order; `concurrency` workers pull the next line from a shared
 * index, over Node's global fetch (undici, which keeps connections alive by default). Each request
 * times out after 30 s.
 *
 * @returns counts by outcome; never rejects because of HTTP errors, refused connections or timeouts
 *   (those are counted). It rejects only if `onProgress` throws.
 */
export async function replayAccessLog(opts: ReplayOptions): Promise<ReplayResult> {
  const pages = opts.lines.filter(isPageRequest)
  const total = pages.length
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/api/track`
  const rejected: Record<string, number> = {}
  let accepted = 0
  let next = 0
  let done = 0
  opts.onProgress?.(0, total)

  const worker = async (): Promise<void> => {
    while (next < total) {
      const line = pages[next++]
      if (!line) break
      const outcome = await sendPageview(url, opts.siteId, opts.domain, line)
      if (outcome === null) accepted++
      else rejected[outcome] = (rejected[outcome] ?? 0) + 1
      done++
      opts.onProgress?.(done, total)
    }
  }

  const workers = Math.max(1, Math.min(opts.concurrency ?? DEFAULT_CONCURRENCY, total))
  await Promise.all(Array.from({ length: workers }, worker))
  return { sent: total, accepted, rejected }
}

/** Sends one pageview; `null` when accepted, otherwise the outcome key. */
async function sendPageview(
  url: string,
  siteId: number,
  domain: string,
  line: AccessLogLine,
): Promise<string | null> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Origin: `https://${domain}`,
    'X-Forwarded-For': line.ip,
    // Always set: fetch would otherwise send its own ('node') where the log had none.
    'User-Agent': line.userAgent,
  }
  const body = JSON.stringify({
    site_id: String(siteId),
    type: 'pageview',
    hostname: domain,
    pathname: line.path,
    querystring: line.querystring,
    referrer: line.referrer,
  })
  let status: number
  let statusText: string
  let text: string
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
    status = response.status
    statusText = response.statusText
    text = await response.text()
  } catch {
    return 'network'
  }
  return classify(status, statusText, text)
}

/** Maps a response to `null` (accepted) or its outcome key. */
function classify(status: number, statusText: string, text: string): string | null {
  const json = parseObject(text)
  if (status === 200) {
    if (json?.success === false) return `200 ${stringField(json, 'error') ?? 'success:false'}`
    if (json?.tracked === false) return `200 not tracked: ${stringField(json, 'reason') ?? 'unknown'}`
    return null
  }
  const error = (json && stringField(json, 'error')) ?? (statusText || 'error')
  return `${status} ${error}`
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

function stringField(json: Record<string, unknown>, key: string): string | undefined {
  const value = json[key]
  return typeof value === 'string' ? value : undefined
}
