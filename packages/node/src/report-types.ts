/**
 * The shapes of the client's reads (the v1 API's stats, annotations and custom properties): the options a read takes and
 * the answers it resolves with. Dates are calendar days `YYYY-MM-DD` in the read's time zone.
 */

/** What the figures are compared with (`compare`): see {@link StatsOptions.compare}. */
export type CompareMode = 'previous_period' | 'previous_year' | 'custom' | 'none'

/** A time-series bucket size (weeks start on Monday). */
export type SeriesBucket = 'hour' | 'day' | 'week' | 'month'

/** The range of a read; both days included. */
export interface ReportRange {
  /** First day; default 29 days before `endDate` (30 days in all). */
  startDate?: string | undefined
  /** Last day; default today in `timeZone`. */
  endDate?: string | undefined
  /** IANA zone name, e.g. `Europe/Berlin`; default UTC. */
  timeZone?: string | undefined
}

/** A report filter, as the `filters` parameter holds them (README "Query parameters" of the server). */
export interface ReportFilter {
  /**
   * e.g. `pathname`, `country`, `event_name`, or `properties.<key>`: the custom property `<key>` of
   * each event (its value in canonical text: a number in its shortest form, so 3, "3" and 3.0 match).
   */
  parameter: string
  /**
   * `equals`, `not_equals`, `contains`, `not_contains`, `starts_with` or `regex`; for a property also
   * `is_set` and `is_not_set` (with `value: []`).
   */
  type: string
  /** Alternatives: `equals` any of them, `not_equals` none of them. */
  value: readonly string[]
}

/** Options of {@link Pathlight.stats}. */
export interface StatsOptions extends ReportRange {
  /** Filters, combined with AND. */
  filters?: readonly ReportFilter[] | undefined
  /**
   * A saved segment's id (the server's `/api/sites/{siteId}/segments`): its filters apply, ANDed with
   * `filters`. An id that names no segment the key's user may use rejects with kind `not_found`.
   */
  segment?: string | undefined
  /** With it, `data.series` holds every bucket of the range. */
  bucket?: SeriesBucket | undefined
  /**
   * `previous_period` (the server's default: the days of equal length just before), `previous_year` (each
   * end a calendar year earlier; 29 February maps to 28 February), `custom` (`compareStartDate` ..
   * `compareEndDate`, both required then) or `none` (no `previous`, no `change`). Given, each series point
   * also carries `previous`, the compared range's bucket at its position.
   */
  compare?: CompareMode | undefined
  /** First compared day of `compare: 'custom'`. */
  compareStartDate?: string | undefined
  /** Last compared day of `compare: 'custom'` (included). */
  compareEndDate?: string | undefined
  /** Move the compared range onto the range's weekdays. */
  matchDayOfWeek?: boolean | undefined
}

/** Headline figures over a range. */
export interface Totals {
  visitors: number
  sessions: number
  pageviews: number
  /** Bounces / sessions, a fraction. */
  bounce_rate: number
  /** Average session duration, seconds. */
  session_duration: number
  pages_per_session: number
  /** Custom events. */
  events: number
}

/** Traffic in one time bucket; `time` is the bucket's start, ISO 8601 UTC. */
export interface SeriesPoint {
  time: string
  visitors: number
  sessions: number
  pageviews: number
  /** With `compare` given: the compared range's bucket at this position (null past its end). */
  previous?: Omit<SeriesPoint, 'previous'> | null | undefined
}

/** The answer of {@link Pathlight.stats}. */
export interface StatsAnswer {
  data: {
    current: Totals
    /** The figures of the compared range; absent with `compare: 'none'`. */
    previous?: Totals | undefined
    /** `(current - previous) / previous` per figure, null when the previous value is 0. */
    change?: Record<keyof Totals, number | null> | undefined
    series?: SeriesPoint[] | undefined
  }
  meta: {
    startDate: string
    endDate: string
    /** The compared range's days; absent with `compare: 'none'`. */
    previousStartDate?: string | undefined
    previousEndDate?: string | undefined
    timeZone: string
    bucket?: SeriesBucket | undefined
  }
}

/** A note on one day of the site's chart. */
export interface Annotation {
  id: number
  /** The day, `YYYY-MM-DD`. */
  date: string
  text: string
  /** ISO 8601 UTC. */
  createdAt: string
  updatedAt: string
}

/** The answer of {@link Pathlight.annotations}: by day, then as written. */
export interface AnnotationsAnswer {
  success: true
  data: Annotation[]
  meta: { total: number }
}

/** Options of {@link Pathlight.properties}: a range, filters and a page of the list. */
export interface PropertiesOptions extends ReportRange {
  /** Filters, combined with AND (`properties.<key>` ones too). */
  filters?: readonly ReportFilter[] | undefined
  /** A saved segment's id, as for {@link StatsOptions.segment}. */
  segment?: string | undefined
  /** Only the custom events of this name. */
  eventName?: string | undefined
  /** 1-based page; default 1. */
  page?: number | undefined
  /** Rows per page; default 50, at most 1000. */
  limit?: number | undefined
}

/** Options of {@link Pathlight.propertyBreakdown}. */
export interface PropertyBreakdownOptions extends PropertiesOptions {
  /** The key whose values are counted (a top-level key of the events' properties). */
  property: string
}

/** Paging of a list answer. */
export interface PageMeta {
  /** Rows in all pages. */
  total: number
  page: number
  pageSize: number
  totalPages: number
}

/** One key of {@link Pathlight.properties}: custom events carrying it and their distinct visitors. */
export interface PropertyKeyRow {
  key: string
  events: number
  visitors: number
}

/**
 * One value of {@link Pathlight.propertyBreakdown}, in canonical text: a string as it is, a number in
 * its shortest form (3, "3" and 3.0 are one row "3"), `true`/`false`/`null`, an object or array as its
 * JSON text.
 */
export interface PropertyValueRow {
  value: string
  events: number
  visitors: number
}

/** The answer of {@link Pathlight.properties}: most events first. */
export interface PropertiesAnswer {
  data: PropertyKeyRow[]
  meta: PageMeta
}

/** The answer of {@link Pathlight.propertyBreakdown}: most events first. */
export interface PropertyBreakdownAnswer {
  data: PropertyValueRow[]
  meta: PageMeta
}
