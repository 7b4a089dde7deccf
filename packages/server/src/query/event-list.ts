/**
 * Raw events of a site, newest first, paged with an opaque cursor. Order is (timestamp DESC,
 * event_id DESC), a total order, and each page continues strictly after the last row of the previous
 * one, so paging through any range returns every event exactly once, with no gaps or duplicates, even
 * while new events arrive (they are newer than the first page and never enter a later one).
 * The cursor is base64url of `<timestamp as ClickHouse text>|<event_id>`. Each event is the protocol's
 * `ListedEvent` (the v1 API's shape): timestamps ISO 8601 UTC with milliseconds, `properties` an
 * object ({} when none).
 */
import { type EventType, eventTypes, type ListedEvent } from '@pathlight/protocol'
import { badRequest } from '../shared/errors.js'
import { fromClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { compileFilters } from './filters.js'
import { type ReportScope, scopeOf } from './report-scope.js'
import { sessionFilterRestriction } from './sessions-subquery.js'

export interface EventListOptions {
  types?: readonly EventType[]
  eventName?: string
  cursor?: string
  limit: number
}

interface Cursor {
  timestamp: string
  eventId: string
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.timestamp}|${cursor.eventId}`).toString('base64url')
}

/** @throws AppError 400 naming `cursor` when it is not one this API issued */
export function decodeCursor(text: string): Cursor {
  const decoded = Buffer.from(text, 'base64url').toString('utf8')
  const match = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})\|([0-9a-f-]{36})$/.exec(decoded)
  if (!match?.[1] || !match[2]) {
    throw badRequest('Invalid cursor', { fieldErrors: { cursor: ['cursor is not valid'] }, formErrors: [] })
  }
  return { timestamp: match[1], eventId: match[2] }
}

export function compileEventList(scope: ReportScope, options: EventListOptions): CompiledQuery {
  const where = [scopeOf(scope).sql]
  const params: Record<string, unknown> = { ...scopeOf(scope).params, limit: options.limit + 1 }
  const filters = compileFilters(scope.params.filters)
  Object.assign(params, filters.params)
  if (filters.event) where.push(`(${filters.event})`)
  if (filters.session) {
    // Entry/exit page filters pick sessions; the list then shows those sessions' events.
    const restriction = sessionFilterRestriction(filters)
    if (restriction) where.push(restriction)
  }
  if (options.types && options.types.length > 0) {
    where.push('type IN {types:Array(String)}')
    params.types = [...options.types]
  }
  if (options.eventName !== undefined) {
    where.push('event_name = {event_name:String}')
    params.event_name = options.eventName
  }
  if (options.cursor !== undefined) {
    const cursor = decodeCursor(options.cursor)
    where.push("(timestamp, toString(event_id)) < ({cursor_ts:DateTime64(3, 'UTC')}, {cursor_id:String})")
    params.cursor_ts = cursor.timestamp
    params.cursor_id = cursor.eventId
  }
  return {
    sql: `SELECT toString(event_id) AS event_id, toString(timestamp) AS ts, type, session_id, user_id, hostname,
       pathname, querystring, page_title, referrer, channel, event_name, properties, country, region, city,
       browser, operating_system, device_type, language
FROM events
WHERE ${where.join('\n  AND ')}
ORDER BY timestamp DESC, toString(event_id) DESC
LIMIT {limit:UInt32}`,
    params,
  }
}

/** @returns the page and the cursor of the next one (null at the end) */
export async function queryEventList(
  events: EventsStore,
  scope: ReportScope,
  options: EventListOptions,
): Promise<{ data: ListedEvent[]; nextCursor: string | null }> {
  const { sql, params } = compileEventList(scope, options)
  const rows = await events.query<Record<string, string>>(sql, params)
  const page = rows.slice(0, options.limit)
  const last = page.at(-1)
  return {
    data: page.map(toListedEvent),
    nextCursor:
      rows.length > options.limit && last
        ? encodeCursor({ timestamp: String(last.ts), eventId: String(last.event_id) })
        : null,
  }
}

function toListedEvent(row: Record<string, string>): ListedEvent {
  let properties: Record<string, unknown> = {}
  try {
    const parsed: unknown = row.properties ? JSON.parse(row.properties) : {}
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      properties = parsed as Record<string, unknown>
  } catch {
    properties = {}
  }
  return {
    eventId: String(row.event_id),
    timestamp: fromClickHouseTime(String(row.ts)),
    type: row.type as EventType,
    sessionId: String(row.session_id),
    userId: String(row.user_id),
    hostname: String(row.hostname),
    pathname: String(row.pathname),
    querystring: String(row.querystring),
    pageTitle: String(row.page_title),
    referrer: String(row.referrer),
    channel: String(row.channel),
    eventName: String(row.event_name),
    properties,
    country: String(row.country),
    region: String(row.region),
    city: String(row.city),
    browser: String(row.browser),
    operatingSystem: String(row.operating_system),
    deviceType: String(row.device_type),
    language: String(row.language),
  }
}

export const listableTypes = eventTypes
