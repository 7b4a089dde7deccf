/**
 * The Query API's SQL over raw events: each event of the range joined with its session's row (the
 * session's first-event values, entry and exit page, events and duration, over its events in the
 * range), grouped first by the dimensions and the session, then by the dimensions alone.
 *
 * Which rows count (Plausible's semantics, docs/api.md "Query API"):
 * - Plausible's events are pageviews, custom events and outbound-link clicks; `events`, `pageviews`,
 *   `visitors` and `visits` count those that pass the filter tree (a visit condition reads the
 *   session's row, so it keeps or drops a session whole; an event condition the event);
 * - `bounce_rate`, `visit_duration` and `views_per_visit` are over the sessions with a passing event,
 *   where a condition on `event:page` reads the entry page; a bounce is a session of one event;
 * - `errors` and the web vitals count the error and performance events that pass the tree.
 * Figures come unrounded; `shape-answer.ts` rounds them.
 */
import type { QueryApiMetric } from '@pathlight/protocol'
import type { CompiledQuery } from '../query/compiled-query.js'
import { EVENT_ORDER_KEY } from '../query/metrics.js'
import { dayIn } from '../query/zoned-time.js'
import { toClickHouseTime } from '../storage/events/clickhouse-time.js'
import { countryNameSql, dimensionSql, timeBucketSql, visitColumns } from './dimension-sql.js'
import { type Binder, createBinder, filterSql, goalSql } from './filter-sql.js'
import type { FilterNode, ReportQuery, ResolvedRange } from './report-query.js'

/** Plausible's events among Pathlight's event types. */
const PLAUSIBLE_EVENT = "type IN ('pageview', 'custom_event', 'outbound')"

/** The web vitals metrics and their columns. */
export const vitalColumns: Partial<Record<QueryApiMetric, string>> = {
  lcp_p75: 'lcp',
  inp_p75: 'inp',
  cls_p75: 'cls',
  fcp_p75: 'fcp',
  ttfb_p75: 'ttfb',
}

/** The metrics this SQL computes (the rest come from several of its answers: `percentage`). */
const sqlMetrics = {
  visitors: 'uniqExactIf(visitor, sm)',
  visits: 'countIf(sm)',
  pageviews: 'sum(pv)',
  events: 'sum(ev)',
  views_per_visit: 'if(countIf(sm) = 0, 0, sum(pv) / countIf(sm))',
  bounce_rate: 'if(countIf(sms) = 0, 0, 100 * countIf(sms AND s_events = 1) / countIf(sms))',
  visit_duration: 'if(countIf(sms) = 0, 0, sumIf(s_duration, sms) / countIf(sms))',
  errors: 'sum(err)',
} as const

const SESSION_COLUMNS = [...new Set(Object.values(visitColumns))].filter(
  (c) => c !== 'entry_page' && c !== 'exit_page',
)

/** Each column of the per-session row (`s_<name>`), over the session's events in the range. */
const sessionRowColumns: Record<string, string> = {
  ...Object.fromEntries(SESSION_COLUMNS.map((c) => [c, `argMin(${c}, ${EVENT_ORDER_KEY})`])),
  entry_page: `argMinIf(pathname, ${EVENT_ORDER_KEY}, type = 'pageview')`,
  exit_page: `argMaxIf(pathname, ${EVENT_ORDER_KEY}, type = 'pageview')`,
  events: `countIf(${PLAUSIBLE_EVENT})`,
  duration: 'intDiv(toUnixTimestamp64Milli(max(timestamp)) - toUnixTimestamp64Milli(min(timestamp)), 1000)',
}

/** The per-session row's columns some SQL reads: each `s_<name>` it names. */
const sessionColumnsIn = (sql: string): string[] =>
  Object.keys(sessionRowColumns).filter((name) => new RegExp(`\\bs_${name}\\b`).test(sql))

