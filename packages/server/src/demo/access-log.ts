/**
 * One request from an Apache/Nginx "combined" access log
 * (`ip - user [10/Oct/2000:13:55:36 -0700] "GET /a?b=c HTTP/1.0" 200 2326 "referer" "ua"`).
 *
 * - `ip`: the client address exactly as logged (IPv4, IPv6 or a resolved host name).
 * - `time`: the logged instant (the log's UTC offset is applied).
 * - `method`: the request method as logged (`GET`, `POST`...), `''` when the request line is unusable
 *   (e.g. `"-"` for a connection closed before a request, or TLS bytes sent to the HTTP port).
 * - `path`: the request target up to the first `?`, still percent-encoded as logged; an absolute-form
 *   target (`GET http://host/x`, proxy probes) is reduced to its path (`/x`). `''` when unusable.
 * - `querystring`: the part after the first `?`, without the `?`; `''` when none.
 * - `status`: the HTTP status code (100–599).
 * - `bytes`: response size in bytes; `0` when logged as `-`.
 * - `referrer`, `userAgent`: unescaped field values; `''` when logged as `-` or missing (common format).
 */
export interface AccessLogLine {
  ip: string
  time: Date
  method: string
  path: string
  querystring: string
  status: number
  bytes: number
  referrer: string
  userAgent: string
}

const HEAD = /^(\S+)\s+\S+\s+.*?\[([^\]]*)\]\s*/
const STATUS_BYTES = /^\s+(\d{3})\s+(\d+|-)(?=\s|$)/
/** Fallback when the request field holds an unescaped quote followed by a space. */
const LOOSE_REQUEST = /^"(.*?)"\s+(\d{3})\s+(\d+|-)(?=\s|$)/
const TIME = /^(\d{1,2})\/([A-Za-z]{3})\/(\d{4}):(\d{2}):(\d{2}):(\d{2})(?:\s+([+-])(\d{2}):?(\d{2}))?$/
const MONTHS: Readonly<Record<string, number>> = {
  jan: 0,
  feb: 1,
  mar: 2,
  apr: 3,
  may: 4,
  jun: 5,
  jul: 6,
  aug: 7,
  sep: 8,
  oct: 9,
  nov: 10,
  dec: 11,
}
const METHOD = /^[A-Za-z]{1,20}$/
const PROTOCOL = /^HTTP\/\d/i
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i

/**
 * Parses one line of an Apache/Nginx "combined" (or "common") access log.
 *
 * Tolerates the quirks of real logs: trailing whitespace or `\r`, `-` referrer/user agent (→ `''`),
 * `\"` and `\\` escapes inside quoted fields (Apache), printable `\xHH` escapes (Nginx writes `"` as
 * `\x22`; non-printable ones are kept verbatim), a quote inside a field that is not followed by
 * whitespace (kept as a literal quote), an unterminated last quoted field (the rest of the line is
 * taken), IPv6 clients, absolute-form request targets, HTTP/0.9 and other malformed request lines
 * (→ `method`/`path` `''` when nothing usable), missing referrer/user agent, and trailing extra fields
 * (ignored).
 *
 * @param line one log line, with or without its line terminator.
 * @returns the parsed request, or `null` only when the line is unusable: blank, no client address,
 *   no valid `[time]`, or no 3-digit status after the request field.
 */
export function parseAccessLogLine(line: string): AccessLogLine | null {
  const text = line.trim()
  const head = HEAD.exec(text)
  if (!head) return null
  const [whole, ip = '', rawTime = ''] = head
  const time = parseLogTime(rawTime)
  if (!time) return null
  const tail = text.slice(whole.length)

  const fields = readRequestStatusBytes(tail)
  if (!fields) return null
  const { request, status, bytes, rest } = fields
  if (status < 100 || status > 599) return null

  const { method, path, querystring } = splitRequestLine(request)
  const referrerField = readOptionalQuoted(rest, 0)
  const agentField = readOptionalQuoted(rest, referrerField.end)
  return {
    ip,
    time,
    method,
    path,
    querystring,
    status,
    bytes,
    referrer: dashToEmpty(referrerField.value),
    userAgent: dashToEmpty(agentField.value),
  }
}

