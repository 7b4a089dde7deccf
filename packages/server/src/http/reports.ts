/**
 * Routes: the dashboard's reports of a site (analytics scope: any reader of the site, i.e. a member,
 * the holder of its private link key (`X-Private-Key`), or anyone when the site is public). Every
 * route takes the common query parameters (`query/params.ts`: start_date, end_date, time_zone,
 * filters, page, limit) unless noted, and answers `{data, meta}`:
 *
 * | GET /api/sites/{siteId}/...   | data                                                  | meta         |
 * |-------------------------------|-------------------------------------------------------|--------------|
 * | `summary` (no parameters)     | `{siteId, name, domain, access}`, `access` member,    | `{}`         |
 * |                               | private_link or public                                |              |
 * | `stats[?bucket=]`             | `{current, previous, change, series?}` as v1 stats;   | range, zone  |
 * |                               | bucket hour, day, week or month                       |              |
 * | `series?bucket=[&metrics=]`   | `[{time, visitors?, sessions?, pageviews?}]`, the     | range, zone, |
 * |                               | counts `metrics` asks for (default all three)         | bucket, metrics |
 * | `breakdown/{name}`            | `[{value, visitors, sessions, pageviews}]`            | page         |
 * | `sessions[?has_replay=]`      | `[Session]`, newest first, with `hasReplay`; with     | page         |
 * |                               | `has_replay=true` only those with a recording         |              |
 * | `sessions/{sessionId}/events` | `[SessionEvent]`, oldest first (filters ignored)      | page         |
 * | `events[?type=&event_name=    | `[ListedEvent]`, newest first                         | `nextCursor` |
 * |   &cursor=]`                  |                                                       |              |
 * | `event-names[?metrics=]`      | `[{name, events, sessions, visitors}]` custom events  | page         |
 * | `web-vitals[?by=]`            | `{lcp, inp, cls, fcp, ttfb}`; with `by` (pathname or  | thresholds   |
 * |                               | device_type) `[{value, events, lcp, ...}]`            | (+ page)     |
 * | `live` (no parameters)        | `{visitors, from, to}`: the last 5 minutes            | `{}`         |
 *
 * `POST /api/sites/{siteId}/reports` runs several of them (stats, series, breakdown, sessions, events,
 * event-names, web-vitals, live) in one request: body `{reports: [{id?, name, params?}]}`, the common
 * parameters in the query string, answer `{success:true, data: {[id or name]: {data, meta}}}` with each
 * part's answer as its GET route gives it (`report-batch.ts`).
 *
 * Page meta is `{total, page, pageSize, totalPages}`. Breakdown names: `query/breakdown.ts`. Routes
 * only translate: figures come from `query/`.
 */
import {
  breakdownPage,
  comparedSeriesCounts,
  doc,
  eventNameCounts,
  liveVisitors,
  MAX_REPORT_PARTS,
  pagedList,
  reportBatchAnswer,
  reportBatchBody,
  reportSummary,
  seriesMeta,
  session,
  sessionEvent,
  webVitals,
  webVitalsRow,
  webVitalsThresholds,
} from '@pathlight/protocol'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { siteForReader } from '../auth/site-access.js'
import { breakdowns } from '../query/breakdown.js'
import { parseQueryParams } from '../query/params.js'
import type { ReportScope } from '../query/report-scope.js'
import { querySessionEvents } from '../query/session-events.js'
import { webVitalDimensions } from '../query/web-vitals.js'
import { notFound } from '../shared/errors.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import {
  analyticsQuery,
  breakdownQuery,
  eventNamesQuery,
  eventsQuery,
  seriesQuery,
  sessionsQuery,
  statsQuery,
} from './analytics-query.js'
import { emptyMeta, eventPage, statsAnswer } from './openapi/doc-parts.js'
import { json } from './openapi/route-doc.js'
import { pageMeta } from './page-meta.js'
import { readerOf } from './reader.js'
import { runReportBatch } from './report-batch.js'
import { isBreakdown, reportParts } from './report-parts.js'

