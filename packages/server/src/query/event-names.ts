/**
 * Custom event names of the scope with their counts: `events` (occurrences) and `sessions` (distinct
 * sessions that fired it), most frequent first, paginated; `total` is the number of distinct names.
 * Rows are the protocol's `EventNameCounts` (also `visitors`: distinct visitors that fired it), with
 * every count an `EventName` (the v1 route asks for all three). `metrics` narrows the counts to compute: events always (they rank the names); sessions and visitors are sets
 * of hashes to count or merge, nearly all of the report's CPU (the dashboard's card shows events only).
 */
import { type EventNameCounts, type EventNameMetric, eventNameMetrics } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { compileFilters } from './filters.js'
import { eventMetrics } from './metrics.js'
import { offsetOf } from './params.js'
import { rolledFor } from './plan-report.js'
import { filtersOf, type ReportScope, SCOPE_SQL, scopeOf } from './report-scope.js'
import { ROLLED_DIMENSION_SQL, rolledEventMetrics } from './rollups/rolled-events.js'
import { runReport } from './run-report.js'
import { sessionFilterRestriction } from './sessions-subquery.js'

export function compileEventNames(
  scope: ReportScope,
  metrics: readonly EventNameMetric[] = eventNameMetrics,
): CompiledQuery {
  if (rolledFor(scope, { kind: 'dimension', column: 'event_name' })) {
    // `event_hours` rows of dimension `event_name` hold custom events only; sessions and visitors estimated.
    const filters = compileFilters(scope.params.filters, 'value')
    return namesQuery(scope, metrics, {
      columns: { name: 'value', ...rolledEventMetrics },
      from: 'event_hours',
      where: [ROLLED_DIMENSION_SQL, ...(filters.event === null ? [] : [filters.event])],
      params: { ...filters.params, dimension: 'event_name' },
    })
  }
  const filters = filtersOf(scope)
  const where = [SCOPE_SQL, "type = 'custom_event'"]
  if (filters.event) where.push(`(${filters.event})`)
  const restriction = sessionFilterRestriction(filters)
  if (restriction) where.push(restriction)
  return namesQuery(scope, metrics, {
    columns: {
      name: 'event_name',
      events: 'count()',
      sessions: eventMetrics.sessions.sql,
      visitors: eventMetrics.visitors.sql,
    },
    from: 'events',
    where,
    params: filters.params,
  })
}

/**
 * The page of event names over `from` (raw events or the rollup), with the expressions of each column;
 * the columns of the counts `metrics` leaves out are not computed.
 */
function namesQuery(
  scope: ReportScope,
  metrics: readonly EventNameMetric[],
  source: {
    columns: { name: string; events: string; sessions: string; visitors: string }
    from: string
    where: string[]
    params: Record<string, unknown>
  },
): CompiledQuery {
  const { name, events, sessions, visitors } = source.columns
  const extra = [
    ...(metrics.includes('sessions') ? [`${sessions} AS sessions`] : []),
    ...(metrics.includes('visitors') ? [`${visitors} AS visitors`] : []),
  ]
  return {
    sql: [
      `SELECT ${[`${name} AS name`, `${events} AS events`, ...extra].join(', ')},`,
      '  count() OVER () AS total_names',
      `FROM ${source.from}`,
      `WHERE ${source.where.join(' AND ')}`,
      'GROUP BY name',
      'ORDER BY events DESC, name ASC',
      'LIMIT {limit:UInt32} OFFSET {offset:UInt32}',
    ].join('\n'),
    params: {
      ...scopeOf(scope).params,
      ...source.params,
      limit: scope.params.limit,
      offset: offsetOf(scope.params),
    },
  }
}

/**
 * The page of the scope's event names with the counts `metrics` asks for (default all three; events
 * always), and the number of distinct names.
 */
export async function queryEventNames(
  events: EventsStore,
  scope: ReportScope,
  metrics: readonly EventNameMetric[] = eventNameMetrics,
): Promise<{ data: EventNameCounts[]; total: number }> {
  const rows = await runReport<Record<string, unknown>>(
    events,
    compileEventNames(scope, metrics),
    'event-names',
  )
  return {
    data: rows.map((r) => ({
      name: String(r.name),
      events: Number(r.events),
      ...(r.sessions === undefined ? {} : { sessions: Number(r.sessions) }),
      ...(r.visitors === undefined ? {} : { visitors: Number(r.visitors) }),
    })),
    total: rows.length > 0 ? Number(rows[0]?.total_names) : 0,
  }
}
