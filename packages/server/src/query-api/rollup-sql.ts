/**
 * The Query API's SQL over the rollups, for what they hold exactly: `visitors` and `visits`, without
 * filters, by the visit dimensions `session_dimension_hours` keeps (country, region, city, browser,
 * operating system, device, UTM source, medium and campaign) and the time buckets, over a range of
 * whole UTC hours (every whole-hour time zone; Asia/Kolkata reads raw events). One row per session
 * of the range (its hours inside it folded), its visit values those of its first hour (ties within
 * that hour broken by the value), counted in every bucket it has an hour in: the raw query's figures
 * (`raw-sql.ts`) unless a session changes country, browser... within its first hour, and but that a
 * session of only automatic events (web vitals, errors) counts here too. Visitors are counted
 * exactly (`uniqExact`), unlike the dashboard's rolled reports.
 */
import type { QueryApiMetric } from '@pathlight/protocol'
import type { CompiledQuery } from '../query/compiled-query.js'
import { toClickHouseTime } from '../storage/events/clickhouse-time.js'
import { SESSION_DIMENSION_COLUMNS } from '../storage/events/rollup-schema/session-dimension-hours.js'
import { countryNameSql, timeBucketSql, visitColumns, visitValue } from './dimension-sql.js'
import { createBinder } from './filter-sql.js'
import { firstDayOf, type RawPart } from './raw-sql.js'
import type { ReportQuery, ResolvedRange } from './report-query.js'

const HOUR_MS = 3_600_000
const ROLLED_METRICS: readonly QueryApiMetric[] = ['visitors', 'visits']
const rolledColumns = new Set<string>(SESSION_DIMENSION_COLUMNS)

/** Whether a dimension is a visit dimension the rollup keeps, or a time bucket. */
const rolledDimension = (dimension: string) =>
  dimension.startsWith('time') ||
  (dimension in visitColumns &&
    rolledColumns.has(visitColumns[dimension] as string) &&
    dimension !== 'visit:language')

/** Whether the rollups answer the main part: no filters, rolled metrics and dimensions, whole hours. */
export function rollupServes(query: ReportQuery, metrics: readonly QueryApiMetric[]): boolean {
  const wholeHours = (range: ResolvedRange | null) =>
    range === null || (range.from % HOUR_MS === 0 && range.to % HOUR_MS === 0)
  return (
    query.filters.length === 0 &&
    metrics.every((m) => ROLLED_METRICS.includes(m)) &&
    query.dimensions.every(rolledDimension) &&
    wholeHours(query.range) &&
    wholeHours(query.comparison)
  )
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
  const session = [
    'session_key',
    'any(visitor) AS visitor',
    ...columns.map((c) => `argMin(${c}, (hour, ${c})) AS s_${c}`),
    ...(time
      ? [`groupUniqArray(${timeBucketSql(query.timeBucket ?? 'day', query.timeZone, 'hour')}) AS buckets`]
      : []),
  ]
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
    `FROM (SELECT ${session.join(', ')} FROM session_dimension_hours`,
    `  WHERE site_id = ${binder.bind(query.siteId, 'UInt32')} AND hour >= ${binder.bind(toClickHouseTime(range.from), "DateTime64(3, 'UTC')")} AND hour < ${binder.bind(toClickHouseTime(range.to), "DateTime64(3, 'UTC')")}`,
    '  GROUP BY session_key)',
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
