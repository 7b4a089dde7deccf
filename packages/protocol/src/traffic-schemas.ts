/**
 * The shapes of the traffic figures over a range (the headline totals, the series of time buckets,
 * the stats, the breakdowns by a dimension) and of the comparison each can carry: the compared range's
 * days in `meta`, its figures, buckets and counts beside the current ones. Registered as OpenAPI
 * components; see `response-schemas.ts` for how they are used.
 */
import { z } from 'zod'
import { seriesBuckets, seriesMetrics } from './enums.js'
import { component, doc } from './openapi-registry.js'
import { pageMeta } from './response-schemas.js'
import { count, day, timestamp } from './schema-fields.js'

const overviewFields = {
  visitors: count('Distinct visitors'),
  sessions: count('Sessions'),
  pageviews: count('Pageviews'),
  bounce_rate: doc(z.number().min(0).max(1), 'Bounces / sessions, a fraction'),
  session_duration: doc(z.number().min(0), 'Average session duration, seconds'),
  pages_per_session: doc(z.number().min(0), 'Pageviews / sessions'),
  events: count('Custom events'),
}

export const totals = component('Totals', z.object(overviewFields), 'Headline figures over a range.')

export const seriesPoint = component(
  'SeriesPoint',
  z.object({
    time: timestamp("The bucket's start (ISO 8601 UTC)"),
    visitors: count('Visitors active in the bucket'),
    sessions: count('Sessions active in the bucket'),
    pageviews: count('Pageviews'),
  }),
  'Traffic in one time bucket.',
)

export const seriesCounts = component(
  'SeriesCounts',
  seriesPoint.partial({ visitors: true, sessions: true, pageviews: true }),
  'Traffic in one time bucket: the counts `metrics` asked for (all three by default), the others absent.',
)

/** The compared range's days in a `meta` (present when the answer carries compared figures). */
const comparedDays = {
  previousStartDate: doc(day, 'First day of the compared range').optional(),
  previousEndDate: doc(day, 'Last day of the compared range, included').optional(),
}

/**
 * A series point with, when a comparison was asked for, the compared range's bucket at the same
 * position (the first with the first, ...; null past the compared range's last bucket).
 */
const withComparedBucket = <T extends z.ZodType>(point: T) =>
  doc(point.nullable(), "The compared range's bucket at the same position; null past its end").optional()

/** A series point of the `series` route: the counts asked for and the compared bucket's. */
export const comparedSeriesCounts = seriesCounts.extend({ previous: withComparedBucket(seriesCounts) })

/** A series point of the stats: the three counts and the compared bucket's. */
export const comparedSeriesPoint = seriesPoint.extend({ previous: withComparedBucket(seriesPoint) })

/** The `meta` of a series answer (`GET /api/sites/{siteId}/series`): the range, its buckets, the counts. */
export const seriesMeta = z.object({
  startDate: day,
  endDate: day,
  ...comparedDays,
  timeZone: z.string(),
  bucket: z.enum(seriesBuckets),
  metrics: doc(z.array(z.enum(seriesMetrics)), 'The counts each point carries'),
})

export const stats = z.object({
  current: totals,
  previous: doc(
    totals,
    'The same figures over the compared range (`compare`; absent with compare=none)',
  ).optional(),
  change: doc(
    z.object(
      Object.fromEntries(Object.keys(overviewFields).map((key) => [key, z.number().nullable()])) as Record<
        keyof typeof overviewFields,
        z.ZodNullable<z.ZodNumber>
      >,
    ),
    'Relative change per figure ((current - previous) / previous); null when the previous value is 0',
  ).optional(),
  series: doc(
    z.array(comparedSeriesPoint),
    'With `bucket`: every bucket of the range, each with the compared bucket at its position',
  ).optional(),
})

/** The `meta` of a stats answer: the range and the compared range (days, both included; none with compare=none). */
export const statsMeta = z.object({
  startDate: day,
  endDate: day,
  ...comparedDays,
  timeZone: z.string(),
  bucket: z.enum(seriesBuckets).optional(),
})

export const breakdownRow = component(
  'BreakdownRow',
  z.object({
    value: doc(z.string(), "The dimension's value ('' when unknown)"),
    visitors: count('Visitors (absent when `metrics` leaves it out)').optional(),
    sessions: count('Sessions (absent when `metrics` leaves it out)').optional(),
    pageviews: count('Pageviews (absent when `metrics` leaves it out)').optional(),
    previous: doc(
      z.object({
        visitors: z.int().min(0).optional(),
        sessions: z.int().min(0).optional(),
        pageviews: z.int().min(0).optional(),
      }),
      'With `compare`: the same counts of this value over the compared range',
    ).optional(),
    change: doc(
      z.object({
        visitors: z.number().nullable().optional(),
        sessions: z.number().nullable().optional(),
        pageviews: z.number().nullable().optional(),
      }),
      'With `compare`: relative change per count ((current - previous) / previous); null when the previous value is 0',
    ).optional(),
  }),
  'One value of a breakdown dimension, with the counts `metrics` asked for (all three by default).',
)

/** A page of breakdown rows; with `compare`, `meta` names the compared range. */
export const breakdownPage = z.object({
  data: z.array(breakdownRow),
  meta: pageMeta.extend(comparedDays),
})
