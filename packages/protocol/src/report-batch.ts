/**
 * `POST /api/sites/{siteId}/reports`: several reports of a site in one request, e.g.
 * every panel of the dashboard's overview. The common query parameters (start_date, end_date, time_zone,
 * filters) are the request's query string, as on the GET report routes, and shared by every part; each
 * part names a report and its own options (`params`), which are what the GET route takes in its query
 * string beside the common ones. The answer holds each part's `{data, meta}`, exactly as its GET route
 * answers, keyed by the part's `id` (its `name` when it has none).
 */
import { z } from 'zod'
import { annotation } from './annotation-schemas.js'
import { breakdownMetrics, eventNameMetrics, eventTypes, seriesBuckets, seriesMetrics } from './enums.js'
import { doc } from './openapi-registry.js'
import {
  breakdownPage,
  comparedSeriesCounts,
  event,
  eventNameCounts,
  liveVisitors,
  pagedList,
  pageMeta,
  seriesMeta,
  session,
  stats,
  statsMeta,
  successList,
  webVitals,
  webVitalsRow,
  webVitalsThresholds,
} from './schemas.js'

/** Most parts in one batch. */
export const MAX_REPORT_PARTS = 20

/** The reports a batch may hold: the GET report routes of the same names. */
export const reportPartNames = [
  'stats',
  'series',
  'breakdown',
  'sessions',
  'events',
  'event-names',
  'web-vitals',
  'live',
  'annotations',
] as const
export type ReportPartName = (typeof reportPartNames)[number]

const page = doc(z.int().min(1), 'Page number (as `page` of the GET route)').optional()
const limit = doc(z.int().min(1), 'Rows per page (as `limit` of the GET route)').optional()
const partId = doc(
  z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'id must be 1-64 letters, digits or _ . : -'),
  'The key of this part in the answer (default: `name`); unique in the batch',
).optional()

const part = <Name extends ReportPartName, Params extends z.ZodRawShape>(name: Name, params: Params) =>
  z.strictObject({ id: partId, name: z.literal(name), params: z.strictObject(params).optional() })

/** One part of a batch: which report, and its own parameters. */
export const reportPart = z.discriminatedUnion(
  'name',
  [
    part('stats', { bucket: doc(z.enum(seriesBuckets), 'With a time series of this bucket').optional() }),
    part('series', {
      bucket: doc(z.enum(seriesBuckets), 'The size of each point (as `bucket` of the GET route)'),
      metrics: doc(
        z.array(z.enum(seriesMetrics)).min(1),
        'The counts each point carries (as `metrics` of the GET route, a list here)',
      ).optional(),
    }),
    part('breakdown', {
      name: doc(z.string(), 'The dimension, as `{name}` of `GET .../breakdown/{name}`'),
      metrics: doc(
        z.array(z.enum(breakdownMetrics)).min(1),
        'The counts the rows carry (as `metrics` of the GET route, a list here)',
      ).optional(),
      page,
      limit,
    }),
    part('sessions', {
      has_replay: doc(z.boolean(), 'Only sessions with a recording').optional(),
      page,
      limit,
    }),
    part('events', {
      type: doc(z.array(z.enum(eventTypes)), 'Only events of these types').optional(),
      event_name: z.string().optional(),
      cursor: z.string().optional(),
      limit,
    }),
    part('event-names', {
      metrics: doc(
        z.array(z.enum(eventNameMetrics)).min(1),
        'The counts the rows carry (as `metrics` of the GET route, a list here)',
      ).optional(),
      page,
      limit,
    }),
    part('web-vitals', {
      by: doc(z.enum(['pathname', 'device_type']), 'Group by this').optional(),
      page,
      limit,
    }),
    part('live', {}),
    part('annotations', {}),
  ],
  { error: `name must be one of ${reportPartNames.join(', ')}` },
)
export type ReportPart = z.infer<typeof reportPart>

/** The body of `POST /api/sites/{siteId}/reports`. */
export const reportBatchBody = z.strictObject({
  reports: doc(
    z.array(reportPart).min(1).max(MAX_REPORT_PARTS),
    `The reports, 1 to ${MAX_REPORT_PARTS}; all run over the query string's range and filters`,
  ),
})
export type ReportBatchBody = z.infer<typeof reportBatchBody>

const pageWithThresholds = pageMeta.extend({ by: z.string(), thresholds: webVitalsThresholds })

/** What one part answers: its GET route's `{data, meta}`. */
export const reportPartAnswer = z.union([
  z.object({ data: stats, meta: statsMeta }),
  z.object({ data: z.array(comparedSeriesCounts), meta: seriesMeta }),
  breakdownPage,
  pagedList(session),
  z.object({
    data: z.array(event),
    meta: z.object({ nextCursor: z.string().nullable(), limit: z.int().min(1) }),
  }),
  pagedList(eventNameCounts),
  z.object({ data: webVitals, meta: z.object({ thresholds: webVitalsThresholds }) }),
  z.object({ data: z.array(webVitalsRow), meta: pageWithThresholds }),
  z.object({ data: liveVisitors, meta: z.object({}) }),
  successList(annotation),
])

/** The answer of `POST /api/sites/{siteId}/reports`: every part's answer under its id. */
export const reportBatchAnswer = z.object({
  success: z.literal(true),
  data: doc(
    z.record(z.string(), reportPartAnswer),
    "Per part id (or name), the part's `{data, meta}`, as its GET route answers",
  ),
})
