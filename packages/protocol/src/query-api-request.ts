/**
 * The body of `POST /api/v2/query`, the Query API: Plausible's Stats API v2 request (its names,
 * shapes and refusals), with Pathlight's additions (`time_zone`, the web-vitals, error and revenue
 * metrics). Every rule that needs neither the site nor the clock is checked here; a refused
 * combination is a 400 naming the field (`Invalid query: metrics: ...`).
 */
import { z } from 'zod'
import { documentAs } from './openapi-registry.js'
import { conditionsOf, holdsSegment, parseQueryApiFilter, type QueryApiFilter } from './query-api-filters.js'

/** Plausible's metrics. */
export const plausibleMetrics = [
  'visitors',
  'visits',
  'pageviews',
  'views_per_visit',
  'bounce_rate',
  'visit_duration',
  'events',
  'percentage',
  'conversion_rate',
  'group_conversion_rate',
  'time_on_page',
  'scroll_depth',
  'total_revenue',
  'average_revenue',
] as const
/**
 * Pathlight's own metrics: web vitals at the 75th percentile (ms; CLS unitless), error events and
 * `engaged_time` (engaged seconds from engagement events), and `requests` (crawler requests: the only
 * metric over them, with the crawler dimensions).
 */
export const pathlightMetrics = [
  'lcp_p75',
  'inp_p75',
  'cls_p75',
  'fcp_p75',
  'ttfb_p75',
  'errors',
  'engaged_time',
  'requests',
] as const
/** `revenue:<CUR>`: the revenue in one ISO 4217 currency (upper case), in that currency's units. */
export const REVENUE_METRIC = /^revenue:[A-Z]{3}$/

/** A metric name. */
export type QueryApiMetric =
  | (typeof plausibleMetrics)[number]
  | (typeof pathlightMetrics)[number]
  | `revenue:${string}`

/** The dimensions of one event. */
export const eventDimensions = ['event:page', 'event:hostname', 'event:goal', 'event:name'] as const
/** `event:props:<key>`: a custom property of the event (1 to 100 characters). */
export const PROPERTY_DIMENSION = /^event:props:.{1,100}$/s
/** The dimensions of a visit (its first event; entry and exit pages: its first and last pageview). */
export const visitDimensions = [
  'visit:entry_page',
  'visit:exit_page',
  'visit:source',
  'visit:referrer',
  'visit:channel',
  'visit:utm_source',
  'visit:utm_medium',
  'visit:utm_campaign',
  'visit:utm_term',
  'visit:utm_content',
  'visit:device',
  'visit:browser',
  'visit:browser_version',
  'visit:os',
  'visit:os_version',
  'visit:country',
  'visit:region',
  'visit:city',
  'visit:country_name',
  'visit:region_name',
  'visit:city_name',
  'visit:user_id',
] as const
/**
 * The dimensions of a crawler request (a site's access log, read apart from visits): the agent's
 * name, its operator, its category and whether its address was verified (`true`/`false`).
 */
export const crawlerDimensions = [
  'crawler:name',
  'crawler:operator',
  'crawler:category',
  'crawler:verified',
] as const
/** The time dimensions (buckets in the request's time zone; `time` picks one by the range's length). */
export const timeDimensions = ['time', 'time:hour', 'time:day', 'time:week', 'time:month'] as const

/** Plausible's names of relative ranges. */
export const dateRangeNames = [
  'day',
  '7d',
  '28d',
  '30d',
  '91d',
  'month',
  '6mo',
  '12mo',
  'year',
  'all',
] as const
/** One of `dateRangeNames`. */
export type DateRangeName = (typeof dateRangeNames)[number]

/** Most rows a page may hold (Plausible's bound), and the default. */
export const MAX_QUERY_API_LIMIT = 10_000

const DATE = /^\d{4}-\d{2}-\d{2}$/
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/

/**
 * `user:trait:<key>`: a trait of an identified user's profile (filters only; key 1 to 64 characters).
 * The server resolves it to the users whose trait matches.
 */
export const TRAIT_FILTER = /^user:trait:.{1,64}$/s

