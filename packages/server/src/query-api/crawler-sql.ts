/**
 * The Query API over crawler requests (`crawler_requests`, a site's access log read apart from
 * visits): a query whose metric is `requests` or that names a `crawler:*` dimension or filter (the
 * protocol refuses mixing them with visit metrics, visit or event dimensions and their filters).
 * `requests` counts the requests of the range that pass the filters, grouped by the crawler and time
 * dimensions (`crawler:verified` as `true`/`false`), ordered and paged in SQL.
 */

import type { CompiledQuery } from '../query/compiled-query.js'
import { CRAWLER_REQUESTS } from '../storage/events/rollup-schema/crawler-requests.js'
import { createBinder, filterSql } from './filter-sql.js'
import type { PlannedPart, QueryPlan } from './plan.js'
import { dimensionsSqlOf, scopeSql } from './raw-sql.js'
import type { ReportQuery, ResolvedRange } from './report-query.js'

/** Whether the query reads crawler requests instead of events. */
export const isCrawlerQuery = (query: ReportQuery): boolean =>
  query.metrics.includes('requests') || query.dimensions.some((d) => d.startsWith('crawler:'))

/** Rows `d0`, `d1`, ..., `requests`, and `total_rows` when paged. */
export function crawlerSql(query: ReportQuery, range: ResolvedRange, paged: boolean): CompiledQuery {
  const binder = createBinder()
  const scope = scopeSql(query, range, binder)
  const tree = query.filters.length === 0 ? '1' : query.filters.map((f) => filterSql(f, binder)).join(' AND ')
  const dimensions = dimensionsSqlOf(query, query.dimensions, binder)
  const d = dimensions.map((_, i) => `d${i}`)
  const lines = [
    `SELECT ${[...dimensions.map((sql, i) => `toString(${sql}) AS d${i}`), 'count() AS requests', 'count() AS matched_visits'].join(', ')}${paged ? ', count() OVER () AS total_rows' : ''}`,
    `FROM ${CRAWLER_REQUESTS}`,
    `WHERE ${scope} AND ${tree}`,
    ...(d.length > 0 ? [`GROUP BY ${d.join(', ')}`] : []),
  ]
  if (paged) {
    const order = query.orderBy.map(([name, direction]) => {
      const index = query.dimensions.indexOf(name)
      return `${index >= 0 ? `d${index}` : 'requests'} ${direction.toUpperCase()}`
    })
    const rest = d.filter((name) => !order.some((o) => o.startsWith(`${name} `)))
    lines.push(`ORDER BY ${[...order, ...rest.map((name) => `${name} ASC`)].join(', ') || '1'}`)
    lines.push(`LIMIT ${binder.bind(query.limit, 'UInt32')} OFFSET ${binder.bind(query.offset, 'UInt32')}`)
  }
  return { sql: lines.join('\n'), params: binder.params }
}

/** The plan of a crawler query: one part over the range (paged in SQL), one over the compared range. */
export function crawlerPlan(): QueryPlan {
  const part = (paged: boolean): PlannedPart => ({
    source: 'raw',
    pagedInSql: paged,
    compile: (q, range) => crawlerSql(q, range, paged),
    merge: () => ({}),
  })
  return { current: [part(true)], compared: [part(false)] }
}
