/**
 * Routes: the dashboard's reports of a site (analytics scope: any reader of the site, i.e. a member,
 * the holder of its private link key (`X-Private-Key`), or anyone when the site is public). Every
 * route takes the common query parameters (`query/params.ts`: start_date, end_date, time_zone,
 * filters, page, limit) unless noted, and answers `{data, meta}`:
 *
 * | GET /api/sites/{siteId}/...   | data                                                  | meta         |
 * |-------------------------------|-------------------------------------------------------|--------------|
 * | `summary` (no parameters)     | `{siteId, name, domain, access, importedDays}`,       | `{}`         |
 * |                               | `access` member, private_link or public;              |              |
 * |                               | `importedDays` `{from, to}` of imported totals, null  |              |
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
 * | `page-stats[?sort=&order=]`   | `[PageStats]` as v1 pages, with engagement fields     | page         |
 * | `live` (no parameters)        | `{visitors, from, to}`: the last 5 minutes            | `{}`         |
 *
 * `POST /api/sites/{siteId}/reports` runs several of them (stats, series, breakdown, sessions, events,
 * event-names, web-vitals, live) in one request: body `{reports: [{id?, name, params?}]}`, the common
 * parameters in the query string, answer `{success:true, data: {[id or name]: {data, meta}}}` with each
 * part's answer as its GET route gives it (`report-batch.ts`).
 *
 * Page meta is `{total, page, pageSize, totalPages}`. Breakdown names: `query/breakdown.ts`. The GET
 * routes are registered from their contracts (`@pathlight/protocol` `contracts/reports.ts`), which
 * parse the query string; those of the report registry (`contracts/report-registry.ts`) of access
 * reader or member with a report function in `report-parts.ts` are registered from it. Besides the
 * table above, these are the reads of the group files: error analytics, journeys and retention
 * (`behaviour-report-parts.ts`), custom properties, crawlers and the heatmap (`page-report-parts.ts`),
 * goals and funnels (`conversion-report-parts.ts`, each with its own contract's method and access);
 * their contracts document their parameters and answers. Routes only translate: figures come from
 * `query/`.
 */
import {
  breakdownEndpoint,
  type EndpointSpec,
  type ResponseOf,
  reportBatchEndpoint,
  reportEndpointsFor,
  reportSummaryEndpoint,
  sessionEventsEndpoint,
  type siteParams,
} from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import type { z } from 'zod'
import { siteForMember, siteForReader } from '../auth/site-access.js'
import { breakdowns } from '../query/breakdown.js'
import { importedDayRange } from '../query/imported-totals.js'
import { resolveQueryParams } from '../query/params.js'
import { querySessionEvents } from '../query/session-events.js'
import { notFound, unauthorized } from '../shared/errors.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { Caller } from './caller.js'
import { pageMeta } from './page-meta.js'
import { runReportBatch } from './report-batch.js'
import type { PreparedReport, ReportPartDeps, ReportPath } from './report-part.js'
import { isBreakdown, reportLookups, reportParts } from './report-parts.js'
import { route } from './route.js'

/** What the report routes need: the metadata store (access) and the events store (figures). */
export interface ReportRouteOptions {
  db: MetadataDb
  events: EventsStore
  /** The current time (default ranges, live visitors); the system clock when omitted. */
  clock?: Clock
}

/**
 * A report of a site: its site in the path, for any reader (typed as such: the loop below checks a
 * member's reports as theirs).
 */
type SiteReport = EndpointSpec & { params: typeof siteParams; access: 'reader' }

/** Register the routes of the table above, each from its contract. */
export async function reportRoutes(
  app: FastifyInstance,
  { db, events, clock = systemClock }: ReportRouteOptions,
) {
  const deps = { events, db, clock }
  const resolve = ({
    params,
    reader,
  }: {
    params: z.output<typeof siteParams>
    reader: { userId?: string; privateKey?: string }
  }) => siteForReader(db, reader, params.siteId)
  /** A member's user id: `route()` answers 401 before a member's route resolves without a caller. */
  const callerOf = ({ caller }: { caller: Caller | null }) => {
    if (!caller) throw unauthorized()
    return caller.userId
  }

  // Every registered report with a report function (`report-parts.ts`) but the breakdown, whose
  // dimension is in the path: its route is the registration's endpoint (its method, access and key
  // use), answered by that function. The access check is the endpoint's: any reader, or a member
  // (`route()` answers 401 without a caller before it); a report with a lookup (`reportLookups`: a
  // saved goal or funnel in the path) runs it with the check, before the query and body are parsed.
  // Each function's answer is typed by its own contract there (`Prepared`); over a loop of names
  // TypeScript cannot tie one name's contract to the same name's function, hence the cast.
  for (const { name, endpoint: registered } of reportEndpointsFor('reader', 'member')) {
    if (name === 'breakdown' || !Object.hasOwn(reportParts, name)) continue
    const part = name as keyof typeof reportParts
    const run = reportParts[part] as (
      deps: ReportPartDeps,
      siteId: number,
      query: unknown,
      path: ReportPath,
    ) => PreparedReport
    const endpoint = registered as EndpointSpec
    const access = endpoint.access
    if (access !== 'reader' && access !== 'member')
      throw new Error(`${name}: a report's access is reader or member, not ${access}`)
    const lookup = reportLookups[part]
    route(app, endpoint as SiteReport, {
      resolve: async (input) => {
        const { site } =
          access === 'reader'
            ? await resolve(input)
            : await siteForMember(db, callerOf(input), input.params.siteId)
        const { siteId: _, ...params } = input.params
        return { site, found: lookup ? await lookup(deps, site.site_id, params) : undefined }
      },
      handle: async ({ params: { siteId: _, ...params }, query, body, resolved: { site, found } }) =>
        (await run(deps, site.site_id, query, { params, body, found })()) as never,
    })
  }

  route(app, reportSummaryEndpoint, {
    resolve,
    handle: async ({ resolved: { site, via } }) => ({
      data: {
        siteId: site.site_id,
        name: site.name,
        domain: site.domain,
        access: via,
        importedDays: await importedDayRange(events, site.site_id),
      },
      meta: {},
    }),
  })
  route(app, breakdownEndpoint, {
    resolve,
    handle: ({ params: { name }, query, resolved: { site } }) => {
      if (!isBreakdown(name)) {
        throw notFound(`Unknown breakdown "${name}"; one of ${Object.keys(breakdowns).join(', ')}`)
      }
      return reportParts.breakdown(deps, site.site_id, query, name)()
    },
  })
  route(app, sessionEventsEndpoint, {
    resolve,
    handle: async ({ params, query, resolved: { site } }) => {
      const scope = { siteId: site.site_id, params: resolveQueryParams(query, clock()) }
      const { data, total } = await querySessionEvents(events, scope, params.sessionId)
      return { data, meta: pageMeta(scope.params, total) }
    },
  })

  route(app, reportBatchEndpoint, {
    resolve,
    handle: ({ body, query, resolved: { site } }) =>
      runReportBatch(deps, site.site_id, query, body) as Promise<ResponseOf<typeof reportBatchEndpoint>>,
  })
}
