/**
 * The Query API's SQL over the rollups, for what they hold exactly: `visitors` and `visits`, without
 * filters, by visit dimensions the rollups keep and the time buckets, over a range of whole UTC hours
 * (every whole-hour time zone; Asia/Kolkata reads raw events). One row per session of the range (its
 * hours inside it), counted in every bucket it has an hour in, from one of two sources:
 * - country and UTM source, medium and campaign (alone, together, or no visit dimension at all): the
 *   session rollups (`session_summaries`, `session_hours`, migration 018), which keep each session's
 *   first event's value as the raw query takes it (`argMin` in `EVENT_ORDER`);
 * - region, city, browser, operating system, device: `session_dimension_hours`, folded by session, the
 *   values those of its first hour (ties within that hour broken by the value), the raw query's unless
 *   a session changes browser, city... within its first hour.
 * Either way a session of only automatic events (web vitals, errors) counts here too, unlike in the
 * raw query (`raw-sql.ts`). Visitors are counted exactly (`uniqExact`), unlike the dashboard's rolled
 * reports.
 */
import type { QueryApiMetric } from '@pathlight/protocol'
import type { CompiledQuery } from '../query/compiled-query.js'
import { rolledWindow } from '../query/plan-report.js'
import { EDGE_SESSIONS, PENDING_SESSIONS, ROLLUP_SCOPE_SQL } from '../query/rollups/rolled-sessions.js'
import { toClickHouseTime } from '../storage/events/clickhouse-time.js'
import { SESSION_DIMENSION_COLUMNS } from '../storage/events/rollup-schema/session-dimension-hours.js'
import { FIRST_VISIT_COLUMNS, firstVisitValue } from '../storage/events/rollup-schema/session-hours.js'
import { countryNameSql, timeBucketSql, visitColumns, visitValue } from './dimension-sql.js'
import { createBinder } from './filter-sql.js'
import { firstDayOf, type RawPart } from './raw-sql.js'
import type { ReportQuery, ResolvedRange } from './report-query.js'

const ROLLED_METRICS: readonly QueryApiMetric[] = ['visitors', 'visits']
const rolledColumns = new Set<string>(SESSION_DIMENSION_COLUMNS)

/** Whether a dimension is a visit dimension the rollup keeps, or a time bucket. */
const rolledDimension = (dimension: string) =>
  dimension.startsWith('time') ||
  (dimension in visitColumns &&
    rolledColumns.has(visitColumns[dimension] as string) &&
    dimension !== 'visit:language')

/**
 * Whether the rollups answer the main part: no filters, rolled metrics and dimensions, and the
 * ranges as the reports' planner takes them (`rolledWindow` of `query/plan-report.ts`: whole UTC hours).
 */
export function rollupServes(
  query: ReportQuery,
  metrics: readonly QueryApiMetric[],
  options: { rollups?: boolean } = {},
): boolean {
  const ranges = [query.range, ...(query.comparison ? [query.comparison] : [])]
  return (
    rolledWindow({ rollups: options.rollups, ranges }) === null &&
    query.filters.length === 0 &&
    metrics.every((m) => ROLLED_METRICS.includes(m)) &&
    query.dimensions.every(rolledDimension)
  )
}

/** The visit columns the session rollups keep as their first event's text (migration 018). */
const firstVisitColumns = new Set<string>(FIRST_VISIT_COLUMNS)

/**
 * Whether the part's visit dimensions are all kept by the session rollups as the session's first
 * value (country, UTM source, medium, campaign), so that it reads whole sessions from
 * `session_summaries` rather than folding `session_dimension_hours`.
 */
export const sessionRollupServes = (dimensions: readonly string[]): boolean =>
  dimensions.every((d) => d.startsWith('time') || firstVisitColumns.has(visitColumns[d] as string))

/**
 * One row per session of the range from the session rollups (`query/rollups/rolled-sessions.ts`):
 * `session_key`, `visitor`, `s_<column>` (its first event's value of each of `columns`) and, with
 * `bucket`, `buckets` (the time buckets it has an hour in). A current summary wholly inside the range
 * answers as is when its first and last hour share a bucket; every other session (crossing the range's
 * edge, pending, or over several buckets) is grouped from `session_hours` over the range's hours.
 * Placeholders `site`, `from`, `to` (and `first_day` of week and month buckets).
 */
