/**
 * Routes: a site's webhooks and their delivery log (admin or owner). Authenticated scope.
 */
import {
  createdWebhook,
  delivery,
  doc,
  pagedList,
  redelivery,
  successData,
  successList,
  webhook,
  webhookSecret,
} from '@pathlight/protocol'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { siteForAdmin } from '../auth/site-access.js'
import { badRequest } from '../shared/errors.js'
import type { Clock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { listDeliveries, redeliver } from '../webhooks/delivery-log.js'
import type { Webhooks } from '../webhooks/webhooks.js'
import { createWebhookBody, updateWebhookBody } from '../webhooks/webhooks.js'
import { callerOf } from './caller-of.js'
import { deleted } from './openapi/doc-parts.js'
import { json } from './openapi/route-doc.js'
import { pageMeta } from './page-meta.js'
import { wholeList } from './whole-list.js'

/** The delivery log's paging (`http/webhooks.ts`). */
export const deliveriesQuery = z.object({
  page: doc(z.int().min(1), '1-based page number; default 1').optional(),
  limit: doc(z.int().min(1).max(100), 'Deliveries per page; default 20').optional(),
})

type Params = { Params: { siteId: string; id: string } }
type SiteParams = { Params: { siteId: string } }

const pageQuery = z.object({
  page: z.coerce.number().int().min(1, 'page must be at least 1').default(1),
  limit: z.coerce.number().int().min(1).max(100, 'limit must be at most 100').default(20),
})

export async function webhookRoutes(
  app: FastifyInstance,
  { db, webhooks, clock }: { db: MetadataDb; webhooks: Webhooks; clock: Clock },
) {
  const adminSite = async (request: FastifyRequest<SiteParams>) =>
    (await siteForAdmin(db, callerOf(request).userId, request.params.siteId)).site

  app.post<SiteParams>(
    '/api/sites/:siteId/webhooks',
    {
      config: {
        doc: {
          summary: 'Subscribe a URL to events',
          description:
            'The URL must be http(s) and resolve to public addresses (unless WEBHOOKS_ALLOW_PRIVATE).',
          tag: 'Webhooks',
          access: 'admin',
          body: createWebhookBody,
          responses: {
            201: json('Created; the signing secret is shown only now', successData(createdWebhook)),
          },
        },
      },
    },
    async (request, reply) => {
      const site = await adminSite(request)
      const created = await webhooks.create(site.site_id, callerOf(request).userId, request.body)
      return reply.code(201).send({ success: true, data: created })
    },
  )

  app.get<SiteParams>(
    '/api/sites/:siteId/webhooks',
    {
      config: {
        doc: {
          summary: "The site's webhooks",
          tag: 'Webhooks',
          access: 'admin',
          responses: { 200: json('Oldest first', successList(webhook)) },
        },
      },
    },
    async (request) => {
      const site = await adminSite(request)
      return wholeList(await webhooks.list(site.site_id))
    },
  )

  app.get<Params>(
    '/api/sites/:siteId/webhooks/:id',
    {
      config: {
        doc: {
          summary: 'A webhook',
          tag: 'Webhooks',
          access: 'admin',
          params: { id: 'The webhook id' },
          responses: { 200: json('The webhook', successData(webhook)) },
        },
      },
    },
    async (request) => {
      const site = await adminSite(request)
      return { success: true, data: await webhooks.get(site.site_id, request.params.id) }
    },
  )

  app.patch<Params>(
    '/api/sites/:siteId/webhooks/:id',
    {
      config: {
        doc: {
          summary: 'Change a webhook',
          description: 'Re-enabling (`enabled: true`) clears an automatic disable.',
          tag: 'Webhooks',
          access: 'admin',
          params: { id: 'The webhook id' },
          body: updateWebhookBody,
          responses: { 200: json('The webhook after the change', successData(webhook)) },
        },
      },
    },
    async (request) => {
      const site = await adminSite(request)
      const data = await webhooks.update(
        site.site_id,
        callerOf(request).userId,
        request.params.id,
        request.body,
      )
      return { success: true, data }
    },
  )

  app.post<Params>(
    '/api/sites/:siteId/webhooks/:id/rotate-secret',
    {
      config: {
        doc: {
          summary: "Replace a webhook's signing secret",
          tag: 'Webhooks',
          access: 'admin',
          params: { id: 'The webhook id' },
          responses: { 200: json('The new secret, shown only now', successData(webhookSecret)) },
        },
      },
    },
    async (request) => {
      const site = await adminSite(request)
      const data = await webhooks.rotateSecret(site.site_id, callerOf(request).userId, request.params.id)
      return { success: true, data }
    },
  )

  app.delete<Params>(
    '/api/sites/:siteId/webhooks/:id',
    {
      config: {
        doc: {
          summary: 'Delete a webhook and its delivery log',
          tag: 'Webhooks',
          access: 'admin',
          params: { id: 'The webhook id' },
          responses: { 200: deleted },
        },
      },
    },
    async (request) => {
      const site = await adminSite(request)
      await webhooks.remove(site.site_id, callerOf(request).userId, request.params.id)
      return { success: true }
    },
  )

  app.get<Params & { Querystring: Record<string, string> }>(
    '/api/sites/:siteId/webhooks/:id/deliveries',
    {
      config: {
        doc: {
          summary: "A webhook's delivery log",
          tag: 'Webhooks',
          access: 'admin',
          params: { id: 'The webhook id' },
          query: deliveriesQuery,
          responses: { 200: json('Newest first', pagedList(delivery)) },
        },
      },
    },
    async (request) => {
      const site = await adminSite(request)
      await webhooks.get(site.site_id, request.params.id)
      const parsed = pageQuery.safeParse(request.query)
      if (!parsed.success) throw badRequest('Invalid query', z.flattenError(parsed.error))
      const { data, total } = await listDeliveries(db, request.params.id, parsed.data)
      return {
        data,
        meta: pageMeta(parsed.data, total),
      }
    },
  )

  app.post<{ Params: { siteId: string; id: string; deliveryId: string } }>(
    '/api/sites/:siteId/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      config: {
        doc: {
          summary: "Send a delivery's payload again, as a new delivery",
          tag: 'Webhooks',
          access: 'admin',
          params: { id: 'The webhook id' },
          responses: { 202: json('Queued', successData(redelivery)) },
        },
      },
    },
    async (request, reply) => {
      const site = await adminSite(request)
      await webhooks.get(site.site_id, request.params.id)
      const { userId } = callerOf(request)
      const result = await redeliver(db, userId, request.params.id, request.params.deliveryId, clock)
      return reply.code(202).send({ success: true, data: result })
    },
  )
}
