/**
 * The overview report: the headline figures of a site over a range, after filters. Metric
 * definitions live in `metrics.ts` (`sessionMetrics`); this file only composes them.
 * Pipeline: plan (`ReportScope`) -> `compileOverview` -> `runReport` -> `toOverview`. The stats report
 * asks for a range and the one just before it: from the rollups that is one query
 * (`compileRolledOverviewPeriods`).
 */
import type { Totals } from '@pathlight/protocol'
import { toClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { sessionMetrics } from './metrics.js'
import { rolledFor } from './plan-report.js'
import { type Periods, queryPeriods } from './previous-period.js'
import { filtersOf, type ReportScope, scopeOf } from './report-scope.js'
import { rolledSessionMetrics, rolledSessionsSubquery } from './rollups/rolled-sessions.js'
import { runReport } from './run-report.js'
import { sessionsSubquery } from './sessions-subquery.js'

/**
 * Headline figures: the protocol's `Totals` but `events` (custom events are counted apart,
 * `custom-event-count.ts`, and added by `stats-report.ts`). Counts are integers; rates are fractions
 * 0..1; `session_duration` the average, seconds (not rounded).
 */
export type Overview = Omit<Totals, 'events'>

const metricNames = [
  'visitors',
  'sessions',
  'pageviews',
  'bounce_rate',
  'session_duration',
  'pages_per_session',
] as const satisfies readonly (keyof typeof sessionMetrics)[]

const sessionColumnsRead = [
  'visitor_key',
  'pageview_count',
  'matched_pageview_count',
  'interaction_count',
  'duration_seconds',
] as const

/**
 * One row: every session metric over the per-session table (from the rollup when unfiltered, where
 * visitors are estimated: `rolledSessionMetrics`).
 */
export function compileOverview(scope: ReportScope): CompiledQuery {
  const filters = filtersOf(scope)
  const rolled = rolledFor(scope, { kind: 'sessions' })
  const inner = rolled
    ? rolledSessionsSubquery(sessionColumnsRead)
    : sessionsSubquery(filters, sessionColumnsRead)
  const metrics = rolled ? rolledSessionMetrics : sessionMetrics
  return {
    sql: [
      `SELECT ${metricNames.map((name) => `${metrics[name].sql} AS ${name}`).join(', ')}`,
      `FROM (\n${inner}\n)`,
    ].join('\n'),
    params: { ...scopeOf(scope).params, ...filters.params },
  }
}

/**
 * The overview of `scope` and of `previous` (the range ending where the scope's begins, as
 * `previous-period.ts` makes it) in one query over the rollups: a row per period with a session, `period`
 * 1 for the scope's and 0 for the previous one, each with the figures the period alone gives
 * (`rolledSessionsSubquery` with `byPeriod`). Why: the stats report asked for the two apart, and each
 * rolled overview reads five tables, a fixed cost even over an empty previous period (bench/README.md
 * "The stats report's two periods in one query each").
 * Only where `planReport` gives the rollups for both periods (`kind: 'periods'`).
 */
export function compileRolledOverviewPeriods(scope: ReportScope, previous: ReportScope): CompiledQuery {
  const inner = rolledSessionsSubquery(sessionColumnsRead, { byPeriod: true })
  return {
    sql: [
      `SELECT period, ${metricNames.map((name) => `${rolledSessionMetrics[name].sql} AS ${name}`).join(', ')}`,
      `FROM (\n${inner}\n)`,
      'GROUP BY period',
    ].join('\n'),
    params: {
      ...scopeOf(scope).params,
      from: toClickHouseTime(previous.params.from),
      split: toClickHouseTime(scope.params.from),
    },
  }
}

/** Shape the single result row (numbers may come back as numbers or numeric strings). */
export function toOverview(rows: readonly Record<string, unknown>[]): Overview {
  const row = rows[0] ?? {}
  const number = (name: string) => {
    const value = Number(row[name] ?? 0)
    return Number.isFinite(value) ? value : 0
  }
  return {
    visitors: number('visitors'),
    sessions: number('sessions'),
    pageviews: number('pageviews'),
    bounce_rate: number('bounce_rate'),
    session_duration: number('session_duration'),
    pages_per_session: number('pages_per_session'),
  }
}

/**
 * The overviews of the scope and of `previous` (the range just before it, `previousPeriod`): one query
 * when the rollups serve both (`compileRolledOverviewPeriods`), one per range otherwise.
 */
export function queryOverviewPeriods(
  events: EventsStore,
  scope: ReportScope,
  previous: ReportScope,
): Promise<Periods<Overview>> {
  return queryPeriods(
    scope,
    previous,
    (one) => queryOverview(events, one),
    async () => {
      const query = compileRolledOverviewPeriods(scope, previous)
      const rows = await runReport<Record<string, unknown>>(events, query, 'overview')
      return {
        current: toOverview(rows.filter((row) => Number(row.period) === 1)),
        previous: toOverview(rows.filter((row) => Number(row.period) === 0)),
      }
    },
  )
}

/** The overview of one site over the scope's range and filters. */
export async function queryOverview(events: EventsStore, scope: ReportScope): Promise<Overview> {
  return toOverview(await runReport<Record<string, unknown>>(events, compileOverview(scope), 'overview'))
}
