/**
 * Route: `GET /api/sites/{siteId}/retention[?period=day|week|month]` (analytics scope: any reader of
 * the site). Takes the common query parameters (`page` and `limit` are ignored: every cohort of the
 * range is answered) and answers `{data: [RetentionCohort], meta: {period, startDate, endDate,
 * timeZone}}`; definitions in `query/retention.ts`. The v1 twin is `v1/retention.ts`.
 */
import { doc, retentionCohort, retentionMeta, retentionPeriods } from '@pathlight/protocol'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { siteForReader } from '../auth/site-access.js'
import { parseParams, parseQueryParams, single } from '../query/params.js'
import type { ReportScope } from '../query/report-scope.js'
import { MAX_RETENTION_PERIODS, queryRetention } from '../query/retention.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { analyticsQuery } from './analytics-query.js'
import { json } from './openapi/route-doc.js'
import { readerOf } from './reader.js'

/** The query of the retention routes, as the OpenAPI document shows it. */
export const retentionQuery = analyticsQuery.extend({
  period: doc(
    z.enum(retentionPeriods),
    `Cohort period: calendar day, week (Monday to Sunday) or month in time_zone; default week. At most ${MAX_RETENTION_PERIODS} periods`,
  ).optional(),
})

/** The documented answer of the retention routes. */
export const retentionAnswer = json(
  'One cohort per period of the range, oldest first',
  z.object({ data: z.array(retentionCohort), meta: retentionMeta }),
)

/** A route description shared with v1. */
export const retentionDescription =
  "A visitor's cohort is the period of their first counted event (pageview, custom event or outbound " +
  'click; not web vitals or errors) in the range. `retained[k]` counts the visitors of the cohort with a ' +
  'counted event in the k-th period after it, up to the end of the range (a partial last period counts). ' +
  'Filters restrict the events considered. Every period of the range is a cohort, empty ones included; ' +
  '`page` and `limit` are ignored.'

const periodInput = z.object({
  period: single('period')
    .refine(
      (p) => (retentionPeriods as readonly string[]).includes(p),
      `period must be one of ${retentionPeriods.join(', ')}`,
    )
    .transform((p) => p as (typeof retentionPeriods)[number])
    .optional(),
})

/**
 * The retention answer of a request whose site is known.
 * @throws AppError 400 naming the invalid parameter (`period`, a common one)
 */
export async function retentionOf(events: EventsStore, siteId: number, query: unknown, nowMs: number) {
  const scope: ReportScope = { siteId, params: parseQueryParams(query, nowMs) }
  const { period = 'week' } = parseParams(periodInput, query)
  const data = await queryRetention(events, scope, period)
  const { startDate, endDate, timeZone } = scope.params
  return { data, meta: { period, startDate, endDate, timeZone } }
}

type SiteParams = { Params: { siteId: string } }

/** Register the dashboard's retention route. */
export async function retentionRoutes(
  app: FastifyInstance,
  { db, events, clock = systemClock }: { db: MetadataDb; events: EventsStore; clock?: Clock },
) {
  app.get<SiteParams>(
    '/api/sites/:siteId/retention',
    {
      config: {
        doc: {
          summary: 'Retention cohorts: visitors by first period, and how many came back in each later one',
          description: retentionDescription,
          tag: 'Reports',
          access: 'reader',
          query: retentionQuery,
          responses: { 200: retentionAnswer },
        },
      },
    },
    async (request: FastifyRequest<SiteParams>) => {
      const { site } = await siteForReader(db, readerOf(request), request.params.siteId)
      return retentionOf(events, site.site_id, request.query, clock())
    },
  )
}