/**
 * The per-session row of the join (`session_key` and `s_<name>`), over the session's events in the
 * range: every column, or only `names` (each a `sessionRowColumns` key; the argMins of the rest are
 * most of the row's cost).
 */
export const sessionRowSql = (scope: string, names: readonly string[] = Object.keys(sessionRowColumns)) =>
  [
    `SELECT ${['cityHash64(session_id) AS session_key', ...names.map((n) => `${sessionRowColumns[n]} AS s_${n}`)].join(',\n  ')}`,
    `FROM events WHERE ${scope}`,
    'GROUP BY session_key',
  ].join('\n')

/** A query's part: which dimensions it groups by and which metrics it computes. */
export interface RawPart {
  dimensions: string[]
  metrics: QueryApiMetric[]
  /** Read `event:page` as the entry page in conditions of the session metrics. */
  sessionPage: boolean
  /** ORDER BY and LIMIT/OFFSET in SQL (with `total_rows`), or all rows (ordered by the caller). */
  page: { orderBy: [string, 'asc' | 'desc'][]; limit: number; offset: number } | null
  /** Keep only rows whose dimension values are among these (by position); none: all. */
  only?: { index: number; values: string[] }
}

const all = (nodes: readonly FilterNode[], binder: Binder, rewrite?: Record<string, string>) =>
  nodes.length === 0 ? '1' : nodes.map((n) => filterSql(n, binder, rewrite)).join(' AND ')

/**
 * The SQL of one part over one range. Rows: `d0`, `d1`, ... (the dimensions' values, text), one
 * column per metric by its name (vitals as `<name>`), and `total_rows` when paged in SQL.
 */
