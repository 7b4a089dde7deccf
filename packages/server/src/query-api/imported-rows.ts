/**
 * `include.imports` of the Query API: imported days (`imported_days`, Plausible's CSV export) added to
 * the own figures, under the dashboard's rule (`query/imported-totals.ts`): a day counts when it lies
 * in the range and before the day of the site's first own event in the query's time zone, so no day
 * is counted twice. Imported days are daily totals per one dimension, so they answer only:
 * - no filters (totals cannot be filtered by another dimension);
 * - a range of whole days, and a time dimension of days, weeks or months (not hours);
 * - at most one other dimension, among those the import holds (`IMPORTED_DIMENSIONS`);
 * - without another dimension: `visitors`, `visits`, `pageviews`, `events`, `bounce_rate`,
 *   `visit_duration`, `views_per_visit`; with one: `visitors`, `visits`, `pageviews` (`event:name`:
 *   `visitors`, `events`).
 * Anything else answers the own figures with a skip reason, as Plausible names them:
 * `no_imported_data`, `out_of_range`, `unsupported_interval`, `unsupported_query`.
 */
import type { QueryApiMetric } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import { IMPORTED_DAYS } from '../storage/events/rollup-schema/imported-days.js'
import { visitValue } from './dimension-sql.js'
import type { ReportQuery, ResolvedRange } from './report-query.js'

/** Why imported days were left out (Plausible's codes). */
export type ImportsSkipReason =
  | 'no_imported_data'
  | 'out_of_range'
  | 'unsupported_query'
  | 'unsupported_interval'

/** The sentence Plausible answers with a skip reason (none for the other two). */
export const importsWarnings: Partial<Record<ImportsSkipReason, string>> = {
  unsupported_query:
    'Imported stats are not included in the results because query parameters are not supported.',
  unsupported_interval:
    'Imported stats are not included because the time dimension (i.e. the interval) is too short.',
}

/** The Query API dimension -> the `imported_days.dimension` that holds it. */
export const IMPORTED_DIMENSIONS: Readonly<Record<string, string>> = {
  'event:page': 'pages',
  'event:name': 'custom_events',
  'visit:entry_page': 'entry_pages',
  'visit:exit_page': 'exit_pages',
  'visit:source': 'referrers',
  'visit:utm_source': 'utm_source',
  'visit:utm_medium': 'utm_medium',
  'visit:utm_campaign': 'utm_campaign',
  'visit:country': 'countries',
  'visit:device': 'device_types',
  'visit:browser': 'browsers',
  'visit:os': 'operating_systems',
}

const TOTAL_METRICS: QueryApiMetric[] = [
  'visitors',
  'visits',
  'pageviews',
  'events',
  'bounce_rate',
  'visit_duration',
  'views_per_visit',
]
const BREAKDOWN_METRICS: QueryApiMetric[] = ['visitors', 'visits', 'pageviews']
const EVENT_NAME_METRICS: QueryApiMetric[] = ['visitors', 'events']

/** The sums of the imported days of one row of the answer. */
export interface ImportedCounts {
  visitors: number
  visits: number
  pageviews: number
  bounces: number
  visit_duration: number
  events: number
}

/** One imported row: its dimension values (the query's order) and its sums. */
export interface ImportedRow {
  dimensions: string[]
  counts: ImportedCounts
}

/** The outcome for one range: the imported rows to add, or why there are none. */
export type ImportedOutcome = { rows: ImportedRow[] } | { skipReason: ImportsSkipReason }

/** Why a query cannot take imported days whatever the data, or null when it can. */
export function unsupportedReason(query: ReportQuery, range: ResolvedRange): ImportsSkipReason | null {
  if (query.timeBucket === 'hour') return 'unsupported_interval'
  if (query.filters.length > 0 || range.days === null) return 'unsupported_query'
  const others = query.dimensions.filter((d) => !d.startsWith('time'))
  if (others.length > 1) return 'unsupported_query'
  const [other] = others
  if (other !== undefined && !(other in IMPORTED_DIMENSIONS)) return 'unsupported_query'
  const allowed =
    other === undefined ? TOTAL_METRICS : other === 'event:name' ? EVENT_NAME_METRICS : BREAKDOWN_METRICS
  return query.metrics.every((m) => allowed.includes(m)) ? null : 'unsupported_query'
}

