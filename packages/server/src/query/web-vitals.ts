/**
 * Core Web Vitals of a site: percentiles (p50, p75, p90) of LCP, CLS, INP, FCP and TTFB over the
 * performance events of the scope that pass the filters, and the share of measurements in each of
 * Google's bands (web.dev/articles/vitals): good when `value <= good`, poor when `value > poor`, needs
 * improvement in between. Overall, or per pathname or device type (`webVitalDimensions`).
 *
 * - A metric's samples are the performance events carrying it (NULL = not measured: a page left before
 *   any input has no INP), so metrics may have different sample counts.
 * - Percentiles interpolate linearly between the two nearest ranks (ClickHouse
 *   `quantilesExactInclusive`, numpy's default), then round to `decimals` of the thresholds table;
 *   `rating` is the band of the rounded p75.
 * The figures are the protocol's shapes: per metric a `WebVitalStats` (`samples`: performance events
 * carrying it; p50/p75/p90 in its unit, null without samples; `good`/`needs_improvement`/`poor`: shares
 * of the samples, fractions 0..1, all 0 without samples; `rating`: the `WebVitalRating` band of p75,
 * null without samples), all metrics a `WebVitals`, and per value of a dimension a `WebVitalsRow`
 * (`value`, `events`: its performance events, and every metric's figures).
 * Pipeline: plan (`ReportScope` + dimension) -> `compileWebVitals` -> `runReport` -> `toWebVitals`.
 */
import {
  type WebVitalGrouping,
  type WebVitalName,
  type WebVitalRating,
  type WebVitalStats,
  type WebVitals,
  type WebVitalsRow,
  type WebVitalThreshold,
  webVitalNames,
} from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { offsetOf } from './params.js'
import { filtersOf, type ReportScope, SCOPE_SQL, scopeOf } from './report-scope.js'
import { runReport } from './run-report.js'
import { sessionFilterRestriction } from './sessions-subquery.js'

/** The metrics, in the order reports show them (each a column of `events`, a `WebVitalName`). */
export { webVitalNames }

/**
 * Google's thresholds, the one table every figure and band uses. Each is the protocol's
 * `WebVitalThreshold`: `good` the largest good value (included), `poor` the largest value that needs
 * improvement (included; above it is poor), the unit (`ms`, or '' for the unitless CLS) and the
 * decimals kept in percentiles.
 */
export const webVitalThresholds = {
  /** Largest Contentful Paint, ms. */
  lcp: { good: 2500, poor: 4000, unit: 'ms', decimals: 0 },
  /** Interaction to Next Paint, ms. */
  inp: { good: 200, poor: 500, unit: 'ms', decimals: 0 },
  /** Cumulative Layout Shift, unitless. */
  cls: { good: 0.1, poor: 0.25, unit: '', decimals: 3 },
  /** First Contentful Paint, ms. */
  fcp: { good: 1800, poor: 3000, unit: 'ms', decimals: 0 },
  /** Time to First Byte, ms. */
  ttfb: { good: 800, poor: 1800, unit: 'ms', decimals: 0 },
} as const satisfies Record<WebVitalName, WebVitalThreshold>

/** What a report can be grouped by: parameter value -> column of `events`. */
export const webVitalDimensions = {
  pathname: 'pathname',
  device_type: 'device_type',
} as const satisfies Record<WebVitalGrouping, string>
/** One grouping. */
export type WebVitalDimension = keyof typeof webVitalDimensions

/** The band of `value` for `name` (`value <= good`: good; `value > poor`: poor). */
export function ratingOf(name: WebVitalName, value: number): WebVitalRating {
  const { good, poor } = webVitalThresholds[name]
  return value <= good ? 'good' : value > poor ? 'poor' : 'needs_improvement'
}

