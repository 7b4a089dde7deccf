/** Custom events of the scope that pass the filters (the overview's `events` figure in the v1 API). */
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { eventTypeConditions } from './metrics.js'
import { filtersOf, type ReportScope, SCOPE_SQL, scopeOf } from './report-scope.js'
import { ROLLED_DIMENSION_SQL, rolledEventMetrics } from './rollups/rolled-events.js'
import { rollupsServe } from './rollups/rollup-scope.js'
import { runReport } from './run-report.js'
import { sessionFilterRestriction } from './sessions-subquery.js'

export function compileCustomEventCount(scope: ReportScope): CompiledQuery {
  if (rollupsServe(scope)) {
    return {
      sql: `SELECT ${rolledEventMetrics.custom_events} AS events FROM event_hours WHERE ${ROLLED_DIMENSION_SQL}`,
      params: { ...scopeOf(scope).params, dimension: '' },
    }
  }
  const filters = filtersOf(scope)
  const where = [SCOPE_SQL, eventTypeConditions.custom_event]
  if (filters.event) where.push(`(${filters.event})`)
  const restriction = sessionFilterRestriction(filters)
  if (restriction) where.push(restriction)
  return {
    sql: `SELECT count() AS events FROM events WHERE ${where.join(' AND ')}`,
    params: { ...scopeOf(scope).params, ...filters.params },
  }
}

export async function queryCustomEventCount(events: EventsStore, scope: ReportScope): Promise<number> {
  const [row] = await runReport<{ events: number }>(
    events,
    compileCustomEventCount(scope),
    'custom-event-count',
  )
  return Number(row?.events ?? 0)
}
