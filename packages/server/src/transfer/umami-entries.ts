/**
 * Umami's raw history as import entries: the rows of its `website_event` table (Umami v2, PostgreSQL
 * `COPY website_event TO STDOUT WITH CSV HEADER`), each a stored event kept with Umami's `event_id`, so
 * importing the same file again adds nothing (`duplicate`).
 *
 * Mapping (Umami column -> events column):
 * - `event_id` -> `event_id`; `created_at` (timestamptz text, `postgres-timestamp.ts`) -> `timestamp`.
 * - `visit_id` -> `session_id` (Umami's visits are 30-minute sessions, like ours); `session_id` ->
 *   `user_id` (Umami's session is a visitor within its salt period).
 * - `url_path` -> `pathname` ('/' when empty); `url_query` -> `querystring` (leading '?' dropped; kept
 *   only when the site keeps URL parameters); `page_title`, `hostname` (lower-cased; the site's domain
 *   when NULL, as in early v2 releases).
 * - `referrer_domain`, `referrer_path`, `referrer_query` -> `referrer` rebuilt as
 *   `https://<domain><path>[?<query>]` when the domain is set; `referrer_domain` lower-cased, `www.`
 *   folded.
 * - `channel` and the `utm_*` columns as live tracking derives them (`parseUtm`, `toChannel`) from the
 *   referrer and `url_query`, where Umami's own `utm_*` and click-id columns (`gclid`, `fbclid`,
 *   `msclkid`, `ttclid`, `li_fat_id`, `twclid`) win over the query's.
 * - `event_type` 1 -> `pageview`, 2 -> `custom_event` with `event_name` (required); other types are
 *   rejected.
 * - Lost: `tag`; everything Umami keeps in `session` (browser, OS, device, screen, language, location)
 *   and event properties (`event_data`). Those columns are ''/0/null.
 *
 * One Umami website per import: the `websiteId` option's rows (others skipped, not counted), else the
 * first valid row's website (rows of another are rejected naming `website_id`). Columns may come in any
 * order; unknown columns are ignored; the optional ones (UTM, click ids, `tag`, `hostname`) may be
 * absent. Rows are numbered from 1 after the header; a bad row's error names the column.
 */
import { parseUtm, toChannel } from '../ingest/enrich/channel.js'
import { sourceDomain } from '../ingest/stages/put-channel.js'
import { AppError } from '../shared/errors.js'
import type { CsvRecord } from './csv-records.js'
import type { ImportEntry, StoredEvent } from './import-entry.js'
import { impossiblePostgresTimestamp, parsePostgresTimestamp } from './postgres-timestamp.js'

export interface UmamiOptions {
  /** The site's domain: the hostname of rows without one. */
  defaultHostname: string
  /** Keep `url_query` as the querystring (the site's `trackUrlParams`); UTM and channel use it anyway. */
  keepQuerystring: boolean
  /** The Umami website (UUID) to take rows of; others are skipped. Default: the first row's. */
  websiteId?: string
}

/** Columns every `website_event` export has. */
export const UMAMI_REQUIRED_COLUMNS = [
  'event_id',
  'website_id',
  'session_id',
  'visit_id',
  'created_at',
  'url_path',
  'event_type',
] as const

