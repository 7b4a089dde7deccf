/**
 * Google Analytics 4 history as import entries: the rows of its BigQuery export (`events_YYYYMMDD`
 * tables, downloaded as newline-delimited JSON), each a stored event. Ids are derived from the row,
 * so importing the same file again adds nothing (`duplicate`).
 *
 * Mapping (GA4 field -> events column):
 * - `event_timestamp` (UTC microseconds; a number or, as BigQuery writes INT64 in JSON, a digit
 *   string) -> `timestamp` (milliseconds; the microseconds keep the order in the event id).
 *   `event_date` (the property's time zone) is not needed.
 * - `event_name` `page_view` -> `pageview`; `click` with the `outbound` parameter -> `outbound`
 *   (`{url, text}` from `link_url`, `link_text`); `session_start`, `first_visit` and
 *   `user_engagement` are dropped (`ga4:<name>`: Pathlight derives sessions, new visitors and
 *   engagement itself); any other name -> `custom_event` with `event_name` and its parameters as
 *   properties (the page and session parameters below left out).
 * - `user_id` when set, else `user_pseudo_id` -> `user_id` (the visitor, as live tracking keeps an
 *   identified user's id and else an anonymous one).
 * - `ga_session_id` (parameter) with `user_pseudo_id` -> `session_id` (a UUID derived from both, so a
 *   session split over two files is still one); without it, sessions by the 30-minute rule.
 * - `page_location` -> `hostname`, `pathname`, `querystring` (kept only when the site keeps URL
 *   parameters); `page_title`; `page_referrer` -> `referrer`, `referrer_domain`.
 * - `channel` and UTM as live tracking derives them from the referrer and the page's query, where
 *   `collected_traffic_source` (`manual_source`, `manual_medium`, `manual_campaign_name`,
 *   `manual_term`, `manual_content`, `gclid`, `dclid`) wins over the query's tags.
 * - `device.category` -> `device_type`; `device.web_info.browser` / `browser_version` (else
 *   `device.browser` / `browser_version`), `device.operating_system` / `operating_system_version`
 *   named as live tracking names them ("Macintosh" -> "Mac OS", "Chrome OS" -> "Chromium OS", ...);
 *   `device.language`; `geo.country` (a name) -> ISO code, `geo.region`, `geo.city`.
 * - Lost: `traffic_source` (the user's first source, not the session's), `items`, `ecommerce`,
 *   `user_properties`, `privacy_info`, app fields (`app_info`, `stream_id` ...), screen size (not in
 *   the export), coordinates. "(not set)" values become ''.
 */
import crypto from 'node:crypto'
import { canonicalPropertiesOf, type EventType } from '@pathlight/protocol'
import { parseUtm, toChannel } from '../ingest/enrich/channel.js'
import { countryCodeOf } from './country-codes.js'
import type { ImportEntry, StoredEvent } from './import-entry.js'
import { createImportSessions } from './import-sessions.js'
import { jsonObjectLines } from './json-object-lines.js'
import { EMPTY_EVENT } from './umami-entries.js'

export interface Ga4Options {
  /** The site's domain: the hostname of events without a page location. */
  defaultHostname: string
  /** Keep the page's query as the querystring (the site's `trackUrlParams`); UTM and channel use it anyway. */
  keepQuerystring: boolean
}

/** Automatic events that carry nothing Pathlight does not derive itself. */
export const GA4_DROPPED_EVENTS = ['session_start', 'first_visit', 'user_engagement'] as const

/** Parameters that are columns (or session plumbing), not custom properties. */
const NOT_PROPERTIES = new Set([
  'page_location',
  'page_referrer',
  'page_title',
  'ga_session_id',
  'ga_session_number',
  'engagement_time_msec',
  'engaged_session_event',
  'session_engaged',
  'entrances',
  'ignore_referrer',
  'debug_mode',
  'batch_ordering_id',
  'batch_page_id',
  'source',
  'medium',
  'campaign',
  'term',
  'content',
])

