/**
 * The answer of `POST /api/v2/query`, as Plausible's Stats API v2 answers:
 * `{results: [{dimensions, metrics, comparison?}], meta, query}`. `dimensions` holds each row's
 * values in the order of the request's dimensions (text; a time bucket as `YYYY-MM-DD` or
 * `YYYY-MM-DD hh:mm:ss` in the time zone), `metrics` its figures in the order of the request's
 * metrics (null where a figure has no value, such as a web vital without measurements). With
 * `include.comparisons`, `comparison` holds the same row over the compared range and `change` per
 * metric (a whole percentage; 100 when the previous value is 0 and the current one is not; for
 * `bounce_rate` and the rates, the difference in points). `query` is the request as run: its
 * `date_range` as the two ISO date-times of the resolved range in the time zone. With
 * `include.imports`, `meta.imports_included` says whether imported days were added and, when they
 * were not, `imports_skip_reason` and `imports_warning` say why.
 */
import { z } from 'zod'

const value = z.union([z.string(), z.number()])
const figure = z.number().nullable()

/** One row of results. */
export const queryApiRow = z.object({
  dimensions: z.array(value),
  metrics: z.array(figure),
  comparison: z
    .object({ dimensions: z.array(value), metrics: z.array(figure), change: z.array(figure) })
    .optional(),
})

/** The answer of `POST /api/v2/query`. */
export const queryApiAnswer = z.object({
  results: z.array(queryApiRow),
  meta: z.object({
    time_labels: z.array(z.string()).optional(),
    total_rows: z.number().int().optional(),
    time_zone: z.string(),
    imports_included: z.boolean(),
    /** With `include.imports`, why imported days were left out (Plausible's codes). */
    imports_skip_reason: z
      .enum(['no_imported_data', 'out_of_range', 'unsupported_query', 'unsupported_interval'])
      .optional(),
    /** With `include.imports`, a sentence saying why imported days were left out. */
    imports_warning: z.string().optional(),
    /** With `total_revenue` or `average_revenue`: the one currency they are in (ISO 4217). */
    revenue_currency: z.string().optional(),
    /** Per metric answered null for a reason: Plausible's `{code, warning}`. */
    metric_warnings: z.record(z.string(), z.object({ code: z.string(), warning: z.string() })).optional(),
    comparison_date_range: z.tuple([z.string(), z.string()]).optional(),
  }),
  query: z.object({
    site_id: value,
    metrics: z.array(z.string()),
    date_range: z.tuple([z.string(), z.string()]),
    dimensions: z.array(z.string()),
    filters: z.array(z.unknown()),
    order_by: z.array(z.tuple([z.string(), z.enum(['asc', 'desc'])])),
    include: z.record(z.string(), z.unknown()),
    pagination: z.object({ limit: z.number().int(), offset: z.number().int() }),
    time_zone: z.string(),
  }),
})

/** The answer, typed. */
export type QueryApiAnswer = z.output<typeof queryApiAnswer>
/** One row of the answer. */
export type QueryApiRow = z.output<typeof queryApiRow>