/**
 * The imported rows of a query over one range, grouped as the query's dimensions (values named as
 * the Query API names them: `Desktop`, `Mac`, `(not set)`), or the reason there are none.
 * @throws the events store's error
 */
export async function importedRows(
  events: EventsStore,
  query: ReportQuery,
  range: ResolvedRange,
): Promise<ImportedOutcome> {
  const [any] = await events.query<{ n: number | string }>(
    `SELECT count() AS n FROM ${IMPORTED_DAYS} WHERE site_id = {site:UInt32} AND dimension = 'visitors'`,
    { site: query.siteId },
    { label: 'query-api' },
  )
  if (!any || Number(any.n) === 0) return { skipReason: 'no_imported_data' }
  const span = range.days === null ? null : await spanBeforeOwn(events, query, range.days)
  if (span === null) {
    return { skipReason: range.days === null ? 'unsupported_query' : 'out_of_range' }
  }
  const unsupported = unsupportedReason(query, range)
  if (unsupported !== null) return { skipReason: unsupported }
  const other = query.dimensions.find((d) => !d.startsWith('time'))
  const params: Record<string, unknown> = { site: query.siteId, from: span.from, to: span.to }
  if (query.timeBucket === 'week' || query.timeBucket === 'month') params.first_day = span.from
  const columns = query.dimensions.map(
    (d, i) => `${d.startsWith('time') ? dayBucketSql(query) : valueSql(d)} AS d${i}`,
  )
  const d = query.dimensions.map((_, i) => `d${i}`)
  // Totals read the day rows (`visitors`) and the custom events' counts; a breakdown its own rows.
  const sql =
    other === undefined
      ? `SELECT ${[...columns, "sumIf(visitors, dimension = 'visitors') AS n_visitors", "sumIf(visits, dimension = 'visitors') AS n_visits", "sumIf(pageviews, dimension = 'visitors') AS n_pageviews", "sumIf(bounces, dimension = 'visitors') AS n_bounces", "sumIf(visit_duration, dimension = 'visitors') AS n_visit_duration", "sumIf(pageviews, dimension = 'visitors') + sumIf(events, dimension = 'custom_events') AS n_events"].join(', ')}
FROM ${IMPORTED_DAYS}
WHERE site_id = {site:UInt32} AND dimension IN ('visitors', 'custom_events') AND day >= toDate({from:String}) AND day <= toDate({to:String})
${d.length > 0 ? `GROUP BY ${d.join(', ')}` : ''}`
      : `SELECT ${[...columns, 'sum(visitors) AS n_visitors', 'sum(visits) AS n_visits', 'sum(pageviews) AS n_pageviews', 'sum(bounces) AS n_bounces', 'sum(visit_duration) AS n_visit_duration', 'sum(events) AS n_events'].join(', ')}
FROM ${IMPORTED_DAYS}
WHERE site_id = {site:UInt32} AND dimension = {dimension:String} AND day >= toDate({from:String}) AND day <= toDate({to:String})
GROUP BY ${d.join(', ')}`
  if (other !== undefined) params.dimension = IMPORTED_DIMENSIONS[other]
  const rows = await events.query<Record<string, unknown>>(sql, params, { label: 'query-api' })
  return {
    rows: rows
      .map((row) => ({
        dimensions: d.map((name) => String(row[name] ?? '')),
        counts: {
          visitors: Number(row.n_visitors ?? 0),
          visits: Number(row.n_visits ?? 0),
          pageviews: Number(row.n_pageviews ?? 0),
          bounces: Number(row.n_bounces ?? 0),
          visit_duration: Number(row.n_visit_duration ?? 0),
          events: Number(row.n_events ?? 0),
        },
      }))
      .filter((row) => Object.values(row.counts).some((n) => n > 0)),
  }
}

