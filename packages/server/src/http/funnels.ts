/**
 * Routes: the saved funnels of a site, registered from their contracts (`@pathlight/protocol`
 * `contracts/funnels.ts`): members list them (`GET .../funnels`), admins and owners write them (POST,
 * PATCH, DELETE; audited). The figures and their sessions, saved (`GET .../funnels/{funnelId}`,
 * `GET .../funnels/{funnelId}/sessions`) or ad hoc (`POST .../funnels/query`, `POST .../funnels/sessions`),
 * are reports of the registry (`conversion-report-parts.ts`, registered by `reports.ts`). Routes only
 * translate: the contracts parse the input, `funnels/funnels.ts` keeps the funnels. Each change
 * resolves the site (and the saved funnel) before its body is parsed.
 */
import {
  createFunnelEndpoint,
  deleteFunnelEndpoint,
  listFunnelsEndpoint,
  updateFunnelEndpoint,
} from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForAdmin, siteForMember } from '../auth/site-access.js'
import { createFunnel, deleteFunnel, findFunnel, listFunnels, updateFunnel } from '../funnels/funnels.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { route } from './route.js'

/** What the funnel routes need: the metadata store and the clock (the funnels' timestamps). */
export interface FunnelRouteOptions {
  db: MetadataDb
  /** The system clock when omitted. */
  clock?: Clock
}

/** The routes listed in the module comment. Errors: AppErrors (400 naming the field, 401, 403, 404). */
export async function funnelRoutes(app: FastifyInstance, { db, clock = systemClock }: FunnelRouteOptions) {
  const commands = { db, clock }
  const memberSite = async (userId: string, siteId: string) => (await siteForMember(db, userId, siteId)).site
  const adminSite = async (userId: string, siteId: string) => (await siteForAdmin(db, userId, siteId)).site

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
