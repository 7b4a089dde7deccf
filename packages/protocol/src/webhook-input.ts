/**
 * The bodies that create and change a webhook, with the messages a 400 names the field by. Only the
 * shape is checked here; that the URL resolves to public addresses is the server's check (its SSRF
 * guard, when the webhook is saved).
 */
import { z } from 'zod'
import { webhookEventTypes } from './enums.js'
import { isNulFree, nulMessage } from './nul-free.js'

const url = z.string().trim().min(1, 'url is required').max(2048, 'url must be at most 2048 characters')
/** The events subscribed to, at least one; repeats are dropped. */
const events = z
  .array(z.enum(webhookEventTypes, { error: `must be one of ${webhookEventTypes.join(', ')}` }))
  .min(1, 'select at least one event')
  .transform((list) => [...new Set(list)])
const description = z
  .string()
  .trim()
  .max(500, 'description must be at most 500 characters')
  .refine(isNulFree, nulMessage('description'))

/** A new webhook: `url` (http or https), `events`, and an optional `description` (default ''). */
export const createWebhookBody = z.object({ url, events, description: description.optional() })

/** Any subset of a webhook's `url`, `events`, `description` and `enabled`; unknown fields are refused. */
export const updateWebhookBody = z
  .object({ url, events, description, enabled: z.boolean({ error: 'must be true or false' }) })
  .partial()
  .strict()

/** A parsed new webhook. */
export type CreateWebhookBody = z.output<typeof createWebhookBody>
/** A parsed change of a webhook. */
export type UpdateWebhookBody = z.output<typeof updateWebhookBody>