/** Whether `name` is a dimension a filter or a breakdown may name (no time ones). */
export const isFilterDimension = (name: string): boolean =>
  (eventDimensions as readonly string[]).includes(name) ||
  (visitDimensions as readonly string[]).includes(name) ||
  (crawlerDimensions as readonly string[]).includes(name) ||
  PROPERTY_DIMENSION.test(name)

const isDimension = (name: string) =>
  isFilterDimension(name) || (timeDimensions as readonly string[]).includes(name)
const isMetric = (name: string) =>
  (plausibleMetrics as readonly string[]).includes(name) ||
  (pathlightMetrics as readonly string[]).includes(name) ||
  REVENUE_METRIC.test(name)

const isoDateOrTime = z
  .string()
  .refine((v) => (DATE.test(v) || DATE_TIME.test(v)) && !Number.isNaN(Date.parse(v)), {
    message: 'an ISO 8601 date (2024-01-31) or date-time with offset (2024-01-31T12:00:00+02:00)',
  })

/** `[start, end]`, both dates or both date-times, start not after end. */
const customRange = z
  .tuple([isoDateOrTime, isoDateOrTime])
  .refine(([a, b]) => DATE.test(a) === DATE.test(b), { message: 'both dates, or both date-times' })
  .refine(([a, b]) => (DATE.test(a) ? a <= b : Date.parse(a) <= Date.parse(b)), {
    message: 'the start is after the end',
  })

const comparisons = z.union([
  z
    .object({
      mode: z.enum(['previous_period', 'year_over_year']),
      match_day_of_week: z.boolean().optional(),
    })
    .strict(),
  z
    .object({ mode: z.literal('custom'), date_range: customRange, match_day_of_week: z.boolean().optional() })
    .strict(),
])

const timeZone = z
  .string()
  .max(64)
  .refine(
    (name) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: name })
        return name !== ''
      } catch {
        return false
      }
    },
    { message: 'an IANA time zone name, such as Europe/Berlin' },
  )

const dimensionName = z.string().refine(isDimension, { message: 'not a dimension' })

const shape = z
  .object({
    site_id: z.union([z.string().min(1).max(253), z.number().int().positive()]),
    metrics: z
      .array(z.string().refine(isMetric, { message: 'not a metric' }))
      .min(1)
      .max(20),
    date_range: z.union([z.enum(dateRangeNames), customRange]),
    dimensions: z.array(dimensionName).max(10).default([]),
    filters: z.array(z.unknown()).max(50).default([]),
    order_by: z
      .array(z.tuple([z.string(), z.enum(['asc', 'desc'])]))
      .max(20)
      .optional(),
    include: z
      .object({
        time_labels: z.boolean().optional(),
        total_rows: z.boolean().optional(),
        imports: z.boolean().optional(),
        comparisons: comparisons.optional(),
      })
      .strict()
      .default({}),
    pagination: z
      .object({
        limit: z.number().int().min(1).max(MAX_QUERY_API_LIMIT).default(MAX_QUERY_API_LIMIT),
        offset: z.number().int().min(0).default(0),
      })
      .strict()
      .default({ limit: MAX_QUERY_API_LIMIT, offset: 0 }),
    time_zone: timeZone.optional(),
  })
  .strict()

/** The body as parsed: `filters` as trees. */
export type QueryApiBody = Omit<z.output<typeof shape>, 'filters' | 'metrics'> & {
  metrics: QueryApiMetric[]
  filters: QueryApiFilter[]
}

/** Metrics computed over visits (sessions): Plausible refuses them with most event dimensions. */
const SESSION_METRICS = ['bounce_rate', 'visit_duration', 'views_per_visit'] as const

/**
 * The request body of `POST /api/v2/query`, parsed: unknown keys, metrics and dimensions refused, the
 * filters parsed into trees, and the combinations Plausible refuses refused, each naming its field.
 */