function sessionRowsSql(columns: readonly string[], bucket: ((column: string) => string) | null): string {
  const values = (fold: (c: string) => string) =>
    columns.map((c) => `${firstVisitValue(fold(`first_${c}`))} AS s_${c}`)
  const oneBucket = bucket ? `${bucket('start_hour')} = ${bucket('end_hour')}` : '1'
  const inRange = `site_id = {site:UInt32} AND start_hour >= {from:DateTime64(3, 'UTC')} AND start_hour < {to:DateTime64(3, 'UTC')} AND end_hour < {to:DateTime64(3, 'UTC')}`
  const spread = bucket
    ? [`SELECT session_key FROM session_summaries WHERE ${inRange} AND NOT (${oneBucket})`]
    : []
  return [
    `SELECT ${['session_key', 'visitor', ...values((c) => c), ...(bucket ? [`[${bucket('start_hour')}] AS buckets`] : [])].join(', ')}`,
    `FROM session_summaries WHERE ${inRange} AND ${oneBucket}`,
    `  AND session_key NOT IN (${PENDING_SESSIONS})`,
    'UNION ALL',
    `SELECT ${['session_key', 'any(visitor) AS visitor', ...values((c) => `min(${c})`), ...(bucket ? [`groupUniqArray(${bucket('hour')}) AS buckets`] : [])].join(', ')}`,
    `FROM session_hours WHERE ${ROLLUP_SCOPE_SQL}`,
    `  AND session_key IN (${[EDGE_SESSIONS, PENDING_SESSIONS, ...spread].join(' UNION ALL ')})`,
    'GROUP BY session_key',
  ].join('\n')
}

/** The SQL of a main part over the rollups; the same rows and columns as `rawPartSql`. */
export function rollupPartSql(query: ReportQuery, range: ResolvedRange, part: RawPart): CompiledQuery {
  const binder = createBinder()
  if (query.timeBucket === 'week' || query.timeBucket === 'month') {
    binder.params.first_day = firstDayOf(range, query.timeZone)
  }
  const time = part.dimensions.find((d) => d.startsWith('time'))
  const columns = [
    ...new Set(part.dimensions.filter((d) => !d.startsWith('time')).map((d) => visitColumns[d] as string)),
  ]
  const bucketOf = (column: string) => timeBucketSql(query.timeBucket ?? 'day', query.timeZone, column)
  let sessions: string
  if (sessionRollupServes(part.dimensions)) {
    binder.params.site = query.siteId
    binder.params.from = toClickHouseTime(range.from)
    binder.params.to = toClickHouseTime(range.to)
    sessions = sessionRowsSql(columns, time ? bucketOf : null)
  } else {
    const session = [
      'session_key',
      'any(visitor) AS visitor',
      ...columns.map((c) => `argMin(${c}, (hour, ${c})) AS s_${c}`),
      ...(time ? [`groupUniqArray(${bucketOf('hour')}) AS buckets`] : []),
    ]
    sessions = [
      `SELECT ${session.join(', ')} FROM session_dimension_hours`,
      `  WHERE site_id = ${binder.bind(query.siteId, 'UInt32')} AND hour >= ${binder.bind(toClickHouseTime(range.from), "DateTime64(3, 'UTC')")} AND hour < ${binder.bind(toClickHouseTime(range.to), "DateTime64(3, 'UTC')")}`,
      '  GROUP BY session_key',
    ].join('\n')
  }
  const dimensions = part.dimensions.map(
    (d, i) =>
      `${d.startsWith('time') ? 'bucket' : d === 'visit:country_name' ? countryNameSql(binder) : visitValue(d)} AS d${i}`,
  )
  const d = part.dimensions.map((_, i) => `d${i}`)
  const metrics = part.metrics.map((m) =>
    m === 'visitors' ? 'uniqExact(visitor) AS visitors' : 'count() AS visits',
  )
  const lines = [
    `SELECT ${[...dimensions, ...metrics, 'count() AS matched_visits'].join(', ')}${part.page ? ', count() OVER () AS total_rows' : ''}`,
    `FROM (${sessions})`,
    ...(time ? ['ARRAY JOIN buckets AS bucket'] : []),
    ...(d.length > 0 ? [`GROUP BY ${d.join(', ')}`] : []),
  ]
  if (part.page) {
    const order = part.page.orderBy.map(([name, direction]) => {
      const index = part.dimensions.indexOf(name)
      return `${index >= 0 ? `d${index}` : name} ${direction.toUpperCase()}`
    })
    const rest = d.filter((name) => !order.some((o) => o.startsWith(`${name} `)))
    lines.push(`ORDER BY ${[...order, ...rest.map((name) => `${name} ASC`)].join(', ') || '1'}`)
    lines.push(
      `LIMIT ${binder.bind(part.page.limit, 'UInt32')} OFFSET ${binder.bind(part.page.offset, 'UInt32')}`,
    )
  }
  return { sql: lines.join('\n'), params: binder.params }
}