/** The imported days of `days` before the site's first own event (in the zone), or null for none. */
async function spanBeforeOwn(
  events: EventsStore,
  query: ReportQuery,
  days: { firstDay: string; lastDay: string },
): Promise<{ from: string; to: string } | null> {
  const [row] = await events.query<{ n: number | string; own: string | null }>(
    `SELECT count() AS n, (SELECT if(count() = 0, NULL, toString(toDate(min(timestamp), {tz:String})))
       FROM events WHERE site_id = {site:UInt32}) AS own
     FROM ${IMPORTED_DAYS}
     WHERE site_id = {site:UInt32} AND dimension = 'visitors' AND day >= toDate({from:String}) AND day <= toDate({to:String})`,
    { site: query.siteId, from: days.firstDay, to: days.lastDay, tz: query.timeZone },
    { label: 'query-api' },
  )
  if (!row || Number(row.n) === 0) return null
  if (row.own === null || row.own === undefined) return { from: days.firstDay, to: days.lastDay }
  const beforeOwn = new Date(Date.parse(`${row.own}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
  if (beforeOwn < days.firstDay) return null
  return { from: days.firstDay, to: beforeOwn < days.lastDay ? beforeOwn : days.lastDay }
}

/** A time bucket over `day` (a calendar day: the zone is the source's, taken as the query's). */
function dayBucketSql(query: ReportQuery): string {
  switch (query.timeBucket) {
    case 'week':
      return 'toString(greatest(toMonday(day), {first_day:Date}))'
    case 'month':
      return 'toString(greatest(toStartOfMonth(day), {first_day:Date}))'
    default:
      return 'toString(day)'
  }
}

/**
 * An imported value as the Query API names the dimension's value: the visit dimensions through the
 * same naming as own sessions (`visitValue`, its session column read as `value`), pages and event
 * names as stored.
 */
function valueSql(dimension: string): string {
  if (dimension === 'event:page' || dimension === 'event:name') return 'value'
  return visitValue(dimension).replace(/\bs_[a-z_]+\b/g, 'value')
}

/** Own figures of one row: metrics in the query's order, and the row's visits (the rates' weight). */
export interface OwnRow {
  dimensions: string[]
  metrics: (number | null)[]
  visits: number
}

/**
 * Own rows with imported rows added, by equal dimension values: counts summed; `bounce_rate`,
 * `visit_duration` and `views_per_visit` weighted by visits (the imported days' bounces, seconds and
 * pageviews over their visits). Rows only one side has keep that side's figures.
 */
export function mergeImportedRows(
  metrics: readonly QueryApiMetric[],
  own: readonly OwnRow[],
  imported: readonly ImportedRow[],
): OwnRow[] {
  const byKey = new Map(own.map((row) => [JSON.stringify(row.dimensions), { ...row }]))
  for (const row of imported) {
    const key = JSON.stringify(row.dimensions)
    const mine = byKey.get(key) ?? {
      dimensions: row.dimensions,
      metrics: metrics.map(() => 0),
      visits: 0,
    }
    const visits = mine.visits + row.counts.visits
    const weighted = (ownMean: number | null, importedSum: number) =>
      visits === 0 ? 0 : ((ownMean ?? 0) * mine.visits + importedSum) / visits
    const figures = metrics.map((metric, i) => {
      const value = mine.metrics[i] ?? 0
      switch (metric) {
        case 'bounce_rate':
          return weighted(value, 100 * row.counts.bounces)
        case 'visit_duration':
          return weighted(value, row.counts.visit_duration)
        case 'views_per_visit':
          return weighted(value, row.counts.pageviews)
        default:
          return value + (row.counts[metric as keyof ImportedCounts] ?? 0)
      }
    })
    byKey.set(key, { dimensions: row.dimensions, metrics: figures, visits })
  }
  return [...byKey.values()]
}
