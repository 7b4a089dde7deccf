/**
 * Routes: a site's webhooks and their delivery log (admin or owner), registered from their contracts
 * (`@pathlight/protocol` `contracts/webhooks.ts`: paths, schemas, answers, access). Authenticated
 * scope. Each route resolves the site (and the webhook, where one is named) before its query or body
 * is parsed, so access answers (401, 403, 404) come before invalid input.
 */
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhooksEndpoint,
  redeliverEndpoint,
  rotateWebhookSecretEndpoint,
  updateWebhookEndpoint,
  webhookDeliveriesEndpoint,
} from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { siteForAdmin } from '../auth/site-access.js'
import type { Clock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { listDeliveries, redeliver } from '../webhooks/delivery-log.js'
import type { Webhooks } from '../webhooks/webhooks.js'
import { pageMeta } from './page-meta.js'
import { route } from './route.js'
import { wholeList } from './whole-list.js'

/** The delivery log's page size when the query names none. */
const DEFAULT_DELIVERIES_LIMIT = 20

/** POST/GET `.../webhooks`, GET/PATCH/DELETE `.../webhooks/{id}`, its secret, deliveries, redelivery. */
export async function webhookRoutes(
  app: FastifyInstance,
  { db, webhooks, clock }: { db: MetadataDb; webhooks: Webhooks; clock: Clock },
) {
  const adminSite = async (userId: string, siteId: string) => (await siteForAdmin(db, userId, siteId)).site

  route(app, createWebhookEndpoint, {
    resolve: ({ params, caller }) => adminSite(caller.userId, params.siteId),
    handle: async ({ body, caller, resolved: site }) => ({
      success: true as const,
      data: await webhooks.create(site.site_id, caller.userId, body),
    }),
  })

  route(app, listWebhooksEndpoint, async ({ params, caller }) => {
    const site = await adminSite(caller.userId, params.siteId)
    return wholeList(await webhooks.list(site.site_id))
  })

  route(app, getWebhookEndpoint, async ({ params, caller }) => {
    const site = await adminSite(caller.userId, params.siteId)
    return { success: true as const, data: await webhooks.get(site.site_id, params.id) }
  })

  route(app, updateWebhookEndpoint, {
    resolve: ({ params, caller }) => adminSite(caller.userId, params.siteId),
    handle: async ({ params, body, caller, resolved: site }) => ({
      success: true as const,
      data: await webhooks.update(site.site_id, caller.userId, params.id, body),
    }),
  })

  route(app, rotateWebhookSecretEndpoint, async ({ params, caller }) => {
    const site = await adminSite(caller.userId, params.siteId)
    return {
      success: true as const,
      data: await webhooks.rotateSecret(site.site_id, caller.userId, params.id),
    }
  })

  route(app, deleteWebhookEndpoint, async ({ params, caller }) => {
    const site = await adminSite(caller.userId, params.siteId)
    await webhooks.remove(site.site_id, caller.userId, params.id)
    return { success: true as const }
  })

  route(app, webhookDeliveriesEndpoint, {
    resolve: async ({ params, caller }) => {
      const site = await adminSite(caller.userId, params.siteId)
      await webhooks.get(site.site_id, params.id)
    },
    handle: async ({ params, query }) => {
      const page = { page: query.page ?? 1, limit: query.limit ?? DEFAULT_DELIVERIES_LIMIT }
      const { data, total } = await listDeliveries(db, params.id, page)
      return { data, meta: pageMeta(page, total) }
    },
  })

  route(app, redeliverEndpoint, async ({ params, caller }) => {
    const site = await adminSite(caller.userId, params.siteId)
    await webhooks.get(site.site_id, params.id)
    return {
      success: true as const,
      data: await redeliver(db, caller.userId, params.id, params.deliveryId, clock),
    }
  })
}
