/**
 * The custom property keys of the scope: each top-level key of the custom events' `properties` (the
 * keys of their `property_map`) with `events` (custom events carrying it) and `visitors` (their
 * distinct visitors), most events first, paginated; `total` is the number of distinct keys. Reads
 * raw events (the rollups hold no properties); the scope's filters apply as in every event-level
 * report.
 */
import type { PropertyKeyRow } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { eventMetrics } from './metrics.js'
import { offsetOf } from './params.js'
import { filtersOf, type ReportScope, SCOPE_SQL, scopeOf } from './report-scope.js'
import { runReport } from './run-report.js'
import { sessionFilterRestriction } from './sessions-subquery.js'

/** One key's row (the protocol's `PropertyKeyRow`). */
export type PropertyKeyCounts = PropertyKeyRow

/**
 * The conditions every property report shares: the scope, custom events (of `eventName` when
 * given) and the scope's filters; with their parameters.
 */
export function customEventConditions(
  scope: ReportScope,
  eventName: string | undefined,
): { where: string[]; params: Record<string, unknown> } {
  const filters = filtersOf(scope)
  const where = [SCOPE_SQL, "type = 'custom_event'"]
  const params: Record<string, unknown> = { ...scopeOf(scope).params, ...filters.params }
  if (eventName !== undefined) {
    where.push('event_name = {event_name:String}')
    params.event_name = eventName
  }
  if (filters.event) where.push(`(${filters.event})`)
  const restriction = sessionFilterRestriction(filters)
  if (restriction) where.push(restriction)
  return { where, params }
}

/** The page of keys as one query (`property_key` never names an `events` column). */
export function compilePropertyKeys(scope: ReportScope, eventName?: string): CompiledQuery {
  const { where, params } = customEventConditions(scope, eventName)
  return {
    sql: [
      'SELECT property_key, count() AS events,',
      `  ${eventMetrics.visitors.sql} AS visitors,`,
      '  count() OVER () AS total_keys',
      'FROM events',
      'ARRAY JOIN mapKeys(property_map) AS property_key',
      `WHERE ${where.join(' AND ')}`,
      'GROUP BY property_key',
      'ORDER BY events DESC, property_key ASC',
      'LIMIT {limit:UInt32} OFFSET {offset:UInt32}',
    ].join('\n'),
    params: { ...params, limit: scope.params.limit, offset: offsetOf(scope.params) },
  }
}

/**
 * The page of the scope's property keys and the number of distinct keys.
 * @param eventName only the custom events of this name, when given
 */
export async function queryPropertyKeys(
  events: EventsStore,
  scope: ReportScope,
  eventName?: string,
): Promise<{ data: PropertyKeyCounts[]; total: number }> {
  const rows = await runReport<Record<string, unknown>>(
    events,
    compilePropertyKeys(scope, eventName),
    'property-keys',
  )
  return {
    data: rows.map((r) => ({
      key: String(r.property_key),
      events: Number(r.events),
      visitors: Number(r.visitors),
    })),
    total: rows.length > 0 ? Number(rows[0]?.total_keys) : 0,
  }
}
