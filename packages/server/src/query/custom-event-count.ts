/** Custom events of the scope that pass the filters (the overview's `events` figure in the v1 API). */
import { toClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { eventTypeConditions } from './metrics.js'
import { rolledFor } from './plan-report.js'
import { type Periods, queryPeriods } from './previous-period.js'
import { filtersOf, type ReportScope, SCOPE_SQL, scopeOf } from './report-scope.js'
import { ROLLED_DIMENSION_SQL, rolledEventMetrics } from './rollups/rolled-events.js'
import { runReport } from './run-report.js'
import { sessionFilterRestriction } from './sessions-subquery.js'

/** `event_hours`' count of custom events. */
const CUSTOM = 'custom_event_count'

export function compileCustomEventCount(scope: ReportScope): CompiledQuery {
  if (rolledFor(scope, { kind: 'events' })) {
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

/**
 * The custom events of the scope and of `previous` (the range ending where the scope's begins,
 * `previousPeriod`): one read of `event_hours` over both when the rollups serve both (the counts are
 * sums, split at the scope's first hour), one query per range otherwise.
 */
export function queryCustomEventCountPeriods(
  events: EventsStore,
  scope: ReportScope,
  previous: ReportScope,
): Promise<Periods<number>> {
  const split = "{split:DateTime64(3, 'UTC')}"
  return queryPeriods(
    scope,
    previous,
    (one) => queryCustomEventCount(events, one),
    async () => {
      const [row] = await runReport<{ current: number; previous: number }>(
        events,
        {
          sql: [
            `SELECT sumIf(${CUSTOM}, hour >= ${split}) AS current, sumIf(${CUSTOM}, hour < ${split}) AS previous`,
            `FROM event_hours WHERE ${ROLLED_DIMENSION_SQL}`,
          ].join(' '),
          params: {
            ...scopeOf(scope).params,
            from: toClickHouseTime(previous.params.from),
            split: toClickHouseTime(scope.params.from),
            dimension: '',
          },
        },
        'custom-event-count',
      )
      return { current: Number(row?.current ?? 0), previous: Number(row?.previous ?? 0) }
    },
  )
}
