/**
 * The delivery audit log of a webhook: its deliveries, newest first, each with every attempt (status
 * code, response body truncated to 2,048 characters, error, start time, duration), and manual
 * redelivery, which enqueues a new delivery of the same payload (audited as `webhook.redelivered`).
 */
import crypto from 'node:crypto'
import type { Delivery } from '@pathlight/protocol'
import { recordSiteAudit } from '../audit/audit-log.js'
import { notFound } from '../shared/errors.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'

/** @returns one page of deliveries and the total count */
export async function listDeliveries(
  db: MetadataDb,
  webhookId: string,
  page: { page: number; limit: number },
): Promise<{ data: Delivery[]; total: number }> {
  const rows = await db
    .selectFrom('webhook_delivery')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(page.limit)
    .offset((page.page - 1) * page.limit)
    .execute()
  const [count] = await db
    .selectFrom('webhook_delivery')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('webhook_id', '=', webhookId)
    .execute()
  const attempts =
    rows.length === 0
      ? []
      : await db
          .selectFrom('webhook_attempt')
          .selectAll()
          .where(
            'delivery_id',
            'in',
            rows.map((r) => r.id),
          )
          .orderBy('seq')
          .execute()
  return {
    total: Number(count?.n ?? 0),
    data: rows.map((r) => ({
      id: r.id,
      eventType: r.event_type,
      status: r.status,
      attempts: Number(r.attempts),
      nextAttemptAt: r.status === 'pending' ? r.next_attempt_at : null,
      lastStatusCode: r.last_status_code === null ? null : Number(r.last_status_code),
      lastError: r.last_error,
      createdAt: r.created_at,
      deliveredAt: r.delivered_at,
      payload: JSON.parse(r.payload) as unknown,
      attemptLog: attempts
        .filter((a) => a.delivery_id === r.id)
        .map((a) => ({
          attempt: Number(a.attempt),
          statusCode: a.status_code === null ? null : Number(a.status_code),
          responseBody: a.response_body,
          error: a.error,
          startedAt: a.started_at,
          durationMs: Number(a.duration_ms),
        })),
    })),
  }
}

/**
 * Enqueue the payload of an earlier delivery again, as a new delivery, on behalf of `actorUserId`
 * (audited on the webhook's site). @throws 404 unknown delivery
 */
export async function redeliver(
  db: MetadataDb,
  actorUserId: string,
  webhookId: string,
  deliveryId: string,
  clock: Clock = systemClock,
): Promise<{ deliveryId: string }> {
  const original = await db
    .selectFrom('webhook_delivery')
    .selectAll()
    .where('id', '=', deliveryId)
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst()
  if (!original) throw notFound('Delivery not found')
  const now = isoNow(clock)
  const id = crypto.randomUUID()
  await db.transaction().execute(async (trx) => {
    const webhook = await trx
      .selectFrom('webhook')
      .select('site_id')
      .where('id', '=', webhookId)
      .executeTakeFirst()
    if (!webhook) throw notFound('Webhook not found')
    await trx
      .insertInto('webhook_delivery')
      .values({
        ...original,
        id,
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        locked_until: null,
        last_status_code: null,
        last_error: null,
        created_at: now,
        delivered_at: null,
      })
      .execute()
    await recordSiteAudit(
      trx,
      {
        siteId: Number(webhook.site_id),
        actorUserId,
        action: 'webhook.redelivered',
        details: { webhookId, deliveryId, redeliveryId: id, eventType: original.event_type },
      },
      clock,
    )
  })
  return { deliveryId: id }
}
