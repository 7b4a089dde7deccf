/**
 * The state of a report view, kept in the URL's query string so a view can be reloaded, bookmarked
 * and shared: the period (a preset or custom days), the time zone, the filters, the chart's bucket and
 * metric, the list page, the sessions list's replay toggle, and the private link key of a shared view.
 *
 * | Parameter | Values | Default |
 * |---|---|---|
 * | `period` | `today`, `7d`, `30d`, `90d`, `month` (this month so far), `custom` | `30d` |
 * | `from`, `to` | YYYY-MM-DD (custom period, both included; at most `MAX_RANGE_DAYS` days) | |
 * | `tz` | IANA zone | the browser's |
 * | `filters` | JSON array of `{parameter, type, value}` (the API's, `properties.<key>` included) | none |
 * | `segment` | a saved segment's id (its filters apply besides `filters`) | none |
 * | `bucket` | `hour`, `day`, `week`, `month` | by range length |
 * | `metric` | `visitors`, `sessions`, `pageviews` (the chart) | `visitors` |
 * | `compare` | `previous_period`, `previous_year`, `custom`, `none` (the API's; given, the chart draws the compared series) | none: the API's default, no compared series |
 * | `compare_from`, `compare_to` | YYYY-MM-DD (custom comparison, both included; at most `MAX_RANGE_DAYS` days) | |
 * | `dow` | `1`: match the compared range's weekdays | |
 * | `event` | a custom event's name: its properties are open in the custom events card | the list of events |
 * | `property` | the property key chosen in that panel (with `event`) | the most frequent key |
 * | `page` | integer > 1 (lists) | 1 |
 * | `replay` | `1`: only sessions with a replay recording (sessions list) | all sessions |
 * | `key` | the private link key | none |
 *
 * Parsing never fails: an invalid value falls back to its default; a parameter given more than once
 * counts with its last value (the one a link appended last). What a day, a range, a filter and a
 * segment id may be is the protocol's (`@pathlight/protocol/query-rules`), so a view only ever asks
 * the API what it takes.
 */
import type { CompareMode, ReportFilter, SeriesBucket, SeriesMetric } from '@pathlight/protocol'
import { compareModes, seriesBuckets, seriesMetrics } from '@pathlight/protocol/enums'
import {
  isCalendarDay,
  MAX_RANGE_DAYS,
  MAX_SEGMENT_ID,
  toReportFilter,
} from '@pathlight/protocol/query-rules'
import { addDays, browserTimeZone, dayIn, daysBetween, isTimeZone } from './dates'

export const periods = ['today', '7d', '30d', '90d', 'month', 'custom'] as const
export type Period = (typeof periods)[number]

export const periodLabels: Record<Period, string> = {
  today: 'Today',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
  month: 'This month',
  custom: 'Custom range',
}

/** The figures the overview's chart can show, one at a time: the series' counts. */
export const chartMetrics = seriesMetrics
export type ChartMetric = SeriesMetric

/** A report view. Optional fields are absent when at their default. */
export interface ReportView {
  period: Period
  /** First and last day of a custom period. */
  from?: string
  to?: string
  tz?: string
  filters: ReportFilter[]
  /** A saved segment's id: the API ANDs its filters with `filters`. */
  segment?: number
  bucket?: SeriesBucket
  metric?: ChartMetric
  /** What the figures compare with, when chosen (the API's `compare`). */
  compare?: CompareMode
  /** First and last day of a custom comparison. */
  compareFrom?: string
  compareTo?: string
  /** Move the compared range onto the range's weekdays. */
  matchDayOfWeek?: true
  /** The custom event whose properties are open in the custom events card. */
  event?: string
  /** The property key chosen in that panel (only with `event`). */
  property?: string
  page?: number
  /** The sessions list shows only sessions with a session replay recording. */
  replay?: true
  key?: string
}

const DEFAULT_PERIOD: Period = '30d'

/**
 * Every query-string parameter a view owns, in the order {@link reportViewSearch} writes them. A view
 * change rewrites each of them (see {@link replaceView}); any other parameter belongs to the route.
 */
