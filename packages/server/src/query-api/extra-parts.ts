/**
 * The Query API's parts for the metrics of other event types, over raw events, grouped by the
 * query's dimensions and merged into the main rows by their values (`plan.ts` appends them):
 * - engagement (`engagement` events, one per pageview each time its page is hidden or left):
 *   `scroll_depth`, Plausible's "page scroll depth averaged per session": per session and page the
 *   deepest scroll (percent of the page's height), their mean, whole; `engaged_time`, Pathlight's
 *   own: the engaged seconds (page visible and in use) of the rows' engagement events, summed. Both
 *   null for a row without engagement events;
 * - revenue (custom events whose properties carry `revenue` and a 3-letter `currency`, as the revenue
 *   report reads them, `query/revenue.ts`): `revenue:<CUR>` the sum in that currency (0 without any);
 *   Plausible's `total_revenue` (the sum) and `average_revenue` (the sum over the revenue events), in
 *   the one currency of the answer's revenue events, null when they hold several (Plausible's
 *   `no_single_revenue_currency`). Amounts are exact decimals rounded once to the currency's minor unit.
 * Filters apply as to pageviews: an event condition to these events, a visit condition to their
 * sessions.
 */
import type { QueryApiMetric } from '@pathlight/protocol'
import type { CompiledQuery } from '../query/compiled-query.js'
import { moneyOf } from '../query/money.js'
import { AMOUNT, AMOUNT_TEXT, CURRENCY } from '../query/revenue.js'
import { createBinder, filterSql } from './filter-sql.js'
import type { PlannedPart } from './plan.js'
import { dimensionsSqlOf, scopeSql, sessionRowSql } from './raw-sql.js'
import type { ReportQuery, ResolvedRange } from './report-query.js'

type Row = Record<string, unknown>

/** The metrics these parts compute. */
export const ENGAGEMENT_METRICS: readonly QueryApiMetric[] = ['scroll_depth', 'engaged_time']
const REVENUE_TOTALS: readonly QueryApiMetric[] = ['total_revenue', 'average_revenue']

/** Whether a metric is one of these parts' (the main part leaves it out, and pages after the merge). */
export const isExtraMetric = (name: string): boolean =>
  ENGAGEMENT_METRICS.includes(name as QueryApiMetric) ||
  REVENUE_TOTALS.includes(name as QueryApiMetric) ||
  name.startsWith('revenue:')

/** What the revenue part saw over the range it ran last: the currencies of the revenue events. */
export interface RevenueSeen {
  currencies: string[]
}

/** The rows of one event type joined with their sessions, filtered, with their dimensions as `d<i>`. */
function joinedSql(query: ReportQuery, range: ResolvedRange, type: string, columns: string[]) {
  const binder = createBinder(query.goals)
  const scope = scopeSql(query, range, binder)
  const tree = query.filters.length === 0 ? '1' : query.filters.map((f) => filterSql(f, binder)).join(' AND ')
  const dimensions = dimensionsSqlOf(query, query.dimensions, binder)
  const d = dimensions.map((_, i) => `d${i}`)
  const sql = `SELECT ${[...dimensions.map((sql, i) => `toString(${sql}) AS d${i}`), 's.session_key AS sk', ...columns].join(', ')}
FROM events INNER JOIN (${sessionRowSql(scope)}) AS s ON s.session_key = cityHash64(events.session_id)
WHERE ${scope} AND type = '${type}' AND ${tree}`
  return { sql, d, params: binder.params }
}

/** Rows `d<i>`, `scroll_depth` (mean percent, unrounded) and `engaged_time` (seconds). */
export function engagementSql(query: ReportQuery, range: ResolvedRange): CompiledQuery {
  const inner = joinedSql(query, range, 'engagement', [
    'pathname AS page',
    'scroll_depth AS depth',
    'engagement_time AS ms',
  ])
  const d = inner.d
  const sql = `SELECT ${[...d, 'avg(deepest) AS scroll_depth', 'sum(engaged) / 1000 AS engaged_time'].join(', ')}
FROM (SELECT ${[...d, 'max(depth) AS deepest', 'sum(ms) AS engaged'].join(', ')} FROM (${inner.sql}) GROUP BY ${[...d, 'sk', 'page'].join(', ')})
${d.length > 0 ? `GROUP BY ${d.join(', ')}` : ''}`
  return { sql, params: inner.params }
}

/** Rows `d<i>`, `currency`, `revenue` (an exact decimal as text) and `n` (revenue events). */
export function revenueSql(query: ReportQuery, range: ResolvedRange): CompiledQuery {
  const inner = joinedSql(query, range, 'custom_event', [
    `coalesce(${AMOUNT}, ${AMOUNT_TEXT}) AS amount`,
    `${CURRENCY} AS currency`,
  ])
  const groups = [...inner.d, 'currency']
  const sql = `SELECT ${[...groups, 'toString(sum(amount)) AS revenue', 'count() AS n'].join(', ')}
FROM (${inner.sql})
WHERE amount IS NOT NULL AND match(currency, '^[A-Z]{3}$')
GROUP BY ${groups.join(', ')}`
  return { sql, params: inner.params }
}

const keyOf = (row: Row, count: number) =>
  JSON.stringify(Array.from({ length: count }, (_, i) => String(row[`d${i}`] ?? '')))

/**
 * The parts the query's metrics need (none when it asks for none of these metrics).
 * @param seen filled by the revenue part's merge with the currencies of its range's rows
 */
export function extraParts(query: ReportQuery, seen: RevenueSeen = { currencies: [] }): PlannedPart[] {
  const count = query.dimensions.length
  const parts: PlannedPart[] = []
  const engagement = query.metrics.filter((m) => ENGAGEMENT_METRICS.includes(m))
  if (engagement.length > 0) {
    parts.push({
      source: 'raw',
      pagedInSql: false,
      compile: (q, range) => engagementSql(q, range),
      merge: (mainRow, rows) => {
        const match = rows.find((r) => keyOf(r, count) === keyOf(mainRow, count))
        return Object.fromEntries(
          engagement.map((m) => [m, match?.[m] === undefined || match[m] === null ? null : Number(match[m])]),
        )
      },
    })
  }
  const revenue = query.metrics.filter((m) => m.startsWith('revenue:') || REVENUE_TOTALS.includes(m))
  if (revenue.length > 0) {
    parts.push({
      source: 'raw',
      pagedInSql: false,
      compile: (q, range) => revenueSql(q, range),
      merge: (mainRow, rows) => {
        const currencies = [...new Set(rows.map((r) => String(r.currency)))].sort()
        seen.currencies = currencies
        const mine = rows.filter((r) => keyOf(r, count) === keyOf(mainRow, count))
        const single = currencies.length === 1 ? (currencies[0] as string) : null
        return Object.fromEntries(
          revenue.map((metric) => {
            const currency = metric.startsWith('revenue:') ? metric.slice('revenue:'.length) : single
            if (currency === null) return [metric, null]
            const row = mine.find((r) => r.currency === currency)
            if (metric === 'average_revenue') {
              const n = Number(row?.n ?? 0)
              return [metric, n === 0 ? null : moneyOf(String(row?.revenue), currency, BigInt(n))]
            }
            return [metric, row ? moneyOf(String(row.revenue), currency) : 0]
          }),
        )
      },
    })
  }
  return parts
}
