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
import {
  countryNameSql,
  timeBucketKeySql,
  timeBucketLabelSql,
  visitColumns,
  visitValue,
} from './dimension-sql.js'
import { createBinder } from './filter-sql.js'
import { firstDayOf, type RawPart } from './raw-sql.js'
import type { ReportQuery, ResolvedRange, TimeBucket } from './report-query.js'

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
 * The longest span, in hours from its first hour to its last, of a session the summaries answer
 * alone with a time bucket: a session of at most 12 hours can have hours in two buckets but not in a
 * third between them (a day, week or month lasts at least 22 hours in any whole-hour zone, clock
 * changes included), so its buckets are its first hour's and its last hour's. With hour buckets, 1.
 */
const spanOfTwoBuckets = (bucket: TimeBucket): number => (bucket === 'hour' ? 1 : 12)

/**
 * One row per session of the range and time bucket it has an hour in, from the session rollups
 * (`query/rollups/rolled-sessions.ts`): `visitor`, `s_<column>` (its first event's value of each of
 * `columns`) and, with `time`, `bucket` (`timeBucketKeySql`). A current summary wholly inside the
 * range answers as is when its hours fall in one bucket or, short enough (`spanOfTwoBuckets`), in
 * its first hour's and its last hour's; every other session (crossing the range's edge, pending, or
 * longer over several buckets) is grouped from `session_hours` over the range's hours. Placeholders
 * `site`, `from`, `to` (and `first_day` of week and month buckets).
 */
function sessionRowsSql(
  columns: readonly string[],
  time: { key: (column: string) => string; span: number } | null,
): string {
  const values = (fold: (c: string) => string) =>
    columns.map((c) => `${firstVisitValue(fold(`first_${c}`))} AS s_${c}`)
  const inRange = `site_id = {site:UInt32} AND start_hour >= {from:DateTime64(3, 'UTC')} AND start_hour < {to:DateTime64(3, 'UTC')} AND end_hour < {to:DateTime64(3, 'UTC')}`
  const short = time ? `dateDiff('hour', start_hour, end_hour) <= ${time.span}` : '1'
  const long = time ? [`SELECT session_key FROM session_summaries WHERE ${inRange} AND NOT (${short})`] : []
  const summaries = time
    ? [
        `SELECT ${['visitor', ...values((c) => c), 'bucket'].join(', ')} FROM session_summaries`,
        `ARRAY JOIN if(${time.key('start_hour')} = ${time.key('end_hour')}, [${time.key('start_hour')}], [${time.key('start_hour')}, ${time.key('end_hour')}]) AS bucket`,
        `WHERE ${inRange} AND ${short}`,
      ]
    : [`SELECT ${['visitor', ...values((c) => c)].join(', ')} FROM session_summaries`, `WHERE ${inRange}`]
  const grouped = [
    `SELECT ${['any(visitor) AS visitor', ...values((c) => `min(${c})`), ...(time ? [`groupUniqArray(${time.key('hour')}) AS buckets`] : [])].join(', ')}`,
    `FROM session_hours WHERE ${ROLLUP_SCOPE_SQL}`,
    `  AND session_key IN (${[EDGE_SESSIONS, PENDING_SESSIONS, ...long].join(' UNION ALL ')})`,
    'GROUP BY session_key',
  ]
  return [
    ...summaries,
    `  AND session_key NOT IN (${PENDING_SESSIONS})`,
    'UNION ALL',
    ...(time
      ? [
          `SELECT ${['visitor', ...columns.map((c) => `s_${c}`), 'bucket'].join(', ')} FROM (`,
          ...grouped,
          ') ARRAY JOIN buckets AS bucket',
        ]
      : grouped),
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
  const bucket = query.timeBucket ?? 'day'
  const keyOf = (column: string) => timeBucketKeySql(bucket, query.timeZone, column)
  let sessions: string
  if (sessionRollupServes(part.dimensions)) {
    binder.params.site = query.siteId
    binder.params.from = toClickHouseTime(range.from)
    binder.params.to = toClickHouseTime(range.to)
    sessions = sessionRowsSql(columns, time ? { key: keyOf, span: spanOfTwoBuckets(bucket) } : null)
  } else {
    const session = [
      'any(visitor) AS visitor',
      ...columns.map((c) => `argMin(${c}, (hour, ${c})) AS s_${c}`),
      ...(time ? [`groupUniqArray(${keyOf('hour')}) AS buckets`] : []),
    ]
    const folded = [
      `SELECT ${session.join(', ')} FROM session_dimension_hours`,
      `  WHERE site_id = ${binder.bind(query.siteId, 'UInt32')} AND hour >= ${binder.bind(toClickHouseTime(range.from), "DateTime64(3, 'UTC')")} AND hour < ${binder.bind(toClickHouseTime(range.to), "DateTime64(3, 'UTC')")}`,
      '  GROUP BY session_key',
    ]
    sessions = (
      time
        ? [
            `SELECT ${['visitor', ...columns.map((c) => `s_${c}`), 'bucket'].join(', ')} FROM (`,
            ...folded,
            ') ARRAY JOIN buckets AS bucket',
          ]
        : folded
    ).join('\n')
  }
  const dimensions = part.dimensions.map(
    (d, i) =>
      `${d.startsWith('time') ? timeBucketLabelSql(bucket, 'bucket') : d === 'visit:country_name' ? countryNameSql(binder) : visitValue(d)} AS d${i}`,
  )
  const d = part.dimensions.map((_, i) => `d${i}`)
  // Grouped by the bucket's key rather than its label, which is one to one with it.
  const groupBy = part.dimensions.map((dimension, i) => (dimension.startsWith('time') ? 'bucket' : `d${i}`))
  const metrics = part.metrics.map((m) =>
    m === 'visitors' ? 'uniqExact(visitor) AS visitors' : 'count() AS visits',
  )
  const lines = [
    `SELECT ${[...dimensions, ...metrics, 'count() AS matched_visits'].join(', ')}${part.page ? ', count() OVER () AS total_rows' : ''}`,
    `FROM (${sessions})`,
    ...(groupBy.length > 0 ? [`GROUP BY ${groupBy.join(', ')}`] : []),
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