/** `GET /api/sites/{siteId}/web-vitals`. */
const webVitalsQuery = analyticsQuery.extend({
  by: doc(
    z.enum(Object.keys(webVitalDimensions) as [keyof typeof webVitalDimensions]),
    'Group by this',
  ).optional(),
})

/** What the report routes need: the metadata store (access) and the events store (figures). */
export interface ReportRouteOptions {
  db: MetadataDb
  events: EventsStore
  /** The current time (default ranges, live visitors); the system clock when omitted. */
  clock?: Clock
}

type SiteParams = { Params: { siteId: string } }

/** `has_replay` of the sessions list (here and in v1). */
export { sessionsInput } from './report-parts.js'

/** Register the routes of the table above. */
export async function reportRoutes(
  app: FastifyInstance,
  { db, events, clock = systemClock }: ReportRouteOptions,
) {
  const reader = (request: FastifyRequest<SiteParams>) =>
    siteForReader(db, readerOf(request), request.params.siteId)
  const deps = { events, db, clock }
  const siteOf = async (request: FastifyRequest<SiteParams>) => (await reader(request)).site.site_id
  const scopeOf = async (request: FastifyRequest<SiteParams>): Promise<ReportScope> => ({
    siteId: await siteOf(request),
    params: parseQueryParams(request.query, clock()),
  })
  app.get<SiteParams>(
    '/api/sites/:siteId/summary',
    {
      config: {
        doc: {
          summary: 'The site as the caller may read it',
          tag: 'Reports',
          access: 'reader',
          responses: { 200: json('The site', z.object({ data: reportSummary, meta: emptyMeta })) },
        },
      },
    },
    async (request) => {
      const { site, via } = await reader(request)
      return { data: { siteId: site.site_id, name: site.name, domain: site.domain, access: via }, meta: {} }
    },
  )

  app.get<SiteParams>(
    '/api/sites/:siteId/stats',
    {
      config: {
        doc: {
          summary: 'Headline figures, against the previous period, optionally as a time series',
          tag: 'Reports',
          access: 'reader',
          query: statsQuery,
          responses: { 200: statsAnswer },
        },
      },
    },
    async (request) => {
      return reportParts.stats(deps, await siteOf(request), request.query)()
    },
  )

  app.get<SiteParams>(
    '/api/sites/:siteId/series',
    {
      config: {
        doc: {
          summary: 'A time series of the range with the counts asked for (the chart of one figure)',
          tag: 'Reports',
          access: 'reader',
          query: seriesQuery,
          responses: {
            200: json(
              'Every bucket of the range',
              z.object({ data: z.array(comparedSeriesCounts), meta: seriesMeta }),
            ),
          },
        },
      },
    },
    async (request) => {
      return reportParts.series(deps, await siteOf(request), request.query)()
    },
  )

  app.get<{ Params: { siteId: string; name: string } }>(
    '/api/sites/:siteId/breakdown/:name',
    {
      config: {
        doc: {
          summary: 'Visitors, sessions and pageviews per value of a dimension',
          tag: 'Reports',
          access: 'reader',
          params: { name: `The dimension: ${Object.keys(breakdowns).join(', ')}` },
          query: breakdownQuery,
          responses: {
            200: json(
              'A page of values, most first (with `compare`, each with its compared counts)',
              breakdownPage,
            ),
            404: 'Unknown dimension, or the credentials do not reach this site',
          },
        },
      },
    },
    async (request) => {
      const siteId = await siteOf(request)
      const { name } = request.params
      if (!isBreakdown(name)) {
        throw notFound(`Unknown breakdown "${name}"; one of ${Object.keys(breakdowns).join(', ')}`)
      }
      return reportParts.breakdown(deps, siteId, request.query, name)()
    },
  )

  app.get<SiteParams>(
    '/api/sites/:siteId/sessions',
    {
      config: {
        doc: {
          summary: 'Sessions, newest first',
          tag: 'Reports',
          access: 'reader',
          query: sessionsQuery,
          responses: { 200: json('A page of sessions', pagedList(session)) },
        },
      },
    },
    async (request) => {
      return reportParts.sessions(deps, await siteOf(request), request.query)()
    },
  )

  app.get<{ Params: { siteId: string; sessionId: string } }>(
    '/api/sites/:siteId/sessions/:sessionId/events',
    {
      config: {
        doc: {
          summary: "A session's events, oldest first",
          description: 'Filters are ignored: every event of the session in the range.',
          tag: 'Reports',
          access: 'reader',
          params: { sessionId: 'The session id (`session_id` of a Session)' },
          query: analyticsQuery,
          responses: { 200: json('A page of events', pagedList(sessionEvent)) },
        },
      },
    },
    async (request) => {
      const scope = await scopeOf(request)
      const { data, total } = await querySessionEvents(events, scope, request.params.sessionId)
      return { data, meta: pageMeta(scope.params, total) }
    },
  )

  app.get<SiteParams>(
    '/api/sites/:siteId/events',
    {
      config: {
        doc: {
          summary: 'Events, newest first, paged with a cursor',
          tag: 'Reports',
          access: 'reader',
          query: eventsQuery,
          responses: { 200: eventPage },
        },
      },
    },
    async (request) => {
      return reportParts.events(deps, await siteOf(request), request.query)()
    },
  )

  app.get<SiteParams>(
    '/api/sites/:siteId/event-names',
    {
      config: {
        doc: {
          summary: 'Custom event names with their counts',
          tag: 'Reports',
          access: 'reader',
          query: eventNamesQuery,
          responses: { 200: json('A page of names, most events first', pagedList(eventNameCounts)) },
        },
      },
    },
    async (request) => {
      return reportParts['event-names'](deps, await siteOf(request), request.query)()
    },
  )

  app.get<SiteParams>(
    '/api/sites/:siteId/web-vitals',
    {
      config: {
        doc: {
          summary: 'Web vitals: percentiles and bands, overall or per pathname or device type',
          tag: 'Reports',
          access: 'reader',
          query: webVitalsQuery,
          responses: {
            200: json(
              'Without `by` the metrics over the range; with `by` a page of values',
              z.union([
                z.object({ data: webVitals, meta: z.object({ thresholds: webVitalsThresholds }) }),
                z.object({
                  data: z.array(webVitalsRow),
                  meta: z.object({
                    total: z.int().min(0),
                    page: z.int().min(1),
                    pageSize: z.int().min(1),
                    totalPages: z.int().min(0),
                    by: z.string(),
                    thresholds: webVitalsThresholds,
                  }),
                }),
              ]),
            ),
          },
        },
      },
    },
    async (request) => {
      return reportParts['web-vitals'](deps, await siteOf(request), request.query)()
    },
  )

  app.get<SiteParams>(
    '/api/sites/:siteId/live',
    {
      config: {
        doc: {
          summary: 'Visitors of the last 5 minutes',
          tag: 'Reports',
          access: 'reader',
          responses: { 200: json('The count', z.object({ data: liveVisitors, meta: emptyMeta })) },
        },
      },
    },
    async (request) => {
      return reportParts.live(deps, await siteOf(request))()
    },
  )

  app.post<SiteParams>(
    '/api/sites/:siteId/reports',
    {
      config: {
        keyUse: 'read',
        doc: {
          summary: 'Several reports in one request (e.g. every panel of the overview)',
          description:
            `Up to ${MAX_REPORT_PARTS} parts, each a report of the GET routes above with its own parameters ` +
            '(`params`: as its GET route takes them in the query string; `breakdown` takes the dimension as ' +
            '`name`). The query string holds the common parameters, shared by every part (`page` and ' +
            '`limit` there are defaults a part may override). Every part is validated before any runs: an ' +
            'invalid one answers 400 naming it (`reports[3].params.limit`). The answer holds every part under ' +
            'its `id` (default: its `name`), as its GET route answers.',
          tag: 'Reports',
          access: 'reader',
          query: analyticsQuery,
          body: reportBatchBody,
          responses: { 200: json('Every part, by id', reportBatchAnswer) },
        },
      },
    },
    async (request) => runReportBatch(deps, await siteOf(request), request.query, request.body),
  )
}