export function rawPartSql(query: ReportQuery, range: ResolvedRange, part: RawPart): CompiledQuery {
  const binder = createBinder(query.goals)
  const scope = scopeSql(query, range, binder)
  const tree = all(query.filters, binder)
  const sessionTree = part.sessionPage
    ? all(query.filters, binder, { 'event:page': 'visit:entry_page' })
    : tree
  const dimensions = dimensionsSqlOf(query, part.dimensions, binder)
  const vitals = part.metrics.filter((m) => m in vitalColumns)
  const wantsErrors = part.metrics.includes('errors')
  const matched = `(${PLAUSIBLE_EVENT} AND ${tree})`
  const sessionMatched = `(${PLAUSIBLE_EVENT} AND ${sessionTree})`
  const others = [
    ...(wantsErrors ? [`(type = 'error' AND ${tree})`] : []),
    ...(vitals.length > 0 ? [`(type = 'performance' AND ${tree})`] : []),
  ]
  const d = dimensions.map((_, i) => `d${i}`)
  const metricSql = part.metrics.flatMap((m) => {
    if (m in sqlMetrics) return [`${sqlMetrics[m as keyof typeof sqlMetrics]} AS \`${m}\``]
    if (m in vitalColumns)
      return [
        `quantilesExactInclusiveArray(0.75)(v_${m})[1] AS \`${m}\``,
        `sum(length(v_${m})) AS \`n_${m}\``,
      ]
    return []
  })
  // The session's figures the metrics read, carried through the first grouping.
  const carried = sessionColumnsIn(metricSql.join('\n')).filter((n) => n === 'events' || n === 'duration')
  const perSession = [
    'any(user_id) AS visitor',
    `max(${matched}) AS sm`,
    `max(${sessionMatched}) AS sms`,
    `countIf(type = 'pageview' AND ${matched}) AS pv`,
    `countIf(${matched}) AS ev`,
    `countIf(type = 'error' AND ${tree}) AS err`,
    ...vitals.map((m) => {
      const column = vitalColumns[m] as string
      return `groupArrayIf(assumeNotNull(${column}), type = 'performance' AND ${column} IS NOT NULL AND ${tree}) AS v_${m}`
    }),
    ...carried.map((n) => `any(s_${n}) AS s_${n}`),
  ]
  // Only the session row's columns this part reads (the dimensions, the filters, the carried figures).
  const sessionRow = sessionRowSql(scope, sessionColumnsIn([...dimensions, ...perSession].join('\n')))
  const inner = [
    `SELECT ${[...dimensions.map((sql, i) => `toString(${sql}) AS d${i}`), 's.session_key AS sk'].join(', ')},`,
    `  ${perSession.join(',\n  ')}`,
    `FROM events INNER JOIN (${sessionRow}) AS s ON s.session_key = cityHash64(events.session_id)`,
    `WHERE ${scope} AND (${[matched, ...(part.sessionPage ? [sessionMatched] : []), ...others].join(' OR ')})`,
    `GROUP BY ${[...d, 'sk'].join(', ')}`,
  ].join('\n')
  const having = part.only
    ? `HAVING d${part.only.index} IN ${binder.bind(part.only.values, 'Array(String)')}`
    : ''
  const lines = [
    `SELECT ${[...d, ...metricSql, 'countIf(sm) AS matched_visits'].join(', ')}${part.page ? ', count() OVER () AS total_rows' : ''}`,
    `FROM (${inner})`,
    ...(d.length > 0 ? [`GROUP BY ${d.join(', ')}`] : []),
    having,
  ]
  if (part.page) {
    const order = part.page.orderBy.map(([name, direction]) => {
      const index = part.dimensions.indexOf(name)
      return `${index >= 0 ? `d${index}` : `\`${name}\``} ${direction.toUpperCase()}`
    })
    const rest = d.filter((name) => !order.some((o) => o.startsWith(`${name} `)))
    lines.push(`ORDER BY ${[...order, ...rest.map((name) => `${name} ASC`)].join(', ') || '1'}`)
    lines.push(
      `LIMIT ${binder.bind(part.page.limit, 'UInt32')} OFFSET ${binder.bind(part.page.offset, 'UInt32')}`,
    )
  }
  return { sql: lines.filter((l) => l !== '').join('\n'), params: binder.params }
}

/** The range's first day in the zone. */
export const firstDayOf = (range: ResolvedRange, timeZone: string): string =>
  range.days?.firstDay ?? dayIn(range.from, timeZone)

/** `event:goal` as a dimension: one row per goal an event completes (none: the event is left out). */
function goalDimensionSql(binder: Binder): string {
  if (binder.goals.length === 0) return "arrayJoin(CAST([], 'Array(String)'))"
  const names = binder.goals.map(
    (goal, i) => `if(${goalSql(binder, i)}, ${binder.bind(goal.name, 'String')}, '')`,
  )
  return `arrayJoin(arrayFilter(x -> x != '', [${names.join(', ')}]))`
}

/** The condition on `events` of a range (and the first day a week or month bucket starts at). */
export function scopeSql(query: ReportQuery, range: ResolvedRange, binder: Binder): string {
  if (query.timeBucket === 'week' || query.timeBucket === 'month') {
    binder.params.first_day = firstDayOf(range, query.timeZone)
  }
  binder.scope = `site_id = ${binder.bind(query.siteId, 'UInt32')} AND timestamp >= ${binder.bind(toClickHouseTime(range.from), "DateTime64(3, 'UTC')")} AND timestamp < ${binder.bind(toClickHouseTime(range.to), "DateTime64(3, 'UTC')")}`
  return binder.scope
}

/** The SQL of each dimension over a joined row. */
export function dimensionsSqlOf(query: ReportQuery, dimensions: readonly string[], binder: Binder): string[] {
  return dimensions.map((dimension) => {
    if (dimension.startsWith('time')) return timeBucketSql(query.timeBucket ?? 'day', query.timeZone)
    if (dimension === 'event:goal') return goalDimensionSql(binder)
    if (dimension === 'visit:country_name') return countryNameSql(binder)
    const key = dimension.startsWith('event:props:')
      ? binder.bind(dimension.slice('event:props:'.length), 'String')
      : undefined
    return dimensionSql(dimension, { key })
  })
}