const OPERATING_SYSTEMS: Readonly<Record<string, string>> = {
  macintosh: 'Mac OS',
  'mac os x': 'Mac OS',
  'chrome os': 'Chromium OS',
}
const BROWSERS: Readonly<Record<string, string>> = {
  'samsung internet': 'Samsung Browser',
  'android webview': 'Chrome WebView',
  'safari (in-app)': 'Safari',
}
const DEVICE_TYPES = new Set(['desktop', 'mobile', 'tablet', 'smarttv', 'console', 'wearable'])

/** Longest value per column, as live tracking bounds them. */
const MAX_CHARS = { pathname: 2048, querystring: 2048, page_title: 512, referrer: 2048, event_name: 256 }
/** The largest epoch ms a UUIDv7 holds (48 bits). */
const MAX_MS = 2 ** 48 - 1

type Params = Map<string, string | number>

/**
 * @param lines the body's lines without their line breaks (`ndjsonLines`), one BigQuery row each
 */
export async function* ga4Entries(
  lines: AsyncIterable<string> | Iterable<string>,
  options: Ga4Options,
): AsyncGenerator<ImportEntry> {
  const sessions = createImportSessions()
  for await (const entry of jsonObjectLines(lines, 'a JSON object (a row of the events_ table)')) {
    if ('error' in entry) {
      yield entry
      continue
    }
    const { line, value } = entry
    const converted = toStoredEvent(value, options)
    if ('error' in converted || 'dropped' in converted) {
      yield { line, ...converted }
      continue
    }
    const { stored, visitor, gaSessionId } = converted
    stored.session_id =
      gaSessionId === ''
        ? sessions.assign(visitor, Date.parse(stored.timestamp))
        : uuidOf(`ga4-session\n${visitor}\n${gaSessionId}`)
    yield { line, stored }
  }
}

type Converted =
  | { stored: StoredEvent; visitor: string; gaSessionId: string }
  | { dropped: string }
  | { error: string }

