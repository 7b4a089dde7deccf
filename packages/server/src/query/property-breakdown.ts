/**
 * One custom property's values over the scope: each value in canonical text (`propertyValueSql` of
 * `filters.ts`, the `property_map` column: 3, "3" and 3.0 are one row "3"; an object or array its
 * JSON text) with `events` (custom events carrying the key with that value) and `visitors` (their
 * distinct visitors), most events first, paginated; `total` is the number of distinct values. Reads
 * raw events.
 */
import type { PropertyValueRow } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { propertyIsSetSql, propertyValueSql } from './filters.js'
import { eventMetrics } from './metrics.js'
import { offsetOf } from './params.js'
import { customEventConditions } from './property-keys.js'
import type { ReportScope } from './report-scope.js'
import { runReport } from './run-report.js'

/** One value's row (the protocol's `PropertyValueRow`). */
export type PropertyValueCounts = PropertyValueRow

/** The page of values as one query (`property_value` never names an `events` column). */
export function compilePropertyBreakdown(scope: ReportScope, key: string, eventName?: string): CompiledQuery {
  const { where, params } = customEventConditions(scope, eventName)
  where.push(propertyIsSetSql('{property_key:String}'))
  return {
    sql: [
      `SELECT ${propertyValueSql('{property_key:String}')} AS property_value, count() AS events,`,
      `  ${eventMetrics.visitors.sql} AS visitors,`,
      '  count() OVER () AS total_values',
      'FROM events',
      `WHERE ${where.join(' AND ')}`,
      'GROUP BY property_value',
      'ORDER BY events DESC, property_value ASC',
      'LIMIT {limit:UInt32} OFFSET {offset:UInt32}',
    ].join('\n'),
    params: {
      ...params,
      property_key: key,
      limit: scope.params.limit,
      offset: offsetOf(scope.params),
    },
  }
}

/**
 * The page of the values of the custom property `key` and the number of distinct values.
 * @param key a top-level key of the events' properties
 * @param eventName only the custom events of this name, when given
 */
export async function queryPropertyBreakdown(
  events: EventsStore,
  scope: ReportScope,
  key: string,
  eventName?: string,
): Promise<{ data: PropertyValueCounts[]; total: number }> {
  const rows = await runReport<Record<string, unknown>>(
    events,
    compilePropertyBreakdown(scope, key, eventName),
    'property-breakdown',
  )
  return {
    data: rows.map((r) => ({
      value: String(r.property_value),
      events: Number(r.events),
      visitors: Number(r.visitors),
    })),
    total: rows.length > 0 ? Number(rows[0]?.total_values) : 0,
  }
}
