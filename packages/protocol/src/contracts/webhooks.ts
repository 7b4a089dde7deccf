/**
 * The webhook endpoints of a site (admins and owners): create, list, read, change, rotate the signing
 * secret, delete, and the delivery log with its redelivery.
 */
import { z } from 'zod'
import { integerParam, MAX_PAGE } from '../analytics-query.js'
import { endpoint } from '../contract.js'
import { doc } from '../openapi-registry.js'
import {
  createdWebhook,
  delivery,
  pagedList,
  redelivery,
  successData,
  successList,
  successResponse,
  webhook,
  webhookSecret,
} from '../response-schemas.js'
import { createWebhookBody, updateWebhookBody } from '../webhook-input.js'
import * as at from './addresses.js'

/** `:siteId`, as text: an id that names no site is a 404 of the access check, not a 400. */
const siteParams = z.object({ siteId: z.string() })
/** `:siteId` and `:id`, the webhook's id (an unknown one is a 404). */
export const webhookParams = z.object({ siteId: z.string(), id: doc(z.string(), 'The webhook id') })
/** `:siteId`, `:id` and `:deliveryId`, a delivery of that webhook (an unknown one is a 404). */
const deliveryParams = webhookParams.extend({ deliveryId: z.string() })

/** The delivery log's paging: `page` (default 1) and `limit` (default 20, at most 100). */
export const deliveriesQuery = z.object({
  page: doc(integerParam('page', 1, MAX_PAGE), '1-based page number; default 1').optional(),
  limit: doc(integerParam('limit', 1, 100), 'Deliveries per page; default 20').optional(),
})

/** `POST /api/sites/:siteId/webhooks`: subscribe a URL; answers the webhook with its secret, once. */
export const createWebhookEndpoint = endpoint({
  ...at.createWebhook,
  summary: 'Subscribe a URL to events',
  description: 'The URL must be http(s) and resolve to public addresses (unless WEBHOOKS_ALLOW_PRIVATE).',
  tag: 'Webhooks',
  access: 'admin',
  params: siteParams,
  body: createWebhookBody,
  bodySubject: 'webhook',
  bodyFieldsInDetails: true,
  responses: {
    201: {
      description: 'Created; the signing secret is shown only now',
      schema: successData(createdWebhook),
    },
  },
})

/** `GET /api/sites/:siteId/webhooks`: the site's webhooks, oldest first (never their secrets). */
export const listWebhooksEndpoint = endpoint({
  ...at.listWebhooks,
  summary: "The site's webhooks",
  tag: 'Webhooks',
  access: 'admin',
  params: siteParams,
  responses: { 200: { description: 'Oldest first', schema: successList(webhook) } },
})

/** `GET /api/sites/:siteId/webhooks/:id`: one webhook. */
export const getWebhookEndpoint = endpoint({
  ...at.getWebhook,
  summary: 'A webhook',
  tag: 'Webhooks',
  access: 'admin',
  params: webhookParams,
  responses: { 200: { description: 'The webhook', schema: successData(webhook) } },
})

/** `PATCH /api/sites/:siteId/webhooks/:id`: change any subset of a webhook; answers it after. */
export const updateWebhookEndpoint = endpoint({
  ...at.updateWebhook,
  summary: 'Change a webhook',
  description: 'Re-enabling (`enabled: true`) clears an automatic disable.',
  tag: 'Webhooks',
  access: 'admin',
  params: webhookParams,
  body: updateWebhookBody,
  bodySubject: 'webhook',
  bodyFieldsInDetails: true,
  responses: { 200: { description: 'The webhook after the change', schema: successData(webhook) } },
})

/** `POST /api/sites/:siteId/webhooks/:id/rotate-secret`: a new signing secret, shown once. */
export const rotateWebhookSecretEndpoint = endpoint({
  ...at.rotateWebhookSecret,
  summary: "Replace a webhook's signing secret",
  tag: 'Webhooks',
  access: 'admin',
  params: webhookParams,
  responses: { 200: { description: 'The new secret, shown only now', schema: successData(webhookSecret) } },
})

/** `DELETE /api/sites/:siteId/webhooks/:id`: delete a webhook and its delivery log, irreversibly. */
export const deleteWebhookEndpoint = endpoint({
  ...at.deleteWebhook,
  summary: 'Delete a webhook and its delivery log',
  tag: 'Webhooks',
  access: 'admin',
  params: webhookParams,
  responses: { 200: { description: 'Deleted', schema: successResponse } },
})

/** `GET /api/sites/:siteId/webhooks/:id/deliveries`: a page of the delivery log, newest first. */
export const webhookDeliveriesEndpoint = endpoint({
  ...at.webhookDeliveries,
  summary: "A webhook's delivery log",
  tag: 'Webhooks',
  access: 'admin',
  params: webhookParams,
  query: deliveriesQuery,
  responses: { 200: { description: 'Newest first', schema: pagedList(delivery) } },
})

/** `POST .../webhooks/:id/deliveries/:deliveryId/redeliver`: queue the payload again, as a new delivery. */
export const redeliverEndpoint = endpoint({
  ...at.redeliver,
  summary: "Send a delivery's payload again, as a new delivery",
  tag: 'Webhooks',
  access: 'admin',
  params: deliveryParams,
  responses: { 202: { description: 'Queued', schema: successData(redelivery) } },
})

/** Every webhook endpoint (the route/contract coverage test reads these). */
export const webhookEndpoints = [
  createWebhookEndpoint,
  listWebhooksEndpoint,
  getWebhookEndpoint,
  updateWebhookEndpoint,
  rotateWebhookSecretEndpoint,
  deleteWebhookEndpoint,
  webhookDeliveriesEndpoint,
  redeliverEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    createWebhook: typeof createWebhookEndpoint
    listWebhooks: typeof listWebhooksEndpoint
    getWebhook: typeof getWebhookEndpoint
    updateWebhook: typeof updateWebhookEndpoint
    rotateWebhookSecret: typeof rotateWebhookSecretEndpoint
    deleteWebhook: typeof deleteWebhookEndpoint
    webhookDeliveries: typeof webhookDeliveriesEndpoint
    redeliver: typeof redeliverEndpoint
  }
}
