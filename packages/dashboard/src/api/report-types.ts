/**
 * The report resources as the dashboard receives them (README "HTTP API" and
 * `packages/server/src/http/reports.ts`). Counts are integers, rates fractions 0..1, durations
 * seconds, vitals milliseconds (CLS unitless), timestamps ISO 8601 UTC with milliseconds.
 */

/** Filter parameters the server knows (README "Query parameters"). */
export const filterParameters = [
  'pathname',
  'hostname',
  'referrer',
  'channel',
  'country',
  'region',
  'city',
  'browser',
  'operating_system',
  'device_type',
  'language',
  'event_name',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'entry_page',
  'exit_page',
] as const
export type FilterParameter = (typeof filterParameters)[number]

export const filterTypes = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'starts_with',
  'regex',
] as const
export type FilterType = (typeof filterTypes)[number]

/** One report filter; the values are alternatives. */
export interface ReportFilter {
  parameter: FilterParameter
  type: FilterType
  value: string[]
}

/** The common query parameters of every report. */
export interface ReportQuery {
  start_date: string
  end_date: string
  time_zone: string
  filters: ReportFilter[]
}

/** Bucket sizes of a time series. */
export const seriesBuckets = ['hour', 'day', 'week', 'month'] as const
export type SeriesBucket = (typeof seriesBuckets)[number]

/** Page metadata of paginated answers. */
export interface PageMeta {
  total: number
  page: number
  pageSize: number
  totalPages: number
}

/** `{data, meta}` of a paginated list. */
export interface Paged<T> {
  data: T[]
  meta: PageMeta
}

/** The headline figures of a period. */
export interface Totals {
  visitors: number
  sessions: number
  pageviews: number
  bounce_rate: number
  /** Mean seconds. */
  session_duration: number
  pages_per_session: number
  /** Custom events. */
  events: number
}

export interface SeriesPoint {
  /** Start of the bucket. */
  time: string
  visitors: number
  sessions: number
  pageviews: number
}

/** `GET .../stats`. `change` is relative (0.25 = +25 %), null when the previous value is 0. */
export interface Stats {
  current: Totals
  previous: Totals
  change: Record<keyof Totals, number | null>
  series?: SeriesPoint[]
}

/** `GET .../stats` meta: the range and the previous period (days, both included). */
export interface StatsMeta {
  startDate: string
  endDate: string
  previousStartDate: string
  previousEndDate: string
  timeZone: string
  bucket?: SeriesBucket
}

export interface BreakdownRow {
  value: string
  visitors: number
  sessions: number
  pageviews: number
}

export interface EventNameRow {
  name: string
  events: number
  sessions: number
  visitors: number
}

/** The spec's Session. */
export interface Session {
  session_id: string
  user_id: string
  country: string
  browser: string
  operating_system: string
  device_type: string
  entry_page: string
  exit_page: string
  pageviews: number
  /** Whole seconds. */
  session_duration: number
  session_start: string
  session_end: string
  referrer: string
  channel: string
}

export type EventType = 'pageview' | 'custom_event' | 'performance' | 'outbound' | 'error'

/** An event of the events list. */
export interface ListedEvent {
  eventId: string
  timestamp: string
  type: EventType
  sessionId: string
  userId: string
  hostname: string
  pathname: string
  querystring: string
  pageTitle: string
  referrer: string
  channel: string
  eventName: string
  properties: Record<string, unknown>
  country: string
  region: string
  city: string
  browser: string
  operatingSystem: string
  deviceType: string
  language: string
}

/** An event of a session's timeline. */
export interface SessionEvent extends ListedEvent {
  errorMessage: string
  lcp: number | null
  cls: number | null
  inp: number | null
  fcp: number | null
  ttfb: number | null
}

export const webVitalNames = ['lcp', 'inp', 'cls', 'fcp', 'ttfb'] as const
export type WebVitalName = (typeof webVitalNames)[number]
export type WebVitalRating = 'good' | 'needs_improvement' | 'poor'

export interface WebVitalStats {
  samples: number
  p50: number | null
  p75: number | null
  p90: number | null
  /** Shares of the samples, fractions 0..1. */
  good: number
  needs_improvement: number
  poor: number
  /** The band of p75. */
  rating: WebVitalRating | null
}

export type WebVitals = Record<WebVitalName, WebVitalStats>

export interface WebVitalsRow extends WebVitals {
  value: string
  events: number
}

export interface WebVitalThreshold {
  good: number
  poor: number
  unit: 'ms' | ''
  decimals: number
}

export type WebVitalThresholds = Record<WebVitalName, WebVitalThreshold>

export interface LiveVisitors {
  visitors: number
  from: string
  to: string
}

/** `GET .../summary`: what a reader (member, link holder, anyone for a public site) may know. */
export interface SiteSummary {
  siteId: number
  name: string
  domain: string
  access: 'member' | 'private_link' | 'public'
}

export type GoalConfig =
  | { goalType: 'path'; config: { pathPattern: string } }
  | {
      goalType: 'event'
      config: { eventName: string; eventPropertyKey?: string; eventPropertyValue?: string | number }
    }

/** What creating or editing a goal sends. */
export type GoalInput = { name: string } & GoalConfig

export type Goal = GoalInput & {
  goalId: number
  createdAt: string
  total_conversions: number
  total_sessions: number
  /** Fraction 0..1. */
  conversion_rate: number
}

/** JavaScript errors grouped by message. */
export interface ErrorName {
  value: string
  errorName: string
  count: number
  sessionCount: number
  /** Percent 0..100. */
  percentage: number
}

export interface ErrorEvent {
  timestamp: string
  session_id: string
  user_id: string
  pathname: string
  hostname: string
  browser: string
  browser_version: string
  operating_system: string
  device_type: string
  country: string
  message: string
  stack: string
  fileName: string
  lineNumber: number
  columnNumber: number
}

export interface ErrorBucket {
  time: string
  error_count: number
}