/** The four aggregates of one metric (thresholds are constants of this file, not request values). */
function metricColumns(name: WebVitalName): string {
  const { good, poor } = webVitalThresholds[name]
  return [
    `quantilesExactInclusive(0.5, 0.75, 0.9)(${name}) AS ${name}_quantiles`,
    `count(${name}) AS ${name}_samples`,
    `countIf(${name} <= ${good}) AS ${name}_good`,
    `countIf(${name} > ${poor}) AS ${name}_poor`,
  ].join(', ')
}

/**
 * One row of every metric's aggregates; with `by`, one row per value of the dimension, most
 * performance events first (then value ascending), paginated by `page`/`limit`.
 */
export function compileWebVitals(scope: ReportScope, by?: WebVitalDimension): CompiledQuery {
  const filters = filtersOf(scope)
  const where = [SCOPE_SQL, "type = 'performance'"]
  if (filters.event) where.push(`(${filters.event})`)
  const restriction = sessionFilterRestriction(filters)
  if (restriction) where.push(restriction)
  const metrics = webVitalNames.map(metricColumns).join(',\n  ')
  const params = { ...scopeOf(scope).params, ...filters.params }
  if (!by) {
    return { sql: `SELECT ${metrics}\nFROM events\nWHERE ${where.join(' AND ')}`, params }
  }
  return {
    sql: [
      `SELECT ${webVitalDimensions[by]} AS value, count() AS events, count() OVER () AS total_values,`,
      `  ${metrics}`,
      'FROM events',
      `WHERE ${where.join(' AND ')}`,
      'GROUP BY value',
      'ORDER BY events DESC, value ASC',
      'LIMIT {limit:UInt32} OFFSET {offset:UInt32}',
    ].join('\n'),
    params: { ...params, limit: scope.params.limit, offset: offsetOf(scope.params) },
  }
}

type Row = Record<string, unknown>

const round = (value: number, decimals: number) => {
  const factor = 10 ** decimals
  return Math.round(value * factor) / factor
}

/** One metric's figures from a result row. */
function statsOf(row: Row, name: WebVitalName): WebVitalStats {
  const samples = Number(row[`${name}_samples`] ?? 0)
  if (samples === 0) {
    return { samples, p50: null, p75: null, p90: null, good: 0, needs_improvement: 0, poor: 0, rating: null }
  }
  const quantiles = (row[`${name}_quantiles`] as unknown[] | undefined) ?? []
  const [p50, p75, p90] = [0, 1, 2].map((i) => round(Number(quantiles[i]), webVitalThresholds[name].decimals))
  const good = Number(row[`${name}_good`] ?? 0)
  const poor = Number(row[`${name}_poor`] ?? 0)
  return {
    samples,
    p50: p50 ?? null,
    p75: p75 ?? null,
    p90: p90 ?? null,
    good: good / samples,
    needs_improvement: (samples - good - poor) / samples,
    poor: poor / samples,
    rating: p75 === undefined ? null : ratingOf(name, p75),
  }
}

/** Shape the single row of an overall report. */
export function toWebVitals(row: Row | undefined): WebVitals {
  const metrics = {} as WebVitals
  for (const name of webVitalNames) metrics[name] = statsOf(row ?? {}, name)
  return metrics
}

/** The overall figures of the scope. */
export async function queryWebVitals(events: EventsStore, scope: ReportScope): Promise<WebVitals> {
  const [row] = await runReport<Row>(events, compileWebVitals(scope), 'web-vitals')
  return toWebVitals(row)
}

/** A page of values of `by` with their figures, and how many values there are in all. */
export async function queryWebVitalsBy(
  events: EventsStore,
  scope: ReportScope,
  by: WebVitalDimension,
): Promise<{ data: WebVitalsRow[]; total: number }> {
  const rows = await runReport<Row>(events, compileWebVitals(scope, by), 'web-vitals-breakdown')
  return {
    data: rows.map((row) => ({
      value: String(row.value ?? ''),
      events: Number(row.events),
      ...toWebVitals(row),
    })),
    total: rows.length > 0 ? Number(rows[0]?.total_values) : 0,
  }
}
