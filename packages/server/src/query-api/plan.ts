/**
 * The Query API's planner: for a `ReportQuery`, the parts that answer it and which tables serve
 * each. Every part reads raw events (`raw-sql.ts`) for now; the rollups serve the dashboard's
 * unfiltered reports and are the next source this planner should pick (docs/api.md "Query API").
 * Parts:
 * - the main part: the dimensions and the metrics SQL computes, ordered and paged in SQL unless the
 *   order names a figure of another part;
 * - with an `event:page` dimension and `bounce_rate` or `visit_duration`: those two by entry page
 *   (Plausible counts the sessions that entered on the page), merged by the page;
 * - with `percentage`: the visitors of the whole (no dimensions), each row's share of them.
 */
import type { QueryApiMetric } from '@pathlight/protocol'
import type { CompiledQuery } from '../query/compiled-query.js'
import { badRequest } from '../shared/errors.js'
import { rawPartSql } from './raw-sql.js'
import { conditionsIn, type ReportQuery, type ResolvedRange } from './report-query.js'

type Row = Record<string, unknown>

/** One query of a plan, and how its rows join the main part's. */
export interface PlannedPart {
  compile(query: ReportQuery, range: ResolvedRange, mainRows?: Row[]): CompiledQuery
  /** The figures this part adds to one main row. */
  merge(mainRow: Row, rows: Row[]): Row
  pagedInSql: boolean
}

/** The plan: the parts over the range, and over the compared range (every row, paged by match). */
export interface QueryPlan {
  current: PlannedPart[]
  compared: PlannedPart[]
}

const NOT_YET = ['conversion_rate', 'group_conversion_rate', 'time_on_page']
const ENTRY_METRICS: QueryApiMetric[] = ['bounce_rate', 'visit_duration']

/** @throws AppError 400 for a metric or dimension this server does not serve yet */
export function planQuery(query: ReportQuery): QueryPlan {
  for (const metric of query.metrics) {
    if (NOT_YET.includes(metric) || metric.startsWith('revenue:')) throw notServedYet(metric)
  }
  if (
    query.dimensions.includes('event:goal') ||
    conditionsIn(query.filters).some((c) => c.dimension === 'event:goal')
  ) {
    throw notServedYet('event:goal')
  }
  const byEntryPage =
    query.dimensions.includes('event:page') && query.metrics.some((m) => ENTRY_METRICS.includes(m))
  const entryMetrics = byEntryPage ? query.metrics.filter((m) => ENTRY_METRICS.includes(m)) : []
  const mainMetrics = query.metrics
    .map((m): QueryApiMetric => (m === 'percentage' ? 'visitors' : m))
    .filter((m, i, list) => !entryMetrics.includes(m) && list.indexOf(m) === i)
  const orderBy = query.orderBy.map(([name, direction]): [string, 'asc' | 'desc'] => [
    name === 'percentage' ? 'visitors' : name,
    direction,
  ])
  const pagedInSql = !orderBy.some(([name]) => entryMetrics.includes(name as QueryApiMetric))
  const sessionPage = conditionsIn(query.filters).some((c) => c.dimension === 'event:page')
  const main = (paged: boolean): PlannedPart => ({
    pagedInSql: paged,
    compile: (q, range) =>
      rawPartSql(q, range, {
        dimensions: q.dimensions,
        metrics: mainMetrics,
        sessionPage,
        page: paged ? { orderBy, limit: q.limit, offset: q.offset } : null,
      }),
    merge: () => ({}),
  })
  const pageIndex = query.dimensions.indexOf('event:page')
  const entry: PlannedPart = {
    pagedInSql: false,
    compile: (q, range, mainRows) =>
      rawPartSql(q, range, {
        dimensions: q.dimensions.map((d) => (d === 'event:page' ? 'visit:entry_page' : d)),
        metrics: entryMetrics,
        sessionPage: true,
        page: null,
        only: mainRows
          ? { index: pageIndex, values: [...new Set(mainRows.map((r) => String(r[`d${pageIndex}`])))] }
          : undefined,
      }),
    merge: (mainRow, rows) => {
      const key = query.dimensions.map((_, i) => mainRow[`d${i}`]).join('\u0000')
      const match = rows.find((r) => query.dimensions.map((_, i) => r[`d${i}`]).join('\u0000') === key)
      return Object.fromEntries(entryMetrics.map((m) => [m, match ? match[m] : null]))
    },
  }
  const total: PlannedPart = {
    pagedInSql: false,
    compile: (q, range) =>
      rawPartSql({ ...q, dimensions: [], timeBucket: null }, range, {
        dimensions: [],
        metrics: ['visitors'],
        sessionPage,
        page: null,
      }),
    merge: (mainRow, rows) => {
      const whole = Number(rows[0]?.visitors ?? 0)
      return { percentage: whole === 0 ? 0 : (100 * Number(mainRow.visitors ?? 0)) / whole }
    },
  }
  const rest = [...(byEntryPage ? [entry] : []), ...(query.metrics.includes('percentage') ? [total] : [])]
  return { current: [main(pagedInSql), ...rest], compared: [main(false), ...rest] }
}

/** A metric or dimension this server does not serve yet: a 400 naming it. */
export const notServedYet = (name: string) =>
  badRequest(`Invalid query: metrics: ${name} is not served by this server yet`, {
    fieldErrors: { metrics: [`${name} is not served by this server yet`] },
    formErrors: [],
  })
