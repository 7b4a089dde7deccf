/**
 * The Query API's planner: for a `ReportQuery`, the parts that answer it and which tables serve
 * each: the rollups (`rollup-sql.ts`) where they hold every figure asked, raw events
 * (`raw-sql.ts`) otherwise. Parts:
 * - the main part: the dimensions and the metrics SQL computes, ordered and paged in SQL unless the
 *   order names a figure of another part;
 * - with an `event:page` dimension and `bounce_rate` or `visit_duration`: those two by entry page
 *   (Plausible counts the sessions that entered on the page), merged by the page;
 * - `time_on_page`: the mean time to the next pageview, by the same dimensions (`time-on-page-sql.ts`);
 * - `percentage`: each row's share of the visitors of the whole (no dimensions);
 * - `conversion_rate`: each row's visitors over the whole's without the `event:goal` filters;
 *   `group_conversion_rate`: over its own group's (the same dimensions but `event:goal`) without them.
 */
import type { QueryApiMetric } from '@pathlight/protocol'
import type { CompiledQuery } from '../query/compiled-query.js'
import { badRequest } from '../shared/errors.js'
import { isExtraMetric } from './extra-parts.js'
import { rawPartSql } from './raw-sql.js'
import { conditionsIn, type ReportQuery, type ResolvedRange, withoutGoals } from './report-query.js'
import { rollupPartSql, rollupServes } from './rollup-sql.js'
import { timeOnPageSql } from './time-on-page-sql.js'

type Row = Record<string, unknown>

/** One query of a plan, and how its rows join the main part's. */
export interface PlannedPart {
  /** Which tables it reads (the tests and the bench state it). */
  source: 'raw' | 'rollup'
  compile(query: ReportQuery, range: ResolvedRange, mainRows?: Row[]): CompiledQuery
  /** The figures this part adds to one main row. */
  merge(mainRow: Row, rows: Row[]): Row
  pagedInSql: boolean
}

/** The plan: the parts over the range, and over the compared range (every row, matched later). */
export interface QueryPlan {
  current: PlannedPart[]
  compared: PlannedPart[]
}

const NOT_YET: string[] = []
const ENTRY_METRICS: QueryApiMetric[] = ['bounce_rate', 'visit_duration']
/** Metrics derived from `visitors` and another part's visitors. */
const SHARES: QueryApiMetric[] = ['percentage', 'conversion_rate', 'group_conversion_rate']

/** The key of a row by the values of some of the query's dimensions (by index). */
const keyBy = (row: Row, indexes: readonly number[]) => JSON.stringify(indexes.map((i) => row[`d${i}`]))

/** @throws AppError 400 for a metric this server does not serve yet */
export function planQuery(query: ReportQuery, options: { rollups?: boolean } = {}): QueryPlan {
  for (const metric of query.metrics) {
    if (NOT_YET.includes(metric)) throw notServedYet(metric)
  }
  const byEntryPage =
    query.dimensions.includes('event:page') && query.metrics.some((m) => ENTRY_METRICS.includes(m))
  const entryMetrics = byEntryPage ? query.metrics.filter((m) => ENTRY_METRICS.includes(m)) : []
  const mainMetrics = query.metrics
    .map((m): QueryApiMetric => (SHARES.includes(m) ? 'visitors' : m))
    .filter(
      (m, i, list) =>
        !entryMetrics.includes(m) && m !== 'time_on_page' && !isExtraMetric(m) && list.indexOf(m) === i,
    )
  const orderBy = query.orderBy.map(([name, direction]): [string, 'asc' | 'desc'] => [
    SHARES.includes(name as QueryApiMetric) ? 'visitors' : name,
    direction,
  ])
  // An order by a figure of another part (or by a group's rate, which visitors do not order) pages
  // after the merge.
  const pagedInSql = !query.orderBy.some(
    ([name]) =>
      entryMetrics.includes(name as QueryApiMetric) ||
      name === 'group_conversion_rate' ||
      name === 'time_on_page' ||
      isExtraMetric(name),
  )
  const sessionPage = conditionsIn(query.filters).some((c) => c.dimension === 'event:page')
  const rolled = rollupServes(query, mainMetrics, options)
  const main = (paged: boolean): PlannedPart => ({
    source: rolled ? 'rollup' : 'raw',
    pagedInSql: paged,
    compile: (q, range) => {
      const part = {
        dimensions: q.dimensions,
        metrics: mainMetrics,
        sessionPage,
        page: paged ? { orderBy, limit: q.limit, offset: q.offset } : null,
      }
      return rolled ? rollupPartSql(q, range, part) : rawPartSql(q, range, part)
    },
    merge: () => ({}),
  })
  const pageIndex = query.dimensions.indexOf('event:page')
  const all = query.dimensions.map((_, i) => i)
  const entry: PlannedPart = {
    source: 'raw',
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
      const match = rows.find((r) => keyBy(r, all) === keyBy(mainRow, all))
      return Object.fromEntries(entryMetrics.map((m) => [m, match ? match[m] : null]))
    },
  }
  /** The visitors of a group (some of the dimensions) with or without the goal filters. */
  const visitorsOf = (metric: QueryApiMetric, groupBy: number[], goals: boolean): PlannedPart => ({
    source: 'raw',
    pagedInSql: false,
    compile: (q, range) => {
      const dimensions = groupBy.map((i) => q.dimensions[i] as string)
      return rawPartSql({ ...q, dimensions, filters: goals ? q.filters : withoutGoals(q.filters) }, range, {
        dimensions,
        metrics: ['visitors'],
        sessionPage,
        page: null,
      })
    },
    merge: (mainRow, rows) => {
      const key = JSON.stringify(groupBy.map((i) => mainRow[`d${i}`]))
      const match = rows.find((r) => JSON.stringify(groupBy.map((_, j) => r[`d${j}`])) === key)
      const whole = Number(match?.visitors ?? 0)
      return { [metric]: whole === 0 ? 0 : (100 * Number(mainRow.visitors ?? 0)) / whole }
    },
  })
  const nonGoal = all.filter((i) => query.dimensions[i] !== 'event:goal')
  const timeOnPage: PlannedPart = {
    source: 'raw',
    pagedInSql: false,
    compile: (q, range) => timeOnPageSql(q, range),
    merge: (mainRow, rows) => {
      const match = rows.find((r) => keyBy(r, all) === keyBy(mainRow, all))
      const value = match?.time_on_page
      return {
        time_on_page: value === null || value === undefined || Number.isNaN(Number(value)) ? null : value,
      }
    },
  }
  const rest = [
    ...(byEntryPage ? [entry] : []),
    ...(query.metrics.includes('time_on_page') ? [timeOnPage] : []),
    ...(query.metrics.includes('percentage') ? [visitorsOf('percentage', [], true)] : []),
    ...(query.metrics.includes('conversion_rate') ? [visitorsOf('conversion_rate', [], false)] : []),
    ...(query.metrics.includes('group_conversion_rate')
      ? [visitorsOf('group_conversion_rate', nonGoal, false)]
      : []),
  ]
  return { current: [main(pagedInSql), ...rest], compared: [main(false), ...rest] }
}

/** A metric this server does not serve yet: a 400 naming it. */
export const notServedYet = (name: string) =>
  badRequest(`Invalid query: metrics: ${name} is not served by this server yet`, {
    fieldErrors: { metrics: [`${name} is not served by this server yet`] },
    formErrors: [],
  })
