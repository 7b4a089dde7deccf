/**
 * One line of a web server's access log to a request, in any of the formats Pathlight reads:
 * - the combined and common log formats (Apache, nginx's default `combined`), parsed by
 *   `demo/access-log.ts`;
 * - nginx JSON (`log_format ... escape=json '{...}'`): the variables under their own names
 *   (`remote_addr`, `time_iso8601` or `time_local` or `msec`, `request` or `request_method` with
 *   `request_uri`, `status`, `body_bytes_sent` or `bytes_sent`, `http_referer`, `http_user_agent`,
 *   `host` or `http_host`);
 * - Caddy's JSON access log (`ts`, `request.{client_ip|remote_ip, method, host, uri, headers}`,
 *   `status`, `size`).
 * - a log shipper's JSON event whose `message` holds one of the lines above.
 * A line that is none of these is an error naming the field that failed.
 */
import { type AccessLogLine, parseAccessLogLine } from '../demo/access-log.js'

/** A request read from a log line (the combined format's fields, plus the host when logged). */
export interface LogRequest extends AccessLogLine {
  /** The requested host ('' when the format does not log it). */
  host: string
}

/** A parsed line, or why it is not one (the field, then what is wrong with it). */
export type ParsedLine = { ok: true; request: LogRequest } | { ok: false; reason: string }

/**
 * Parse one log line.
 * @param line the line without its line break (a trailing `\r` is ignored).
 * @returns the request, or `{ ok: false, reason }` naming the field ('status: ...'). Never throws.
 */
export function parseLogLine(line: string): ParsedLine {
  const text = line.trimEnd()
  if (text.startsWith('{')) return parseJsonLine(text)
  const request = parseAccessLogLine(text)
  if (request !== null) return { ok: true, request: { ...request, host: '' } }
  return { ok: false, reason: diagnoseTextLine(text) }
}

const HEAD = /^(\S+)\s+\S+\s+.*?\[([^\]]*)\]/
const LOG_TIME = /^\d{1,2}\/[A-Za-z]{3}\/\d{4}:\d{2}:\d{2}:\d{2}(?:\s+[+-]\d{2}:?\d{2})?$/

/** Which field of a combined/common line is unusable. */
function diagnoseTextLine(text: string): string {
  const head = HEAD.exec(text)
  if (head === null) {
    return 'time: no [dd/Mon/yyyy:hh:mm:ss +zone] field (not the combined, common, nginx JSON or Caddy JSON format)'
  }
  if (!LOG_TIME.test((head[2] ?? '').trim()) || parseLocalTime(head[2] ?? '') === null)
    return `time: "${head[2]}" is not a dd/Mon/yyyy:hh:mm:ss +zone time`
  const rest = text.slice(head[0].length).trimStart()
  if (!rest.startsWith('"')) return 'request: no quoted "METHOD /path HTTP/x" field after the time'
  return 'status: no three-digit status (100-599) and byte count after the request'
}

type Json = Record<string, unknown>

function parseJsonLine(text: string): ParsedLine {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { ok: false, reason: 'json: the line starts with { but is not valid JSON' }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: 'json: the line is not a JSON object' }
  }
  const record = value as Json
  // A log shipper's event with the raw line in `message` (Vector, Fluent Bit, Filebeat).
  if (typeof record.message === 'string' && record.status === undefined && record.request === undefined) {
    return record.message.trimStart().startsWith('{')
      ? parseJsonLine(record.message)
      : parseLogLine(record.message)
  }
  if (typeof record.request === 'object' && record.request !== null) return parseCaddy(record)
  return parseNginxJson(record)
}

const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : ''
const dash = (value: string): string => (value === '-' ? '' : value)

function parseCaddy(record: Json): ParsedLine {
  const request = record.request as Json
  const ts = record.ts
  const time =
    typeof ts === 'number'
      ? new Date(ts * 1000)
      : typeof ts === 'string'
        ? new Date(ts)
        : new Date(Number.NaN)
  if (Number.isNaN(time.getTime())) return { ok: false, reason: 'ts: missing or not a time (Caddy JSON)' }
  const status = Number(record.status)
  if (!Number.isInteger(status) || status < 100 || status > 599) {
    return { ok: false, reason: 'status: missing or not an HTTP status (Caddy JSON)' }
  }
  const uri = text(request.uri)
  if (uri === '') return { ok: false, reason: 'request.uri: missing (Caddy JSON)' }
  const headers = (
    typeof request.headers === 'object' && request.headers !== null ? request.headers : {}
  ) as Json
  const header = (name: string): string => {
    const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1]
    return Array.isArray(entry) ? text(entry[0]) : text(entry)
  }
  const [path = '', querystring = ''] = splitTarget(uri)
  return {
    ok: true,
    request: {
      ip: text(request.client_ip) || text(request.remote_ip),
      time,
      method: text(request.method),
      host: text(request.host),
      path,
      querystring,
      status,
      bytes: Number(record.size) || 0,
      referrer: header('referer'),
      userAgent: header('user-agent'),
    },
  }
}

function parseNginxJson(record: Json): ParsedLine {
  const time = nginxTime(record)
  if (time === null) {
    return {
      ok: false,
      reason: 'time_iso8601: missing or not a time (nginx JSON needs time_iso8601, time_local or msec)',
    }
  }
  const status = Number(text(record.status))
  if (!Number.isInteger(status) || status < 100 || status > 599) {
    return { ok: false, reason: 'status: missing or not an HTTP status (nginx JSON)' }
  }
  let method = text(record.request_method)
  let target = text(record.request_uri)
  if (target === '' && text(record.request) !== '') {
    const [m = '', t = ''] = text(record.request).split(' ')
    method = method || m
    target = t
  }
  if (target === '')
    return { ok: false, reason: 'request_uri: missing (nginx JSON needs request_uri or request)' }
  const [path = '', querystring = ''] = splitTarget(target)
  return {
    ok: true,
    request: {
      ip: text(record.remote_addr) || text(record.http_x_forwarded_for).split(',')[0]?.trim() || '',
      time,
      method,
      host: text(record.host) || text(record.http_host) || text(record.server_name),
      path,
      querystring,
      status,
      bytes: Number(text(record.body_bytes_sent) || text(record.bytes_sent)) || 0,
      referrer: dash(text(record.http_referer)),
      userAgent: dash(text(record.http_user_agent)),
    },
  }
}

function nginxTime(record: Json): Date | null {
  const iso = text(record.time_iso8601)
  if (iso !== '') {
    const time = new Date(iso)
    return Number.isNaN(time.getTime()) ? null : time
  }
  const local = text(record.time_local)
  if (local !== '') {
    return parseLocalTime(local)
  }
  const msec = Number(text(record.msec))
  return text(record.msec) !== '' && Number.isFinite(msec) ? new Date(msec * 1000) : null
}

/** A `dd/Mon/yyyy:hh:mm:ss +zone` time, through the combined format's reader on a minimal line. */
function parseLocalTime(local: string): Date | null {
  return parseAccessLogLine(`- - - [${local}] "GET / HTTP/1.1" 200 0`)?.time ?? null
}

const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i

function splitTarget(target: string): [string, string] {
  const local = target.replace(ABSOLUTE_FORM, '') || '/'
  const q = local.indexOf('?')
  return q === -1 ? [local, ''] : [local.slice(0, q), local.slice(q + 1)]
}
