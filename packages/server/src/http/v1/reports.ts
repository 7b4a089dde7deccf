/**
 * v1 report routes. Every one takes the common query parameters (`start_date`, `end_date`,
 * `time_zone`, `filters`, `page`, `limit`; README "Query parameters") and answers `{data, meta}`:
 * - `GET /api/v1/sites/{siteId}/stats[?bucket=hour|day|week|month]`: `data: {current, previous,
 *   change, series?}`: overview totals (visitors, sessions, pageviews, bounce_rate, session_duration in
 *   seconds, pages_per_session, events) for the range and for the period of equal length just before
 *   it; `change` is the relative change per metric (null when the previous value is 0); with `bucket`,
 *   a time series with every bucket present.
 * - `GET .../pages[?sort=pageviews|visitors|entries|exits|bounce_rate|time_on_page&order=asc|desc]`:
 *   per pathname, paginated (`meta: {total, page, pageSize, totalPages}`).
 * - `GET .../sessions[?has_replay=true]`: Session objects, newest first, paginated; with `has_replay=true`
 *   only those with a session replay recording.
 * - `GET .../events/names`: custom event names with events, sessions and visitors, paginated.
 * - `GET .../revenue[?bucket=day]`: revenue per currency (see query/revenue.ts).
 */
import {
  doc,
  eventName,
  pagedList,
  pageStats,
  revenueReport,
  seriesBuckets,
  session,
} from '@pathlight/protocol'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { siteForMember } from '../../auth/site-access.js'
import { queryEventNames } from '../../query/event-names.js'
import { pageSortFields, queryPageStats } from '../../query/page-stats.js'
import { parseParams, parseQueryParams, single } from '../../query/params.js'
import { withReplayFlags } from '../../query/replay.js'
import type { ReportScope } from '../../query/report-scope.js'
import { queryRevenue } from '../../query/revenue.js'
import { querySessionList } from '../../query/session-list.js'
import { queryStatsReport } from '../../query/stats-report.js'
import type { Clock } from '../../shared/time.js'
import type { EventsStore } from '../../storage/events/events-store.js'
import type { MetadataDb } from '../../storage/metadata/db.js'
import { analyticsQuery, seriesBucket, sessionsQuery, statsQuery } from '../analytics-query.js'
import { callerOf } from '../caller-of.js'
import { day, notMine, statsAnswer } from '../openapi/doc-parts.js'
import { json } from '../openapi/route-doc.js'
import { pageMeta } from '../page-meta.js'

/** `GET /api/v1/sites/{siteId}/pages`. */
export const v1PagesQuery = analyticsQuery.extend({
  sort: doc(z.enum(pageSortFields), 'Default pageviews').optional(),
  order: doc(z.enum(['asc', 'desc']), 'Default desc').optional(),
})

/** `GET /api/v1/sites/{siteId}/revenue`. */
export const v1RevenueQuery = analyticsQuery.extend({
  bucket: doc(seriesBucket, 'Bucket size of `series`; default day').optional(),
})

type Params = { Params: { siteId: string }; Querystring: Record<string, unknown> }

const bucketQuery = z.object({
  bucket: single('bucket')
    .refine(
      (b) => (seriesBuckets as readonly string[]).includes(b),
      `bucket must be one of ${seriesBuckets.join(', ')}`,
    )
    .transform((b) => b as (typeof seriesBuckets)[number])
    .optional(),
})
const pagesQuery = z.object({
  sort: single('sort')
    .refine(
      (s) => (pageSortFields as readonly string[]).includes(s),
      `sort must be one of ${pageSortFields.join(', ')}`,
    )
    .transform((s) => s as (typeof pageSortFields)[number])
    .optional(),
  order: single('order')
    .refine((o) => o === 'asc' || o === 'desc', 'order must be asc or desc')
    .transform((o) => o as 'asc' | 'desc')
    .optional(),
})