/**
 * Parses every usable line of a whole access log, in file order.
 *
 * @param text the log's contents; `\n` or `\r\n` line endings; blank and unusable lines are skipped
 *   silently (compare the yielded count with the line count to measure the parse rate).
 * @yields one {@link AccessLogLine} per usable line.
 */
export function* readAccessLog(text: string): Generator<AccessLogLine> {
  for (const line of text.split('\n')) {
    const parsed = parseAccessLogLine(line)
    if (parsed) yield parsed
  }
}

/** Last path-segment extensions that still render an HTML page (server-side scripts and documents). */
const PAGE_EXTENSIONS: ReadonlySet<string> = new Set([
  'html',
  'htm',
  'xhtml',
  'shtml',
  'php',
  'asp',
  'aspx',
  'jsp',
  'cfm',
])
const FEED_SEGMENT = /\/(?:feed|rss|atom)\/?$/i
const FEED_QUERY = /(?:^|&)(?:flav|feed|format)=(?:rss|atom)/i

/**
 * Whether a logged request would have produced a pageview from an in-page tracking script, i.e. it
 * was a document a browser renders.
 *
 * Rules (decided from the five logs in shared/data, where 13,005 of 19,580 GET 200/304
 * requests, 66 %, are not pages):
 * - method `GET` (HEAD/POST never render a page; a form POST answers with a redirect then a GET);
 * - status `200` or `304` (a revalidated page is still rendered; 3xx redirects are followed by another
 *   request that counts instead; 206 is a media range; 4xx/5xx error pages are not pageviews);
 * - path starts with `/` and its last segment has no extension (`/`, `/blog/`, `/about`) or a page
 *   extension: html, htm, xhtml, shtml, php, asp, aspx, jsp, cfm. An allowlist rather than an asset
 *   blocklist, because real logs are full of downloads a blocklist misses (`.gz`, `.py`, `.ipynb`,
 *   `access.log.2020-11-06`...). Cost: pages whose last segment contains a dot (`/users/jo.doe`) are
 *   missed;
 * - not a feed: last segment `feed`, `rss` or `atom`, or a query `flav=rss…|atom` (Blosxom, 9 % of
 *   the elastic log), `feed=rss…`, `format=atom…`. Feed readers fetch XML, not pages.
 *
 * @param line a parsed log line.
 * @returns `true` for a page a tracking script would have reported.
 */
export function isPageRequest(line: AccessLogLine): boolean {
  if (line.method !== 'GET') return false
  if (line.status !== 200 && line.status !== 304) return false
  if (!line.path.startsWith('/')) return false
  if (FEED_SEGMENT.test(line.path) || FEED_QUERY.test(line.querystring)) return false
  const segment = line.path.slice(line.path.lastIndexOf('/') + 1)
  const dot = segment.lastIndexOf('.')
  if (dot === -1) return true
  return PAGE_EXTENSIONS.has(segment.slice(dot + 1).toLowerCase())
}

/** `[10/Oct/2000:13:55:36 -0700]` contents → Date; null when invalid. A missing offset means UTC. */
function parseLogTime(raw: string): Date | null {
  // Consecutive lines often share their second: the last time read is reused.
  if (raw === lastTime.raw) return lastTime.ms === null ? null : new Date(lastTime.ms)
  const time = parseLogTimeText(raw)
  lastTime = { raw, ms: time === null ? null : time.getTime() }
  return time
}

let lastTime: { raw: string; ms: number | null } = { raw: '', ms: null }

function parseLogTimeText(raw: string): Date | null {
  const match = TIME.exec(raw.trim())
  if (!match) return null
  const [, day, monthName = '', year, hour, minute, second, sign, offsetHours, offsetMinutes] = match
  const month = MONTHS[monthName.toLowerCase()]
  if (month === undefined) return null
  const d = Number(day)
  const h = Number(hour)
  const mi = Number(minute)
  const s = Number(second)
  if (d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return null
  const offset = sign ? (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes)) : 0
  const ms = Date.UTC(Number(year), month, d, h, mi, s) - offset * 60_000
  return new Date(ms)
}

interface RequestStatusBytes {
  request: string
  status: number
  bytes: number
  rest: string
}

