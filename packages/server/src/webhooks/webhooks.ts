/**
 * Webhook subscriptions of a site: create (the secret is returned once), list, get, update, rotate the
 * secret, delete. URLs pass the SSRF guard when saved. Listings never include the secret.
 * Each write is audited on behalf of the acting user (`webhook.created`, `webhook.updated`,
 * `webhook.secret_rotated`, `webhook.deleted`) in its transaction. Audit details name the webhook, its
 * events and the host of its URL, never the secret nor the rest of the URL (a path or query can carry
 * a receiver's token).
 */
import crypto from 'node:crypto'
import {
  type CreateWebhookBody,
  createWebhookBody,
  type UpdateWebhookBody,
  updateWebhookBody,
  type Webhook as WireWebhook,
} from '@pathlight/protocol'
import { recordSiteAudit } from '../audit/audit-log.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { badRequest, notFound } from '../shared/errors.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { fromBool, toBool } from '../storage/metadata/schema.js'
import type { WebhookTable } from '../storage/metadata/webhook-schema.js'
import { generateWebhookSecret } from './sign.js'
import { checkWebhookUrl, UnsafeWebhookUrlError } from './url-guard.js'
import type { WebhookEventType } from './webhook-events.js'

/**
 * A webhook as the API returns it (never the secret, except once from `create` and `rotateSecret`):
 * the protocol's wire shape.
 */
export type Webhook = WireWebhook

/** The request bodies, the protocol's (`webhook-input.ts`). */
export { createWebhookBody, updateWebhookBody }

