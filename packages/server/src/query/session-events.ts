/**
 * One session's events in the range in `EVENT_ORDER` (oldest first, then by event id), paginated by
 * `page`/`limit`: the session detail's timeline. Filters are not applied: they choose sessions (the
 * list), and the detail shows everything the chosen session did. Each event is the protocol's
 * `SessionEvent`: the fields of the event list (`ListedEvent`) plus its error message ('' unless an
 * error event) and web vitals (ms, CLS unitless; null when not measured or not a performance event).
 * Pipeline: plan (`ReportScope` + session id) -> `compileSessionEvents` -> `runReport` -> `toSessionEvent`.
 */

import type { EventType, SessionEvent } from '@pathlight/protocol'
import { fromClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { EVENT_ORDER } from './metrics.js'
import { offsetOf } from './params.js'
import { type ReportScope, SCOPE_SQL, scopeOf } from './report-scope.js'
import { runReport } from './run-report.js'

/** The page of the session's events and the number of its events in the range. */
export function compileSessionEvents(scope: ReportScope, sessionId: string): CompiledQuery {
  return {
    sql: [
      'SELECT toString(event_id) AS id, toString(timestamp) AS ts, type, session_id, user_id, hostname,',
      '  pathname, querystring, page_title, referrer, channel, event_name, properties, country, region,',
      '  city, browser, operating_system, device_type, language, error_message, lcp, cls, inp, fcp, ttfb,',
      '  count() OVER () AS total_events',
      'FROM events',
      `WHERE ${SCOPE_SQL} AND session_id = {session:String}`,
      `ORDER BY ${EVENT_ORDER}`,
      'LIMIT {limit:UInt32} OFFSET {offset:UInt32}',
    ].join('\n'),
    params: {
      ...scopeOf(scope).params,
      session: sessionId,
      limit: scope.params.limit,
      offset: offsetOf(scope.params),
    },
  }
}

type Row = Record<string, unknown>

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value))
const vital = (value: unknown) => (value === null || value === undefined ? null : Number(value))

/** The properties text as an object; {} when empty or not a JSON object. */
function propertiesOf(value: unknown): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text(value) || '{}')
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}

/** Shape one result row. */
export function toSessionEvent(row: Row): SessionEvent {
  return {
    eventId: text(row.id),
    timestamp: fromClickHouseTime(text(row.ts)),
    type: text(row.type) as EventType,
    sessionId: text(row.session_id),
    userId: text(row.user_id),
    hostname: text(row.hostname),
    pathname: text(row.pathname),
    querystring: text(row.querystring),
    pageTitle: text(row.page_title),
    referrer: text(row.referrer),
    channel: text(row.channel),
    eventName: text(row.event_name),
    properties: propertiesOf(row.properties),
    country: text(row.country),
    region: text(row.region),
    city: text(row.city),
    browser: text(row.browser),
    operatingSystem: text(row.operating_system),
    deviceType: text(row.device_type),
    language: text(row.language),
    errorMessage: text(row.error_message),
    lcp: vital(row.lcp),
    cls: vital(row.cls),
    inp: vital(row.inp),
    fcp: vital(row.fcp),
    ttfb: vital(row.ttfb),
  }
}

/** A page of one session's events in the scope's range, and how many it has there. */
export async function querySessionEvents(
  events: EventsStore,
  scope: ReportScope,
  sessionId: string,
): Promise<{ data: SessionEvent[]; total: number }> {
  const rows = await runReport<Row>(events, compileSessionEvents(scope, sessionId), 'session-events')
  return { data: rows.map(toSessionEvent), total: rows.length > 0 ? Number(rows[0]?.total_events) : 0 }
}
