/**
 * The per-session matching of a funnel, shared by the funnel report and its session lists.
 *
 * Definition (exact; README "Funnels"): a session takes part when it has an event in the range and
 * passes the filters (`filters.ts`; the steps' own events need not pass the event filters, as for goal
 * conversions). Within a session's events in the range:
 * - step 1 is matched at t1, the time of its earliest event matching step 1;
 * - step k (k > 1) is matched at tk, the time of its earliest event matching step k at or after
 *   t(k-1) (equal timestamps count as in order); unmatched when there is none, and then every later
 *   step is unmatched too.
 * Taking the earliest match at each step is what lets the most later steps match, so a session
 * reaches step k exactly when it has events matching steps 1..k in that order; repeating a step
 * changes nothing. One event may match several steps (a pageview of /blog/a matches both '/blog/*' and
 * '/blog/a'), so two identical consecutive steps are matched by the same event.
 *
 * SQL: one pass groups the events by session: t1 = `minIf(timestamp, <step 1>)` (sessions without a
 * step-1 event are left out), and for each later step the sorted timestamps of the events matching it
 * (`arraySort(groupArrayIf(timestamp, <step k>))`); then tk = the first element of step k's array that
 * is >= t(k-1) (`arrayFirstOrNull`), NULL when none. Without filters or a breakdown only events
 * matching some step are read.
 */
import type { FunnelStep } from '../funnels/funnel.js'
import { stepCondition } from '../funnels/funnel.js'
import type { SqlFragment } from './compiled-query.js'
import { eventFilterColumns, type FilterParameter, sessionFilterColumns } from './filters.js'
import { goalCondition } from './goal-condition.js'
import { EVENT_ORDER_KEY } from './metrics.js'
import { filtersOf, type ReportScope, scopeOf } from './report-scope.js'
import { sessionsSubquery } from './sessions-subquery.js'

/**
 * The value a session has for a breakdown parameter: for event parameters (browser, country, channel,
 * pathname, ...) the column's value at its first event in the range (`EVENT_ORDER`: by time, then
 * event id); for `entry_page` / `exit_page` its first / last pageview's pathname.
 */
export function sessionValueOf(parameter: FilterParameter): string {
  if (parameter === 'entry_page' || parameter === 'exit_page') return sessionFilterColumns[parameter]
  return `argMin(${eventFilterColumns[parameter]}, ${EVENT_ORDER_KEY})`
}

/**
 * `SELECT session_key, t1, ..., tn [, breakdown_value] FROM ...`: one row per session that takes part
 * and matched step 1; t1 DateTime64(3, 'UTC'), later `tk` Nullable(DateTime64(3, 'UTC')), NULL when
 * step k is not matched.
 * Placeholders: the scope's, the filters' and `s<k>_*` of each step (0-based k).
 */
export function funnelMatches(
  scope: ReportScope,
  steps: readonly FunnelStep[],
  breakdown?: FilterParameter,
): SqlFragment {
  const filters = filtersOf(scope)
  const params: Record<string, unknown> = { ...scopeOf(scope).params, ...filters.params }
  const conditions = steps.map((step, i) => {
    const condition = goalCondition(stepCondition(step), `s${i}`)
    Object.assign(params, condition.params)
    return condition.sql
  })
  const unfiltered = filters.event === null && filters.session === null && breakdown === undefined
  const inner = sessionsSubquery(
    filters,
    [
      { sql: `countIf(${conditions[0]})`, as: 'n1' },
      { sql: `minIf(timestamp, ${conditions[0]})`, as: 't1' },
      ...conditions.slice(1).map((condition, i) => ({
        sql: `arraySort(groupArrayIf(timestamp, ${condition}))`,
        as: `m${i + 2}`,
      })),
      ...(breakdown === undefined ? [] : [{ sql: sessionValueOf(breakdown), as: 'breakdown_value' }]),
    ],
    unfiltered ? `(${conditions.map((c) => `(${c})`).join(' OR ')})` : undefined,
  )
  const times = steps.map((_, i) =>
    i === 0 ? 't1' : `arrayFirstOrNull(x -> x >= t${i}, m${i + 1}) AS t${i + 1}`,
  )
  return {
    sql: [
      `SELECT session_key, ${times.join(', ')}${breakdown === undefined ? '' : ', breakdown_value'}`,
      `FROM (\n${inner}\n)`,
      'WHERE n1 > 0',
    ].join('\n'),
    params,
  }
}