export function toWebhook(row: WebhookTable): Webhook {
  return {
    id: row.id,
    siteId: Number(row.site_id),
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as WebhookEventType[],
    enabled: toBool(row.enabled),
    disabledReason: row.disabled_reason,
    consecutiveFailures: Number(row.consecutive_failures),
    failingSince: row.failing_since,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/** What a webhook's audit entries say about it: never the secret, and of the URL only its host. */
export function webhookAuditDetails(row: Pick<WebhookTable, 'id' | 'url' | 'events'>) {
  return { webhookId: row.id, host: urlHost(row.url), events: JSON.parse(row.events) as WebhookEventType[] }
}

function urlHost(value: string): string {
  try {
    return new URL(value).host
  } catch {
    return ''
  }
}

export interface WebhookStoreOptions {
  allowPrivate: boolean
  clock?: Clock
  /** Where creations, updates and deletions are announced, so subscription caches drop the site's entry. */
  changes?: ChangeFeed
}

export function createWebhooks(db: MetadataDb, options: WebhookStoreOptions) {
  const clock = options.clock ?? systemClock
  const guard = async (value: string) => {
    try {
      return (await checkWebhookUrl(value, { allowPrivate: options.allowPrivate })).toString()
    } catch (error) {
      if (error instanceof UnsafeWebhookUrlError) {
        throw badRequest('Invalid webhook', { fieldErrors: { url: [error.message] }, formErrors: [] })
      }
      throw error
    }
  }
  const find = async (siteId: number, id: string) => {
    const row = await db
      .selectFrom('webhook')
      .selectAll()
      .where('id', '=', id)
      .where('site_id', '=', siteId)
      .executeTakeFirst()
    if (!row) throw notFound('Webhook not found')
    return row
  }

  return {
    /**
     * Create a webhook of the site on behalf of `userId` from a parsed body (`createWebhookBody`).
     * @returns the webhook and its secret (shown once). @throws 400 naming `url` when the URL is unsafe
     */
    async create(
      siteId: number,
      userId: string,
      body: CreateWebhookBody,
    ): Promise<Webhook & { secret: string }> {
      const now = isoNow(clock)
      const row: WebhookTable = {
        id: crypto.randomUUID(),
        site_id: siteId,
        url: await guard(body.url),
        description: body.description ?? '',
        events: JSON.stringify(body.events),
        secret: generateWebhookSecret(),
        enabled: fromBool(true),
        disabled_reason: null,
        consecutive_failures: 0,
        failing_since: null,
        created_by: userId,
        created_at: now,
        updated_at: now,
      }
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('webhook').values(row).execute()
        await recordSiteAudit(
          trx,
          {
            siteId,
            actorUserId: userId,
            action: 'webhook.created',
            details: { ...webhookAuditDetails(row), description: row.description },
          },
          clock,
        )
      })
      options.changes?.announce({ kind: 'webhooks', siteId })
      return { ...toWebhook(row), secret: row.secret }
    },
    async list(siteId: number): Promise<Webhook[]> {
      const rows = await db
        .selectFrom('webhook')
        .selectAll()
        .where('site_id', '=', siteId)
        .orderBy('created_at')
        .execute()
      return rows.map(toWebhook)
    },
    async get(siteId: number, id: string): Promise<Webhook> {
      return toWebhook(await find(siteId, id))
    },
    /**
     * Change url, events, description or enabled on behalf of `userId`, from a parsed body
     * (`updateWebhookBody`); re-enabling clears the failure record.
     * @throws 404 for an unknown webhook; 400 naming `url` when the URL is unsafe
     */
    async update(siteId: number, userId: string, id: string, body: UpdateWebhookBody): Promise<Webhook> {
      await find(siteId, id)
      const set: Partial<WebhookTable> = { updated_at: isoNow(clock) }
      if (body.url !== undefined) set.url = await guard(body.url)
      if (body.events !== undefined) set.events = JSON.stringify(body.events)
      if (body.description !== undefined) set.description = body.description
      if (body.enabled !== undefined) {
        set.enabled = fromBool(body.enabled)
        if (body.enabled)
          Object.assign(set, { disabled_reason: null, consecutive_failures: 0, failing_since: null })
      }
      await db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('webhook')
          .set(set)
          .where('id', '=', id)
          .where('site_id', '=', siteId)
          .returningAll()
          .executeTakeFirst()
        if (!row) throw notFound('Webhook not found')
        await recordSiteAudit(
          trx,
          {
            siteId,
            actorUserId: userId,
            action: 'webhook.updated',
            details: {
              ...webhookAuditDetails(row),
              enabled: toBool(row.enabled),
              changed: Object.keys(body),
            },
          },
          clock,
        )
      })
      options.changes?.announce({ kind: 'webhooks', siteId })
      return toWebhook(await find(siteId, id))
    },
    /** Replace the signing secret on behalf of `userId`. @returns the new secret (shown once) */
    async rotateSecret(siteId: number, userId: string, id: string): Promise<{ secret: string }> {
      await find(siteId, id)
      const secret = generateWebhookSecret()
      await db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('webhook')
          .set({ secret, updated_at: isoNow(clock) })
          .where('id', '=', id)
          .where('site_id', '=', siteId)
          .executeTakeFirst()
        if (Number(result.numUpdatedRows) === 0) throw notFound('Webhook not found')
        await recordSiteAudit(
          trx,
          { siteId, actorUserId: userId, action: 'webhook.secret_rotated', details: { webhookId: id } },
          clock,
        )
      })
      return { secret }
    },
    /** Delete a webhook and its delivery log on behalf of `userId`. @throws 404 for an unknown webhook */
    async remove(siteId: number, userId: string, id: string): Promise<void> {
      const row = await find(siteId, id)
      await db.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('webhook')
          .where('id', '=', id)
          .where('site_id', '=', siteId)
          .executeTakeFirst()
        if (Number(result.numDeletedRows) === 0) throw notFound('Webhook not found')
        await recordSiteAudit(
          trx,
          { siteId, actorUserId: userId, action: 'webhook.deleted', details: webhookAuditDetails(row) },
          clock,
        )
      })
      options.changes?.announce({ kind: 'webhooks', siteId })
    },
  }
}

export type Webhooks = ReturnType<typeof createWebhooks>
