/**
 * Routes: funnels of a site, registered from their contracts (`@pathlight/protocol`
 * `contracts/funnels.ts`). Analytics scope:
 * - ad-hoc reads take any reader of the site (member, private link key, anyone for a public site):
 *   `POST .../funnels/query` (`{steps}` → `{data: FunnelReport}`) and `POST .../funnels/sessions`
 *   (`{steps}` → the sessions behind one figure, `{data: [Session], meta}`); both are POSTs that only
 *   read (a `read` API key may call them);
 * - saved funnels: members read (`GET .../funnels`, `GET .../funnels/{funnelId}` with results,
 *   `GET .../funnels/{funnelId}/sessions`), admins and owners write (POST, PATCH, DELETE; audited).
 * Every figure takes the common query parameters and `breakdown=<filter parameter>`. Routes only
 * translate: the contracts parse the input, `funnels/funnels.ts` keeps the funnels, `query/funnel-*.ts`
 * counts them. Each route resolves the site (and the saved funnel) before its query or body is parsed.
 */
import {
  createFunnelEndpoint,
  deleteFunnelEndpoint,
  type FunnelSessionsQuery,
  funnelFiguresEndpoint,
  funnelSessionsEndpoint,
  getFunnelEndpoint,
  listFunnelsEndpoint,
  savedFunnelSessionsEndpoint,
  updateFunnelEndpoint,
} from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForAdmin, siteForMember, siteForReader } from '../auth/site-access.js'
import type { FunnelStep } from '../funnels/funnel.js'
import { toFunnelSteps } from '../funnels/funnel-input.js'
import { createFunnel, deleteFunnel, findFunnel, listFunnels, updateFunnel } from '../funnels/funnels.js'
import { queryFunnelReport } from '../query/funnel-report.js'
import { type FunnelSelection, queryFunnelSessions } from '../query/funnel-sessions.js'
import { invalidParameters, resolveQueryParams } from '../query/params.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { pageMeta } from './page-meta.js'
import { route } from './route.js'

/** The sessions routes' selection, checked against the steps. @throws AppError 400 naming the parameter */
function selectionOf(query: FunnelSessionsQuery, steps: readonly FunnelStep[]): FunnelSelection {
  const outcome = query.outcome ?? 'reached'
  if (query.step > steps.length) throw invalidParameters({ step: [`step must be at most ${steps.length}`] })
  if (outcome === 'dropped' && query.step === steps.length) {
    throw invalidParameters({ step: ['no session drops after the last step: give a step before it'] })
  }
  if ((query.breakdown === undefined) !== (query.breakdown_value === undefined)) {
    throw invalidParameters({ breakdown_value: ['breakdown and breakdown_value go together'] })
  }
  return {
    step: query.step,
    outcome,
    ...(query.breakdown === undefined || query.breakdown_value === undefined
      ? {}
      : { breakdown: { parameter: query.breakdown, value: query.breakdown_value } }),
  }
}

/** What the funnel routes need: the metadata store, the events store and the clock (default range). */
export interface FunnelRouteOptions {
  db: MetadataDb
  events: EventsStore
  /** The system clock when omitted. */
  clock?: Clock
}

/** The routes listed in the module comment. Errors: AppErrors (400 naming the field, 401, 403, 404). */
export async function funnelRoutes(
  app: FastifyInstance,
  { db, events, clock = systemClock }: FunnelRouteOptions,
) {
  const commands = { db, clock }
  const memberSite = async (userId: string, siteId: string) => (await siteForMember(db, userId, siteId)).site
  const adminSite = async (userId: string, siteId: string) => (await siteForAdmin(db, userId, siteId)).site
  /** The member's site and its saved funnel (404 for another site's). */
  const savedFunnel = async (userId: string, siteId: string, funnelId: string) => {
    const site = await memberSite(userId, siteId)
    return { site, saved: await findFunnel(db, site.site_id, funnelId) }
  }

  route(app, funnelFiguresEndpoint, {
    resolve: async ({ params, reader }) => (await siteForReader(db, reader, params.siteId)).site,
    handle: async ({ query, body, resolved: site }) => {
      const scope = { siteId: site.site_id, params: resolveQueryParams(query, clock()) }
      return { data: await queryFunnelReport(events, scope, toFunnelSteps(body.steps), query.breakdown) }
    },
  })

  route(app, funnelSessionsEndpoint, {
    resolve: async ({ params, reader }) => (await siteForReader(db, reader, params.siteId)).site,
    handle: async ({ query, body, resolved: site }) => {
      const scope = { siteId: site.site_id, params: resolveQueryParams(query, clock()) }
      const steps = toFunnelSteps(body.steps)
      const { data, total } = await queryFunnelSessions(events, scope, steps, selectionOf(query, steps))
      return { data, meta: pageMeta(scope.params, total) }
    },
  })

  route(app, listFunnelsEndpoint, async ({ params, caller }) => {
    const site = await memberSite(caller.userId, params.siteId)
    const data = await listFunnels(db, site.site_id)
    return { success: true as const, data, meta: { total: data.length } }
  })

  route(app, createFunnelEndpoint, {
    resolve: ({ params, caller }) => adminSite(caller.userId, params.siteId),
    handle: async ({ body, caller, resolved: site }) => ({
      success: true as const,
      data: await createFunnel(commands, site, caller.userId, body),
    }),
  })

  route(app, getFunnelEndpoint, {
    resolve: ({ params, caller }) => savedFunnel(caller.userId, params.siteId, params.funnelId),
    handle: async ({ query, resolved: { site, saved } }) => {
      const scope = { siteId: site.site_id, params: resolveQueryParams(query, clock()) }
      const results = await queryFunnelReport(events, scope, saved.steps, query.breakdown)
      return { data: { ...saved, results } }
    },
  })

  route(app, savedFunnelSessionsEndpoint, {
    resolve: ({ params, caller }) => savedFunnel(caller.userId, params.siteId, params.funnelId),
    handle: async ({ query, resolved: { site, saved } }) => {
      const scope = { siteId: site.site_id, params: resolveQueryParams(query, clock()) }
      const selection = selectionOf(query, saved.steps)
      const { data, total } = await queryFunnelSessions(events, scope, saved.steps, selection)
      return { data, meta: pageMeta(scope.params, total) }
    },
  })

  route(app, updateFunnelEndpoint, {
    resolve: async ({ params, caller }) => {
      const site = await adminSite(caller.userId, params.siteId)
      return { site, current: await findFunnel(db, site.site_id, params.funnelId) }
    },
    handle: async ({ body, caller, resolved: { site, current } }) => ({
      success: true as const,
      data: await updateFunnel(commands, site, caller.userId, current, body),
    }),
  })

  route(app, deleteFunnelEndpoint, async ({ params, caller }) => {
    const site = await adminSite(caller.userId, params.siteId)
    await deleteFunnel(commands, site, caller.userId, params.funnelId)
    return { success: true as const }
  })
}