function toStoredEvent(row: Record<string, unknown>, options: Ga4Options): Converted {
  const micros = microsOf(row.event_timestamp)
  if (micros === null) {
    return { error: 'event_timestamp: must be the event time in microseconds since 1970 (UTC), an integer' }
  }
  const eventName = row.event_name
  if (typeof eventName !== 'string' || eventName.trim() === '') {
    return { error: 'event_name: is required (a string)' }
  }
  if (eventName.length > MAX_CHARS.event_name) return { error: 'event_name: must be at most 256 characters' }
  if ((GA4_DROPPED_EVENTS as readonly string[]).includes(eventName)) return { dropped: `ga4:${eventName}` }
  const pseudo = optionalText(row.user_pseudo_id)
  const userId = optionalText(row.user_id)
  if (pseudo === null) return { error: 'user_pseudo_id: must be a string' }
  if (userId === null) return { error: 'user_id: must be a string' }
  if (pseudo === '' && userId === '') return { error: 'user_pseudo_id: is required (or user_id)' }
  if (userId.length > 256) return { error: 'user_id: must be at most 256 characters' }
  const params = paramsOf(row.event_params)
  if ('error' in params) return params

  const location = textParam(params.map, 'page_location')
  let page: URL | null = null
  if (location !== '') {
    try {
      page = new URL(location)
    } catch {
      return { error: 'event_params.page_location: must be a URL' }
    }
  }
  const hostname = (
    page?.hostname ||
    objectText(row, 'device', 'web_info', 'hostname') ||
    options.defaultHostname
  ).toLowerCase()
  const pathname = page?.pathname || '/'
  const query = page?.search.replace(/^\?/, '') ?? ''
  const referrer = textParam(params.map, 'page_referrer')
  const pageTitle = textParam(params.map, 'page_title')
  for (const [column, text] of [
    ['pathname', pathname],
    ['querystring', query],
    ['page_title', pageTitle],
    ['referrer', referrer],
  ] as const) {
    if (text.length > MAX_CHARS[column]) {
      const field =
        column === 'page_title' ? 'page_title' : column === 'referrer' ? 'page_referrer' : 'page_location'
      return { error: `event_params.${field}: the ${column} must be at most ${MAX_CHARS[column]} characters` }
    }
  }
  const tagged = new URLSearchParams(query)
  const collected = row.collected_traffic_source
  if (collected !== null && typeof collected === 'object') {
    const source = collected as Record<string, unknown>
    for (const [field, name] of COLLECTED_TAGS) {
      const text = typeof source[field] === 'string' ? notSet(source[field] as string) : ''
      if (text !== '') tagged.set(name, text)
    }
  }
  const taggedQuery = tagged.toString()

  const outbound = eventName === 'click' && truthy(params.map.get('outbound'))
  const type: EventType = eventName === 'page_view' ? 'pageview' : outbound ? 'outbound' : 'custom_event'
  let properties = ''
  if (type === 'outbound') {
    properties = JSON.stringify({
      url: textParam(params.map, 'link_url'),
      text: textParam(params.map, 'link_text'),
    })
  } else if (type === 'custom_event') {
    const own = Object.fromEntries([...params.map].filter(([key]) => !NOT_PROPERTIES.has(key)))
    if (Object.keys(own).length > 0) {
      const canonical = canonicalPropertiesOf(own)
      if ('error' in canonical) return { error: `event_params: ${canonical.error}` }
      properties = canonical.text
    }
  }

  const device = (row.device ?? {}) as Record<string, unknown>
  const browser = objectText(row, 'device', 'web_info', 'browser') || objectText(row, 'device', 'browser')
  const browserVersion =
    objectText(row, 'device', 'web_info', 'browser_version') || objectText(row, 'device', 'browser_version')
  const os = objectText(row, 'device', 'operating_system')
  const category = notSet(typeof device.category === 'string' ? device.category : '').toLowerCase()
  const ms = Math.floor(micros / 1000)
  const visitor = userId || pseudo
  const identity = `${pseudo}\n${userId}\n${micros}\n${eventName}\n${JSON.stringify(row.event_params ?? null)}`
  return {
    visitor: pseudo || userId,
    gaSessionId: String(params.map.get('ga_session_id') ?? ''),
    stored: {
      ...EMPTY_EVENT,
      event_id: eventIdOf(ms, micros % 1000, identity),
      timestamp: new Date(ms).toISOString(),
      type,
      user_id: visitor,
      hostname,
      pathname,
      querystring: options.keepQuerystring ? query : '',
      page_title: pageTitle,
      referrer,
      referrer_domain: referrerDomain(referrer),
      channel: toChannel({ referrer, hostname, querystring: taggedQuery }),
      ...parseUtm(taggedQuery),
      browser: BROWSERS[browser.toLowerCase()] ?? browser,
      browser_version: browserVersion,
      operating_system: OPERATING_SYSTEMS[os.toLowerCase()] ?? os,
      operating_system_version: osVersion(os, objectText(row, 'device', 'operating_system_version')),
      device_type: DEVICE_TYPES.has(category) ? category : '',
      language: objectText(row, 'device', 'language').toLowerCase().slice(0, 35),
      country: countryCodeOf(objectText(row, 'geo', 'country')),
      region: objectText(row, 'geo', 'region'),
      city: objectText(row, 'geo', 'city'),
      event_name: type === 'custom_event' ? eventName : '',
      properties,
    },
  }
}

const COLLECTED_TAGS = [
  ['manual_source', 'utm_source'],
  ['manual_medium', 'utm_medium'],
  ['manual_campaign_name', 'utm_campaign'],
  ['manual_term', 'utm_term'],
  ['manual_content', 'utm_content'],
  ['gclid', 'gclid'],
  ['dclid', 'dclid'],
] as const

/** Microseconds from a number or a digit string; null when not a non-negative integer in range. */
function microsOf(value: unknown): number | null {
  const micros = typeof value === 'string' && /^\d{1,17}$/.test(value) ? Number(value) : value
  if (typeof micros !== 'number' || !Number.isSafeInteger(micros) || micros < 0) return null
  return micros / 1000 > MAX_MS ? null : micros
}

