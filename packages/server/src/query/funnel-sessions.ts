/**
 * The sessions behind a funnel's figures (the protocol's `Session`, newest first by first event, then
 * session id descending, paginated): those that reached step k (`outcome` 'reached', counted in step
 * k's `sessions`), or reached step k but not step k+1 (`outcome` 'dropped', counted in step k+1's
 * `dropoff`). Matching: `funnel-matches.ts`. With a breakdown value, only sessions with that value.
 * Pipeline: plan (`ReportScope` + steps + selection) -> `compileFunnelSessions` -> `runReport` -> `toSession`.
 */
import type { Session } from '@pathlight/protocol'
import type { FunnelStep } from '../funnels/funnel.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import type { FilterParameter } from './filters.js'
import { funnelMatches } from './funnel-matches.js'
import { sessionObjectColumns, toSession } from './goal-sessions.js'
import { SESSION_KEY } from './metrics.js'
import { offsetOf } from './params.js'
import { filtersOf, type ReportScope } from './report-scope.js'
import { runReport } from './run-report.js'
import { sessionsSubquery } from './sessions-subquery.js'

/** Which sessions of a funnel to list. */
export interface FunnelSelection {
  /** 1-based step. */
  step: number
  /** 'reached': reached `step`; 'dropped': reached `step` but not the next (needs a next step). */
  outcome: 'reached' | 'dropped'
  /** Only sessions with this value of the breakdown parameter (`sessionValueOf`). */
  breakdown?: { parameter: FilterParameter; value: string }
}

/** The page of selected sessions, with `total_sessions` on each row. */
export function compileFunnelSessions(
  scope: ReportScope,
  steps: readonly FunnelStep[],
  selection: FunnelSelection,
): CompiledQuery {
  const filters = filtersOf(scope)
  const matches = funnelMatches(scope, steps, selection.breakdown?.parameter)
  const conditions = [`t${selection.step} IS NOT NULL`]
  if (selection.outcome === 'dropped') conditions.push(`t${selection.step + 1} IS NULL`)
  const params: Record<string, unknown> = { ...matches.params }
  if (selection.breakdown !== undefined) {
    conditions.push('breakdown_value = {breakdown_value:String}')
    params.breakdown_value = selection.breakdown.value
  }
  const selected = `${SESSION_KEY} IN (SELECT session_key FROM (\n${matches.sql}\n) WHERE ${conditions.join(' AND ')})`
  return {
    sql: [
      'SELECT *, count() OVER () AS total_sessions FROM (',
      sessionsSubquery(filters, sessionObjectColumns, selected),
      ')',
      'ORDER BY started_at DESC, session_uuid DESC',
      'LIMIT {limit:UInt32} OFFSET {offset:UInt32}',
    ].join('\n'),
    params: { ...params, limit: scope.params.limit, offset: offsetOf(scope.params) },
  }
}

/** A page of the selected sessions, and how many all pages hold. */
export async function queryFunnelSessions(
  events: EventsStore,
  scope: ReportScope,
  steps: readonly FunnelStep[],
  selection: FunnelSelection,
): Promise<{ data: Session[]; total: number }> {
  type Row = Parameters<typeof toSession>[0] & { total_sessions: number }
  const rows = await runReport<Row>(events, compileFunnelSessions(scope, steps, selection), 'funnel-sessions')
  return { data: rows.map(toSession), total: rows.length > 0 ? Number(rows[0]?.total_sessions) : 0 }
}
