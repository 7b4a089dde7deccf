/**
 * A site's stored events, oldest first, a page at a time: what the export streams. Rows come in
 * `EVENT_ORDER` (`metrics.ts`: by timestamp, then event id as its text sorts), the order every report
 * takes a session's events in, so that an import of the export lists them alike. Pages are keyed by
 * `(timestamp, event_id)` after the last row of the previous page (keyset paging: each page starts
 * where the table's sort key puts it, so a long export never re-reads what it already sent).
 */
import { fromClickHouseTime, toClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { EventRow } from '../storage/events/event-row.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { SqlFragment } from './compiled-query.js'
import { EVENT_ORDER } from './metrics.js'

/** Rows per page. */
export const EXPORT_PAGE_ROWS = 10_000

/** Every column, as `EventRow` names it but for the UUID, as text under `id` (an alias `event_id` would
 * shadow the column in WHERE and ORDER BY). */
const columns = `toString(event_id) AS id, site_id, timestamp, type, session_id, user_id, hostname, pathname,
  querystring, page_title, referrer, referrer_domain, channel, utm_source, utm_medium, utm_campaign, utm_term,
  utm_content, browser, browser_version, operating_system, operating_system_version, device_type, screen_width,
  screen_height, language, country, region, city, lat, lon, event_name, properties, lcp, cls, inp, fcp, ttfb,
  error_message, error_stack, error_file, error_line, error_column`

export interface ExportRange {
  /** Epoch ms, included; null: from the first event. */
  from: number | null
  /** Epoch ms, excluded; null: to the last event. */
  to: number | null
}

/** Where a page starts: after this row. */
export interface ExportCursor {
  timestamp: string
  eventId: string
}

/**
 * One page of the site's events in the range, in `EVENT_ORDER` (oldest first, ties by event id).
 * @param after the last row of the previous page; null for the first page
 * @param selection a condition on `events` the rows must meet (compiled event filters), or null
 */
export async function exportPage(
  events: EventsStore,
  siteId: number,
  range: ExportRange,
  after: ExportCursor | null,
  limit = EXPORT_PAGE_ROWS,
  selection: SqlFragment | null = null,
): Promise<EventRow[]> {
  const where = ['site_id = {site:UInt32}']
  const params: Record<string, unknown> = { site: siteId, limit }
  if (selection) {
    where.push(`(${selection.sql})`)
    Object.assign(params, selection.params)
  }
  if (range.from !== null) {
    where.push("timestamp >= {from:DateTime64(3, 'UTC')}")
    params.from = toClickHouseTime(range.from)
  }
  if (range.to !== null) {
    where.push("timestamp < {to:DateTime64(3, 'UTC')}")
    params.to = toClickHouseTime(range.to)
  }
  if (after) {
    where.push("timestamp >= {at:DateTime64(3, 'UTC')}")
    where.push("(timestamp, toUInt128(event_id)) > ({at:DateTime64(3, 'UTC')}, toUInt128({id:UUID}))")
    params.at = toClickHouseTime(after.timestamp)
    params.id = after.eventId
  }
  const rows = await events.query<Omit<EventRow, 'event_id'> & { id?: string; event_id: string }>(
    `SELECT ${columns} FROM events WHERE ${where.join(' AND ')}
     ORDER BY ${EVENT_ORDER} LIMIT {limit:UInt32}`,
    params,
  )
  for (const row of rows) {
    row.event_id = row.id as string
    delete row.id
    row.timestamp = fromClickHouseTime(row.timestamp)
  }
  return rows
}