export const queryApiBody = documentAs(
  shape.transform((body, ctx): QueryApiBody => {
    const problem = (path: (string | number)[], message: string) => {
      ctx.addIssue({ code: 'custom', path, message })
      return z.NEVER
    }
    const filters: QueryApiFilter[] = []
    const count = { conditions: 0 }
    for (const [i, raw] of body.filters.entries()) {
      const parsed = parseQueryApiFilter(
        raw,
        (name) => isFilterDimension(name) || TRAIT_FILTER.test(name),
        0,
        count,
      )
      if (!parsed.ok) return problem(['filters', i, ...parsed.problem.path], parsed.problem.message)
      filters.push(parsed.filter)
    }
    const duplicate = (list: readonly string[]) => list.find((name, i) => list.indexOf(name) !== i)
    const metrics = body.metrics as QueryApiMetric[]
    const { dimensions } = body
    const twice = duplicate(metrics)
    if (twice) return problem(['metrics'], `metric ${twice} is named twice`)
    const twiceDimension = duplicate(dimensions)
    if (twiceDimension) return problem(['dimensions'], `dimension ${twiceDimension} is named twice`)
    const timeDimension = dimensions.filter((d) => d.startsWith('time'))
    if (timeDimension.length > 1) return problem(['dimensions'], 'at most one time dimension')
    if (body.include.time_labels && timeDimension.length === 0) {
      return problem(['include', 'time_labels'], 'time_labels needs a time dimension')
    }
    const conditions = filters.flatMap(conditionsOf)
    const filtersOn = (name: string) => conditions.some((c) => c.dimension === name)
    const crawler =
      metrics.includes('requests') ||
      dimensions.some((d) => d.startsWith('crawler:')) ||
      conditions.some((c) => c.dimension.startsWith('crawler:'))
    if (crawler) {
      const visitMetric = metrics.find((m) => m !== 'requests')
      if (visitMetric) {
        return problem(
          ['metrics'],
          `metric ${visitMetric} cannot be queried over crawler requests (crawlers are not visitors): use requests`,
        )
      }
      const other = dimensions.find((d) => !d.startsWith('crawler:') && !d.startsWith('time'))
      if (other) return problem(['dimensions'], `dimension ${other} cannot be mixed with crawler dimensions`)
      const otherFilter = conditions.find((c) => !c.dimension.startsWith('crawler:'))
      if (otherFilter || filters.some(holdsSegment)) {
        return problem(
          ['filters'],
          `crawler requests take crawler filters only, not ${otherFilter?.dimension ?? 'a segment'}`,
        )
      }
    }
    const eventDims = dimensions.filter((d) => d.startsWith('event:'))
    const goal = filtersOn('event:goal') || dimensions.includes('event:goal')
    for (const metric of SESSION_METRICS) {
      if (!metrics.includes(metric)) continue
      const refused = eventDims.filter((d) => metric === 'views_per_visit' || d !== 'event:page')
      if (refused.length > 0) {
        return problem(
          ['metrics'],
          `session metric ${metric} cannot be queried with event dimension ${refused[0]}`,
        )
      }
    }
    if (metrics.includes('views_per_visit') && filtersOn('event:page')) {
      return problem(['metrics'], 'metric views_per_visit cannot be queried with a filter on event:page')
    }
    if (metrics.includes('conversion_rate') && !goal) {
      return problem(['metrics'], 'metric conversion_rate needs an event:goal filter or dimension')
    }
    if (metrics.includes('group_conversion_rate') && dimensions.length === 0) {
      return problem(['metrics'], 'metric group_conversion_rate needs a dimension')
    }
    for (const metric of ['time_on_page', 'scroll_depth'] as const) {
      if (metrics.includes(metric) && !filtersOn('event:page') && !dimensions.includes('event:page')) {
        return problem(['metrics'], `metric ${metric} needs an event:page filter or dimension`)
      }
    }
    for (const [i, [name]] of (body.order_by ?? []).entries()) {
      if (!(metrics as string[]).includes(name) && !dimensions.includes(name)) {
        return problem(['order_by', i], `${name} is not a queried metric or dimension`)
      }
    }
    return { ...body, metrics, filters }
  }),
  shape.extend({ filters: z.array(z.array(z.unknown())).optional() }),
)