/** Reads `"request" status bytes` from the start of `tail`; null when no status can be found. */
function readRequestStatusBytes(tail: string): RequestStatusBytes | null {
  if (!tail.startsWith('"')) return null
  const request = readQuoted(tail, 0)
  const after = STATUS_BYTES.exec(tail.slice(request.end))
  if (after) {
    const [matched, status = '', bytes = ''] = after
    return {
      request: request.value,
      status: Number(status),
      bytes: bytes === '-' ? 0 : Number(bytes),
      rest: tail.slice(request.end + matched.length),
    }
  }
  const loose = LOOSE_REQUEST.exec(tail)
  if (!loose) return null
  const [matched, rawRequest = '', status = '', bytes = ''] = loose
  return {
    request: unescapeField(rawRequest),
    status: Number(status),
    bytes: bytes === '-' ? 0 : Number(bytes),
    rest: tail.slice(matched.length),
  }
}

interface QuotedField {
  value: string
  /** Index just after the field (after its closing quote, or the end of the text). */
  end: number
}

/** Reads an optional quoted field after optional whitespace; `''` when there is none. */
function readOptionalQuoted(text: string, from: number): QuotedField {
  let start = from
  while (start < text.length && /\s/.test(text.charAt(start))) start++
  if (text.charAt(start) !== '"') return { value: '', end: from }
  return readQuoted(text, start)
}

/**
 * Reads a quoted field starting at the opening quote `text[start]`. A quote closes the field only when
 * followed by whitespace or the end of the text; otherwise it is a literal quote. Unterminated fields
 * run to the end of the text (trailing whitespace removed).
 */
function readQuoted(text: string, start: number): QuotedField {
  // Fast path, most fields: the closing quote comes before any backslash, so the value is a slice.
  let close = text.indexOf('"', start + 1)
  while (close !== -1 && close + 1 < text.length && !/\s/.test(text.charAt(close + 1)))
    close = text.indexOf('"', close + 1)
  if (close !== -1) {
    const slash = text.indexOf('\\', start + 1)
    if (slash === -1 || slash > close) return { value: text.slice(start + 1, close), end: close + 1 }
  }
  let value = ''
  let i = start + 1
  while (i < text.length) {
    const char = text.charAt(i)
    if (char === '\\' && i + 1 < text.length) {
      const [decoded, length] = decodeEscape(text, i)
      value += decoded
      i += length
      continue
    }
    if (char === '"') {
      const next = text.charAt(i + 1)
      if (next === '' || /\s/.test(next)) return { value, end: i + 1 }
    }
    value += char
    i++
  }
  return { value: value.trimEnd(), end: text.length }
}

/** Decodes the escape at `text[i] === '\\'`; returns the text it stands for and its source length. */
function decodeEscape(text: string, i: number): [string, number] {
  const next = text.charAt(i + 1)
  if (next === '"' || next === '\\') return [next, 2]
  if (next === 'x') {
    const hex = text.slice(i + 2, i + 4)
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      const code = Number.parseInt(hex, 16)
      if (code >= 0x20 && code < 0x7f) return [String.fromCharCode(code), 4]
    }
  }
  return ['\\', 1]
}

/** Unescapes a raw quoted-field body (used by the loose fallback). */
function unescapeField(raw: string): string {
  let value = ''
  let i = 0
  while (i < raw.length) {
    if (raw.charAt(i) === '\\' && i + 1 < raw.length) {
      const [decoded, length] = decodeEscape(raw, i)
      value += decoded
      i += length
    } else {
      value += raw.charAt(i)
      i++
    }
  }
  return value
}

/** `GET /a?b=c HTTP/1.1` → method, path, querystring; unusable parts become `''`. */
function splitRequestLine(request: string): { method: string; path: string; querystring: string } {
  const tokens = request.trim().split(/\s+/).filter(Boolean)
  const [first = ''] = tokens
  if (!METHOD.test(first)) return { method: '', path: '', querystring: '' }
  const hasProtocol = tokens.length >= 3 && PROTOCOL.test(tokens[tokens.length - 1] ?? '')
  let target = tokens.slice(1, hasProtocol ? -1 : undefined).join(' ')
  const absolute = ABSOLUTE_FORM.exec(target)
  if (absolute) {
    target = target.slice(absolute[0].length)
    if (!target.startsWith('/')) target = `/${target}`
  }
  const question = target.indexOf('?')
  if (question === -1) return { method: first, path: target, querystring: '' }
  return { method: first, path: target.slice(0, question), querystring: target.slice(question + 1) }
}

function dashToEmpty(value: string): string {
  return value === '-' ? '' : value
}