export const reportViewParameters = [
  'key',
  'period',
  'from',
  'to',
  'tz',
  'filters',
  'segment',
  'bucket',
  'metric',
  'compare',
  'compare_from',
  'compare_to',
  'dow',
  'event',
  'property',
  'page',
  'replay',
] as const
export type ReportViewParameter = (typeof reportViewParameters)[number]

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : undefined

/** The last value of `name` in `query` (null when absent). */
const lastOf = (query: URLSearchParams, name: ReportViewParameter): string | null =>
  query.getAll(name).at(-1) ?? null

/** The filters of a `filters` parameter, keeping only well-formed ones. */
export function parseFilters(text: string | null): ReportFilter[] {
  if (!text) return []
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return []
  }
  return toReportFilters(json)
}

/**
 * The filters of `json` (an array of `{parameter, type, value}`; anything else: none) that the API
 * takes, by the protocol's rules (`reportFilterProblem`); the others are left out.
 */
export function toReportFilters(json: unknown): ReportFilter[] {
  if (!Array.isArray(json)) return []
  return json.flatMap((item: unknown) => toReportFilter(item) ?? [])
}

/** Whether `from`..`to` are calendar days of a range the API takes (forwards, at most `MAX_RANGE_DAYS`). */
const isRange = (from: string, to: string): boolean =>
  isCalendarDay(from) &&
  isCalendarDay(to) &&
  daysBetween(from, to) >= 0 &&
  daysBetween(from, to) < MAX_RANGE_DAYS

/** The comparison of a view's query string; a custom one without valid days is left out. */
function parseComparison(query: URLSearchParams): Partial<ReportView> {
  const compare = oneOf(compareModes, lastOf(query, 'compare'))
  if (!compare) return {}
  const from = lastOf(query, 'compare_from') ?? ''
  const to = lastOf(query, 'compare_to') ?? ''
  if (compare === 'custom' && !isRange(from, to)) return {}
  return {
    compare,
    ...(compare === 'custom' ? { compareFrom: from, compareTo: to } : {}),
    ...(compare !== 'none' && lastOf(query, 'dow') === '1' ? { matchDayOfWeek: true as const } : {}),
  }
}

/** The view of a query string (with or without its '?'). */
export function parseReportView(search: string): ReportView {
  const query = new URLSearchParams(search)
  const view: ReportView = { period: oneOf(periods, lastOf(query, 'period')) ?? DEFAULT_PERIOD, filters: [] }
  if (view.period === 'custom') {
    const from = lastOf(query, 'from') ?? ''
    const to = lastOf(query, 'to') ?? ''
    if (isRange(from, to)) {
      view.from = from
      view.to = to
    } else view.period = DEFAULT_PERIOD
  }
  const tz = lastOf(query, 'tz')
  if (tz && isTimeZone(tz)) view.tz = tz
  view.filters = parseFilters(lastOf(query, 'filters'))
  const segment = Number(lastOf(query, 'segment'))
  if (Number.isInteger(segment) && segment > 0 && segment <= MAX_SEGMENT_ID) view.segment = segment
  const bucket = oneOf(seriesBuckets, lastOf(query, 'bucket'))
  if (bucket) view.bucket = bucket
  const metric = oneOf(chartMetrics, lastOf(query, 'metric'))
  if (metric && metric !== 'visitors') view.metric = metric
  Object.assign(view, parseComparison(query))
  const event = lastOf(query, 'event')
  if (event) {
    view.event = event
    const property = lastOf(query, 'property')
    if (property) view.property = property
  }
  const page = Number(lastOf(query, 'page'))
  if (Number.isInteger(page) && page > 1) view.page = page
  if (lastOf(query, 'replay') === '1') view.replay = true
  const key = lastOf(query, 'key')
  if (key) view.key = key
  return view
}