export async function v1ReportRoutes(
  app: FastifyInstance,
  { db, events, clock }: { db: MetadataDb; events: EventsStore; clock: Clock },
) {
  const scopeOf = async (request: FastifyRequest<Params>): Promise<ReportScope> => {
    const { site } = await siteForMember(db, callerOf(request).userId, request.params.siteId)
    return { siteId: site.site_id, params: parseQueryParams(request.query, clock()) }
  }

  app.get<Params>(
    '/api/v1/sites/:siteId/stats',
    {
      config: {
        doc: {
          summary: 'Headline figures, against the previous period, optionally as a time series',
          tag: 'v1',
          access: 'apiKey',
          query: statsQuery,
          responses: {
            200: statsAnswer,
            404: notMine,
          },
        },
      },
    },
    async (request) => {
      const scope = await scopeOf(request)
      const { bucket } = parseParams(bucketQuery, request.query)
      return queryStatsReport(events, scope, bucket)
    },
  )

  app.get<Params>(
    '/api/v1/sites/:siteId/pages',
    {
      config: {
        doc: {
          summary: 'Traffic per pathname',
          tag: 'v1',
          access: 'apiKey',
          query: v1PagesQuery,
          responses: { 200: json('A page of pathnames', pagedList(pageStats)), 404: notMine },
        },
      },
    },
    async (request) => {
      const scope = await scopeOf(request)
      const { sort, order } = parseParams(pagesQuery, request.query)
      const { data, total } = await queryPageStats(events, scope, {
        field: sort ?? 'pageviews',
        order: order ?? 'desc',
      })
      return { data, meta: pageMeta(scope.params, total) }
    },
  )

  app.get<Params>(
    '/api/v1/sites/:siteId/sessions',
    {
      config: {
        doc: {
          summary: 'Sessions, newest first',
          tag: 'v1',
          access: 'apiKey',
          query: sessionsQuery,
          responses: { 200: json('A page of sessions', pagedList(session)), 404: notMine },
        },
      },
    },
    async (request) => {
      const scope = await scopeOf(request)
      const { has_replay } = parseParams(sessionsQuery, request.query)
      const { data, total } = await querySessionList(events, scope, { onlyReplayed: has_replay === true })
      return { data: await withReplayFlags(events, scope.siteId, data), meta: pageMeta(scope.params, total) }
    },
  )

  app.get<Params>(
    '/api/v1/sites/:siteId/events/names',
    {
      config: {
        doc: {
          summary: 'Custom event names with their counts',
          tag: 'v1',
          access: 'apiKey',
          query: analyticsQuery,
          responses: { 200: json('A page of names, most events first', pagedList(eventName)), 404: notMine },
        },
      },
    },
    async (request) => {
      const scope = await scopeOf(request)
      const { data, total } = await queryEventNames(events, scope)
      return { data, meta: pageMeta(scope.params, total) }
    },
  )

  app.get<Params>(
    '/api/v1/sites/:siteId/revenue',
    {
      config: {
        doc: {
          summary: 'Revenue per currency',
          description:
            'From custom events whose properties carry `revenue` (a number or decimal string) and `currency` ' +
            '(ISO 4217); amounts are never converted between currencies.',
          tag: 'v1',
          access: 'apiKey',
          query: v1RevenueQuery,
          responses: {
            200: json(
              'The report',
              z.object({
                data: revenueReport,
                meta: z.object({ startDate: day, endDate: day, bucket: seriesBucket }),
              }),
            ),
            404: notMine,
          },
        },
      },
    },
    async (request) => {
      const scope = await scopeOf(request)
      const { bucket } = parseParams(bucketQuery, request.query)
      const data = await queryRevenue(events, scope, bucket ?? 'day')
      return {
        data,
        meta: { startDate: scope.params.startDate, endDate: scope.params.endDate, bucket: bucket ?? 'day' },
      }
    },
  )
}