/** A string field, '' when absent or null; null when of another type. */
function optionalText(value: unknown): string | null {
  if (value === undefined || value === null) return ''
  return typeof value === 'string' ? value : null
}

/** `event_params` as key -> value (the first of `string_value`, `int_value`, `double_value`, `float_value` set). */
function paramsOf(value: unknown): { map: Params } | { error: string } {
  const map: Params = new Map()
  if (value === undefined || value === null) return { map }
  if (!Array.isArray(value)) return { error: 'event_params: must be an array of {key, value}' }
  for (const [at, param] of value.entries()) {
    const entry = param as { key?: unknown; value?: Record<string, unknown> | null } | null
    if (entry === null || typeof entry !== 'object' || typeof entry.key !== 'string') {
      return { error: `event_params.${at}.key: must be a string` }
    }
    const holder = entry.value ?? {}
    if (typeof holder !== 'object') return { error: `event_params.${at}.value: must be an object` }
    const { string_value: text, int_value: int, double_value: double, float_value: float } = holder
    if (typeof text === 'string') map.set(entry.key, text)
    else if (typeof int === 'number' || (typeof int === 'string' && /^-?\d+$/.test(int))) {
      // BigQuery writes INT64 as a string in JSON; keep it exact as text beyond 2^53.
      const number = Number(int)
      map.set(entry.key, Number.isSafeInteger(number) ? number : String(int))
    } else if (typeof double === 'number' && Number.isFinite(double)) map.set(entry.key, double)
    else if (typeof float === 'number' && Number.isFinite(float)) map.set(entry.key, float)
    else if (typeof double === 'string' && Number.isFinite(Number(double))) map.set(entry.key, Number(double))
  }
  return { map }
}

const textParam = (params: Params, key: string) => {
  const value = params.get(key)
  return value === undefined ? '' : String(value)
}

const truthy = (value: string | number | undefined) =>
  value === 1 || (typeof value === 'string' && ['true', '1'].includes(value.toLowerCase()))

/** A nested string field (`row.device.web_info.browser`), '' when absent or "(not set)". */
function objectText(row: Record<string, unknown>, ...path: string[]): string {
  let value: unknown = row
  for (const key of path) {
    if (value === null || typeof value !== 'object') return ''
    value = (value as Record<string, unknown>)[key]
  }
  return typeof value === 'string' ? notSet(value.trim()) : ''
}

const notSet = (text: string) => (text === '(not set)' || text === '(none)' ? '' : text)

/** "Windows 10" -> "10", "iOS 17.1" -> "17.1", "Macintosh Intel 10.15" -> "10.15". */
function osVersion(os: string, version: string): string {
  if (version === '') return ''
  const withoutName = version.toLowerCase().startsWith(os.toLowerCase()) ? version.slice(os.length) : version
  return withoutName.replace(/^\s*(intel\s+)?/i, '').trim()
}

function referrerDomain(referrer: string): string {
  if (referrer === '') return ''
  try {
    const host = new URL(referrer).hostname.toLowerCase()
    return host.startsWith('www.') ? host.slice(4) : host
  } catch {
    return ''
  }
}

/**
 * A UUIDv7 of the event's ms, then its microseconds within that ms (10 bits, so events of one ms keep
 * their order), then 64 bits of a digest of the row: the same row gives the same id.
 */
function eventIdOf(ms: number, micros: number, identity: string): string {
  const digest = crypto.createHash('sha256').update(identity).digest()
  const time = Math.min(MAX_MS, ms).toString(16).padStart(12, '0')
  const randA = ((micros << 2) | ((digest[0] ?? 0) & 0x3)).toString(16).padStart(3, '0')
  const variant = (0x8000 | (digest.readUInt16BE(1) & 0x3fff)).toString(16).padStart(4, '0')
  const tail = digest.subarray(3, 9).toString('hex')
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randA}-${variant}-${tail}`
}

/** A UUID (version 8, RFC 9562: custom) from a digest of `key`. */
function uuidOf(key: string): string {
  const hex = crypto.createHash('sha256').update(key).digest('hex')
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}