const UTM_COLUMNS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const
const CLICK_ID_COLUMNS = ['gclid', 'fbclid', 'msclkid', 'ttclid', 'li_fat_id', 'twclid'] as const
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Longest value per events column (as the export's schema bounds them), with the Umami column named. */
const MAX_CHARS = {
  url_path: 2048,
  url_query: 2048,
  page_title: 512,
  hostname: 253,
  referrer_domain: 253,
  event_name: 256,
} as const

type Row = (column: string) => string

/**
 * @param records the CSV's records, the header first (`csvRecords`)
 * @throws AppError 400 when the header lacks a required column (nothing is imported)
 */
export async function* umamiEntries(
  records: AsyncIterable<CsvRecord> | Iterable<CsvRecord>,
  options: UmamiOptions,
): AsyncGenerator<ImportEntry> {
  let columns: Map<string, number> | null = null
  let website = options.websiteId?.toLowerCase() ?? null
  const chosen = website !== null
  for await (const { record, fields } of records) {
    if (columns === null) {
      columns = headerColumns(fields)
      continue
    }
    const line = record - 1
    if (fields.length !== columns.size) {
      yield { line, error: `The row has ${fields.length} fields; the header has ${columns.size}` }
      continue
    }
    const index = columns
    const get: Row = (column) => {
      const at = index.get(column)
      return at === undefined ? '' : (fields[at] ?? '')
    }
    const websiteId = get('website_id').toLowerCase()
    if (!UUID.test(websiteId)) {
      yield { line, error: 'website_id: must be a UUID' }
      continue
    }
    if (chosen && websiteId !== website) continue
    const converted = toStoredEvent(get, options)
    if ('error' in converted) {
      yield { line, error: converted.error }
      continue
    }
    website ??= websiteId
    if (websiteId !== website) {
      yield {
        line,
        error: `website_id: ${websiteId} is not the first row's website (${website}); import one website at a time (umami_website_id chooses one)`,
      }
      continue
    }
    yield { line, stored: converted.stored }
  }
}

/** Column name -> field index; @throws AppError 400 naming a missing required column */
function headerColumns(fields: readonly string[]): Map<string, number> {
  const columns = new Map<string, number>()
  fields.forEach((name, at) => {
    columns.set(name.trim().toLowerCase(), at)
  })
  const missing = UMAMI_REQUIRED_COLUMNS.find((column) => !columns.has(column))
  if (missing !== undefined) {
    throw new AppError(
      400,
      `The CSV header has no ${missing} column (expected Umami's website_event table: COPY website_event TO STDOUT WITH CSV HEADER)`,
    )
  }
  // A header with a repeated name has more fields than names: count fields, not names.
  if (columns.size !== fields.length) throw new AppError(400, 'The CSV header repeats a column name')
  return columns
}

function toStoredEvent(get: Row, options: UmamiOptions): { stored: StoredEvent } | { error: string } {
  const eventId = get('event_id').toLowerCase()
  if (!UUID.test(eventId)) return { error: 'event_id: must be a UUID' }
  const visitor = get('session_id').toLowerCase()
  if (!UUID.test(visitor)) return { error: 'session_id: must be a UUID' }
  const visit = get('visit_id').toLowerCase()
  if (!UUID.test(visit)) return { error: 'visit_id: must be a UUID' }
  const timestamp = parsePostgresTimestamp(get('created_at'))
  if (timestamp === null) {
    const impossible = impossiblePostgresTimestamp(get('created_at'))
    if (impossible) return { error: `created_at: must be a date and time that exist: ${impossible}` }
    return { error: 'created_at: must be a timestamp with a time zone, e.g. 2024-03-01 10:00:00.123+00' }
  }
  const eventType = get('event_type')
  if (eventType !== '1' && eventType !== '2') {
    return {
      error: `event_type: must be 1 (pageview) or 2 (custom event), got ${eventType.slice(0, 20) || 'NULL'}`,
    }
  }
  const custom = eventType === '2'
  const eventName = custom ? get('event_name') : ''
  if (custom && eventName === '') return { error: 'event_name: is required when event_type is 2' }
  const tooLong = (Object.keys(MAX_CHARS) as (keyof typeof MAX_CHARS)[]).find(
    (column) => get(column).length > MAX_CHARS[column],
  )
  if (tooLong !== undefined) return { error: `${tooLong}: must be at most ${MAX_CHARS[tooLong]} characters` }

  const hostname = (get('hostname') || options.defaultHostname).toLowerCase()
  const query = get('url_query').replace(/^\?/, '')
  const referrer = referrerOf(get)
  if (referrer.length > 2048) return { error: 'referrer_path: the referrer must be at most 2048 characters' }
  const tagged = new URLSearchParams(query)
  for (const column of [...UTM_COLUMNS, ...CLICK_ID_COLUMNS]) {
    const value = get(column)
    if (value !== '') tagged.set(column, value)
  }
  const taggedQuery = tagged.toString()
  return {
    stored: {
      ...EMPTY_EVENT,
      event_id: eventId,
      timestamp,
      type: custom ? 'custom_event' : 'pageview',
      session_id: visit,
      user_id: visitor,
      hostname,
      pathname: get('url_path') || '/',
      querystring: options.keepQuerystring ? query : '',
      page_title: get('page_title'),
      referrer,
      ...sourceOf(referrer, hostname, taggedQuery, foldWww(get('referrer_domain').toLowerCase())),
      event_name: eventName,
    },
  }
}

/** Channel, UTM columns and source domain as live tracking derives them (an AI assistant's domain when only its tag names it). */
function sourceOf(referrer: string, hostname: string, taggedQuery: string, referrerDomain: string) {
  const utm = parseUtm(taggedQuery)
  const channel = toChannel({ referrer, hostname, querystring: taggedQuery })
  const domain = referrerDomain !== '' ? referrerDomain : sourceDomain('', channel, utm.utm_source)
  return { ...utm, channel, referrer_domain: domain }
}

/** `https://<referrer_domain><referrer_path>[?<referrer_query>]`, or '' without a domain. */
function referrerOf(get: Row): string {
  const domain = get('referrer_domain')
  if (domain === '') return ''
  const path = get('referrer_path')
  const query = get('referrer_query').replace(/^\?/, '')
  return `https://${domain}${path === '' || path.startsWith('/') ? path : `/${path}`}${query === '' ? '' : `?${query}`}`
}

const foldWww = (host: string) => (host.startsWith('www.') ? host.slice(4) : host)

/** An event row with every column unknown ('', 0, null): what sources without a column leave. */
export const EMPTY_EVENT: StoredEvent = {
  event_id: '',
  timestamp: '',
  type: 'pageview',
  session_id: '',
  user_id: '',
  hostname: '',
  pathname: '/',
  querystring: '',
  page_title: '',
  referrer: '',
  referrer_domain: '',
  channel: '',
  utm_source: '',
  utm_medium: '',
  utm_campaign: '',
  utm_term: '',
  utm_content: '',
  browser: '',
  browser_version: '',
  operating_system: '',
  operating_system_version: '',
  device_type: '',
  screen_width: 0,
  screen_height: 0,
  language: '',
  country: '',
  region: '',
  city: '',
  lat: null,
  lon: null,
  event_name: '',
  properties: '',
  lcp: null,
  cls: null,
  inp: null,
  fcp: null,
  ttfb: null,
  error_message: '',
  error_stack: '',
  error_file: '',
  error_line: 0,
  error_column: 0,
}
