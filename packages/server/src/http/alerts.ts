/**
 * Routes: a site's alert rules (admin or owner), registered from their contracts (`@pathlight/protocol`
 * `contracts/alerts.ts`: paths, schemas, answers, access). Authenticated scope. Each route resolves the
 * site before its body is parsed, so access answers (401, 403, 404) come before invalid input.
 */
import {
  createAlertEndpoint,
  deleteAlertEndpoint,
  getAlertEndpoint,
  listAlertsEndpoint,
  updateAlertEndpoint,
} from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import type { AlertRules } from '../alerts/alert-rules.js'
import { siteForAdmin } from '../auth/site-access.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { route } from './route.js'
import { wholeList } from './whole-list.js'

/** POST/GET `/api/sites/{siteId}/alerts`, GET/PATCH/DELETE `.../alerts/{id}`. */
export async function alertRoutes(
  app: FastifyInstance,
  { db, alerts }: { db: MetadataDb; alerts: AlertRules },
) {
  const adminSite = async (userId: string, siteId: string) => (await siteForAdmin(db, userId, siteId)).site

  route(app, createAlertEndpoint, {
    resolve: ({ params, caller }) => adminSite(caller.userId, params.siteId),
    handle: async ({ body, caller, resolved: site }) => ({
      success: true as const,
      data: await alerts.create(site.site_id, caller.userId, body),
    }),
  })

  route(app, listAlertsEndpoint, async ({ params, caller }) => {
    const site = await adminSite(caller.userId, params.siteId)
    return wholeList(await alerts.list(site.site_id))
  })

  route(app, getAlertEndpoint, async ({ params, caller }) => {
    const site = await adminSite(caller.userId, params.siteId)
    return { success: true as const, data: await alerts.get(site.site_id, params.id) }
  })

  route(app, updateAlertEndpoint, {
    resolve: ({ params, caller }) => adminSite(caller.userId, params.siteId),
    handle: async ({ params, body, caller, resolved: site }) => ({
      success: true as const,
      data: await alerts.update(site.site_id, caller.userId, params.id, body),
    }),
  })

  route(app, deleteAlertEndpoint, async ({ params, caller }) => {
    const site = await adminSite(caller.userId, params.siteId)
    await alerts.remove(site.site_id, caller.userId, params.id)
    return { success: true as const }
  })
}