/** The query string of a view (no '?'; '' for the default view), parameters in a fixed order. */
export function reportViewSearch(view: ReportView): string {
  const query = new URLSearchParams()
  if (view.key) query.set('key', view.key)
  if (view.period !== DEFAULT_PERIOD) query.set('period', view.period)
  if (view.period === 'custom' && view.from && view.to) {
    query.set('from', view.from)
    query.set('to', view.to)
  }
  if (view.tz) query.set('tz', view.tz)
  if (view.filters.length > 0) query.set('filters', JSON.stringify(view.filters))
  if (view.segment) query.set('segment', String(view.segment))
  if (view.bucket) query.set('bucket', view.bucket)
  if (view.metric && view.metric !== 'visitors') query.set('metric', view.metric)
  if (view.compare) query.set('compare', view.compare)
  if (view.compare === 'custom' && view.compareFrom && view.compareTo) {
    query.set('compare_from', view.compareFrom)
    query.set('compare_to', view.compareTo)
  }
  if (view.compare && view.compare !== 'none' && view.matchDayOfWeek) query.set('dow', '1')
  if (view.event) {
    query.set('event', view.event)
    if (view.property) query.set('property', view.property)
  }
  if (view.page && view.page > 1) query.set('page', String(view.page))
  if (view.replay) query.set('replay', '1')
  return query.toString()
}

/**
 * The query string (no '?') of `search` (with or without its '?') with its view replaced by `next`:
 * every {@link reportViewParameters} entry removed, however often it appears, the route's own
 * parameters (an error's message) kept in their order, then `next`'s parameters, each at most once.
 */
export function replaceView(search: string, next: ReportView): string {
  const kept = new URLSearchParams(search)
  for (const name of reportViewParameters) kept.delete(name)
  return [kept.toString(), reportViewSearch(next)].filter(Boolean).join('&')
}

/** `path` with the view's query string appended (after any query `path` already has). */
export function withView(path: string, view: ReportView): string {
  const search = reportViewSearch(view)
  if (!search) return path
  return `${path}${path.includes('?') ? '&' : '?'}${search}`
}

/** The view's zone: its own, else the browser's. */
export const zoneOf = (view: ReportView): string => view.tz ?? browserTimeZone()

/** First and last day (both included) of the view's period, in its zone, at `nowMs`. */
export function rangeOf(view: ReportView, nowMs: number): { startDate: string; endDate: string } {
  const today = dayIn(nowMs, zoneOf(view))
  switch (view.period) {
    case 'today':
      return { startDate: today, endDate: today }
    case '7d':
      return { startDate: addDays(today, -6), endDate: today }
    case '30d':
      return { startDate: addDays(today, -29), endDate: today }
    case '90d':
      return { startDate: addDays(today, -89), endDate: today }
    case 'month':
      return { startDate: `${today.slice(0, 8)}01`, endDate: today }
    case 'custom':
      return view.from && view.to
        ? { startDate: view.from, endDate: view.to }
        : { startDate: addDays(today, -29), endDate: today }
  }
}

/** Buckets that make sense for a range of `days` days: hours up to a month, months from 2 months. */
export function bucketsFor(days: number): SeriesBucket[] {
  return seriesBuckets.filter(
    (b) => (b !== 'hour' || days <= 31) && (b !== 'week' || days >= 14) && (b !== 'month' || days >= 60),
  )
}

/** The view's bucket if it fits the range, else hour for one day, day up to 3 months, else week. */
export function bucketOf(view: ReportView, days: number): SeriesBucket {
  if (view.bucket && bucketsFor(days).includes(view.bucket)) return view.bucket
  return days <= 1 ? 'hour' : days <= 92 ? 'day' : 'week'
}

/**
 * The view with `filter` added. A filter of the same parameter and type is replaced (clicking
 * another country swaps the country), so the added value always takes effect. Goes back to page 1.
 */
export function withFilter(view: ReportView, filter: ReportFilter): ReportView {
  const kept = view.filters.filter((f) => f.parameter !== filter.parameter || f.type !== filter.type)
  return { ...view, filters: [...kept, filter], page: undefined }
}

/** The view without its `index`-th filter, back on page 1. */
export function withoutFilter(view: ReportView, index: number): ReportView {
  return { ...view, filters: view.filters.filter((_, i) => i !== index), page: undefined }
}
