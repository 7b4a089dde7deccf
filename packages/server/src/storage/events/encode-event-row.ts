/**
 * Event rows as the events store receives them, serialised once: one JSONCompactEachRow line per row
 * (a JSON array of the column values in `EVENT_COLUMNS` order, no newline). The same line is what the
 * ingest journal holds and what the insert sends, so recovery and the normal flush insert the same
 * bytes and nothing is serialised twice.
 *
 * Why this format: `bench/insert-format/run.ts` timed serialise + insert fastest this way among
 * JSONEachRow objects through `@clickhouse/client` (the previous path), JSONEachRow as a Buffer and
 * TabSeparated (figures: bench/README.md "insert-format"); RowBinary is not accepted by chdb-node's raw
 * insert (text formats only).
 *
 * Timestamps go out as `YYYY-MM-DD hh:mm:ss.mmm` (UTC), which ClickHouse parses without best-effort
 * parsing. Strings go out well-formed: a lone UTF-16 surrogate (which a tracking body may carry as
 * `"\ud800"`) becomes U+FFFD, since ClickHouse refuses a whole batch over one escape of it
 * (`CANNOT_PARSE_ESCAPE_SEQUENCE`), and a refused batch would block every later one.
 */
import { fromClickHouseTime, toClickHouseTime } from './clickhouse-time.js'
import type { EventRow } from './event-row.js'

/** The columns of `events` in the order the encoded arrays hold them (events migration 001). */
export const EVENT_COLUMNS = [
  'event_id',
  'site_id',
  'timestamp',
  'type',
  'session_id',
  'user_id',
  'hostname',
  'pathname',
  'querystring',
  'page_title',
  'referrer',
  'referrer_domain',
  'channel',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'browser',
  'browser_version',
  'operating_system',
  'operating_system_version',
  'device_type',
  'screen_width',
  'screen_height',
  'language',
  'country',
  'region',
  'city',
  'lat',
  'lon',
  'event_name',
  'properties',
  'lcp',
  'cls',
  'inp',
  'fcp',
  'ttfb',
  'error_message',
  'error_stack',
  'error_file',
  'error_line',
  'error_column',
] as const satisfies readonly (keyof EventRow)[]

/** The format name of {@link encodeEventRow}'s lines, for `INSERT ... FORMAT`. */
export const EVENT_ROW_FORMAT = 'JSONCompactEachRow'

/** A string as ClickHouse takes it: a lone surrogate becomes U+FFFD. */
const wellFormed = (text: string) => (text.isWellFormed() ? text : text.toWellFormed())

/**
 * One row as a JSONCompactEachRow line (no trailing newline). The array is written out column by column
 * in `EVENT_COLUMNS` order (a test checks every position): faster than mapping over the column names
 * (bench/README.md "insert-format"), and this runs once per tracked event.
 */
export function encodeEventRow(row: EventRow): string {
  return JSON.stringify([
    row.event_id,
    row.site_id,
    toClickHouseTime(row.timestamp),
    wellFormed(row.type),
    wellFormed(row.session_id),
    wellFormed(row.user_id),
    wellFormed(row.hostname),
    wellFormed(row.pathname),
    wellFormed(row.querystring),
    wellFormed(row.page_title),
    wellFormed(row.referrer),
    wellFormed(row.referrer_domain),
    wellFormed(row.channel),
    wellFormed(row.utm_source),
    wellFormed(row.utm_medium),
    wellFormed(row.utm_campaign),
    wellFormed(row.utm_term),
    wellFormed(row.utm_content),
    wellFormed(row.browser),
    wellFormed(row.browser_version),
    wellFormed(row.operating_system),
    wellFormed(row.operating_system_version),
    wellFormed(row.device_type),
    row.screen_width,
    row.screen_height,
    wellFormed(row.language),
    wellFormed(row.country),
    wellFormed(row.region),
    wellFormed(row.city),
    row.lat,
    row.lon,
    wellFormed(row.event_name),
    wellFormed(row.properties),
    row.lcp,
    row.cls,
    row.inp,
    row.fcp,
    row.ttfb,
    wellFormed(row.error_message),
    wellFormed(row.error_stack),
    wellFormed(row.error_file),
    row.error_line,
    row.error_column,
  ])
}

/** A journaled line and what recovery needs to know of its row. */
export interface EncodedEvent {
  /** The row as {@link encodeEventRow} makes it. */
  line: string
  row: Pick<EventRow, 'event_id' | 'site_id' | 'timestamp'>
}

/**
 * A line of {@link encodeEventRow} read back (journal recovery), or null when it is not one: torn by a
 * crash mid-write, or not an array of every column. Also takes the object lines (`{"event_id":...}`)
 * that journals held before rows were encoded this way, re-encoded.
 */
export function decodeEventLine(line: string): EncodedEvent | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(line)
  } catch {
    return null
  }
  if (Array.isArray(parsed)) {
    if (parsed.length !== EVENT_COLUMNS.length) return null
    const [eventId, siteId, timestamp] = parsed
    if (typeof eventId !== 'string' || typeof siteId !== 'number' || typeof timestamp !== 'string')
      return null
    return { line, row: { event_id: eventId, site_id: siteId, timestamp: fromClickHouseTime(timestamp) } }
  }
  if (parsed === null || typeof parsed !== 'object') return null
  const row = parsed as EventRow
  if (
    typeof row.event_id !== 'string' ||
    typeof row.site_id !== 'number' ||
    typeof row.timestamp !== 'string'
  ) {
    return null
  }
  return {
    line: encodeEventRow(row),
    row: { event_id: row.event_id, site_id: row.site_id, timestamp: row.timestamp },
  }
}
