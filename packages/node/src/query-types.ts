/**
 * The Query API's request and answer (`POST /api/v2/query`, Plausible's Stats API v2 shape), declared
 * here so the published types need nothing at install time (`test/protocol.test-d.ts` checks them
 * against the server's contract). See the server's docs/api.md "Query API".
 */

/** A condition operator. */
export type QueryOperator = 'is' | 'is_not' | 'contains' | 'contains_not' | 'matches' | 'matches_not'

/**
 * A filter: `[operator, dimension, values, {case_sensitive}?]`, `['and' | 'or', filters]`,
 * `['not', filter]`, or a saved segment `['is', 'segment', [id]]`.
 */
export type QueryFilter =
  | [QueryOperator, string, string[]]
  | [QueryOperator, string, string[], { case_sensitive?: boolean }]
  | ['is', 'segment', [number]]
  | ['and' | 'or', QueryFilter[]]
  | ['not', QueryFilter]
  | ['has_done' | 'has_not_done', QueryFilter]

/** Plausible's range names, or two ISO dates or date-times. */
export type QueryDateRange =
  | 'day'
  | '7d'
  | '28d'
  | '30d'
  | '91d'
  | 'month'
  | '6mo'
  | '12mo'
  | 'year'
  | 'all'
  | [string, string]

/** The body of `query()`; `site_id` defaults to the client's site. */
export interface QueryRequest {
  site_id?: number | string
  /**
   * e.g. `visitors`, `visits`, `pageviews`, `bounce_rate`, `scroll_depth`, `total_revenue`,
   * `revenue:EUR`, `engaged_time`, `lcp_p75`, `errors` (1 to 20).
   */
  metrics: string[]
  date_range: QueryDateRange
  /** e.g. `visit:country`, `event:page`, `event:props:plan`, `time:day`. */
  dimensions?: string[]
  filters?: QueryFilter[]
  order_by?: [string, 'asc' | 'desc'][]
  include?: {
    time_labels?: boolean
    total_rows?: boolean
    imports?: boolean
    comparisons?:
      | { mode: 'previous_period' | 'year_over_year'; match_day_of_week?: boolean }
      | { mode: 'custom'; date_range: [string, string]; match_day_of_week?: boolean }
  }
  pagination?: { limit?: number; offset?: number }
  /** An IANA time zone for the range and the buckets (default UTC). */
  time_zone?: string
}

/** One row: its dimension values and metrics in the request's orders, and the compared row. */
export interface QueryRow {
  dimensions: (string | number)[]
  metrics: (number | null)[]
  comparison?: { dimensions: (string | number)[]; metrics: (number | null)[]; change: (number | null)[] }
}

/** The answer of `query()`. */
export interface QueryAnswer {
  results: QueryRow[]
  meta: {
    time_labels?: string[]
    total_rows?: number
    time_zone: string
    imports_included: boolean
    /** With `include.imports`: why imported days were left out. */
    imports_skip_reason?: 'no_imported_data' | 'out_of_range' | 'unsupported_query' | 'unsupported_interval'
    imports_warning?: string
    /** With `total_revenue` or `average_revenue`: the one currency they are in. */
    revenue_currency?: string
    /** Per metric answered null for a reason (several currencies: `no_single_revenue_currency`). */
    metric_warnings?: Record<string, { code: string; warning: string }>
    comparison_date_range?: [string, string]
  }
  query: {
    site_id: string | number
    metrics: string[]
    date_range: [string, string]
    dimensions: string[]
    filters: unknown[]
    order_by: [string, 'asc' | 'desc'][]
    include: Record<string, unknown>
    pagination: { limit: number; offset: number }
    time_zone: string
  }
}
