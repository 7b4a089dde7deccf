/**
 * Delivering the outbox: claim due deliveries, make one attempt each, record it, and schedule the next
 * try or finish. Claims are atomic across workers: on PostgreSQL `FOR UPDATE SKIP LOCKED` plus a lease
 * (`locked_until`, 60 s), on SQLite the single-writer UPDATE ... RETURNING; a worker that dies mid-attempt
 * leaves a lease that expires, and the delivery is tried again (at-least-once; receivers de-duplicate on
 * X-Pathlight-Delivery). A webhook whose deliveries have all failed for `disableAfterMs` (3 days) is
 * disabled, with the reason recorded for its owner.
 */
import type { ChangeFeed } from '../shared/change-feed.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import { claimDueRows } from '../storage/metadata/claim-due-rows.js'
import type { MetadataStore } from '../storage/metadata/db.js'
import { fromBool, toBool } from '../storage/metadata/schema.js'
import type { WebhookDeliveryTable } from '../storage/metadata/webhook-schema.js'
import type { AttemptResult } from './post-webhook.js'
import { nextRetryDelay } from './retry-schedule.js'
import { signPayload } from './sign.js'

export const LEASE_MS = 60_000
export const DISABLE_AFTER_MS = 3 * 86_400_000

export type Post = (url: string, body: string, headers: Record<string, string>) => Promise<AttemptResult>

export interface DeliveryRunnerOptions {
  post: Post
  clock?: Clock
  random?: () => number
  batchSize?: number
  disableAfterMs?: number
  /** Where a webhook's change of state (disabled) is announced, so subscription caches drop it. */
  changes?: ChangeFeed
}

/** One pass: claim what is due, attempt each, record. @returns how many deliveries were attempted */
export function createDeliveryRunner(store: MetadataStore, options: DeliveryRunnerOptions) {
  const clock = options.clock ?? systemClock
  const batchSize = options.batchSize ?? 20
  const disableAfter = options.disableAfterMs ?? DISABLE_AFTER_MS

  function claim(): Promise<WebhookDeliveryTable[]> {
    return claimDueRows<WebhookDeliveryTable>(store, 'webhook_delivery', {
      clock,
      leaseMs: LEASE_MS,
      batchSize,
    })
  }

  async function attempt(delivery: WebhookDeliveryTable): Promise<void> {
    const db = store.db
    const webhook = await db
      .selectFrom('webhook')
      .selectAll()
      .where('id', '=', delivery.webhook_id)
      .executeTakeFirst()
    if (!webhook) return // deleted meanwhile: its deliveries went with it
    if (!toBool(webhook.enabled)) {
      await db
        .updateTable('webhook_delivery')
        .set({ status: 'failed', last_error: 'webhook disabled', locked_until: null })
        .where('id', '=', delivery.id)
        .execute()
      return
    }
    const attemptNumber = Number(delivery.attempts) + 1
    const startedAt = isoNow(clock)
    const result = await options.post(webhook.url, delivery.payload, {
      'user-agent': 'Pathlight-Webhooks/1',
      'x-pathlight-signature': signPayload(delivery.payload, webhook.secret),
      'x-pathlight-event': delivery.event_type,
      'x-pathlight-delivery': delivery.id,
      'x-pathlight-timestamp': startedAt,
    })
    const finishedAt = isoNow(clock)
    const retryIn = result.ok ? null : nextRetryDelay(attemptNumber, options.random)
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('webhook_attempt')
        .values({
          delivery_id: delivery.id,
          attempt: attemptNumber,
          status_code: result.statusCode,
          response_body: result.responseBody,
          error: result.error,
          started_at: startedAt,
          duration_ms: result.durationMs,
        })
        .execute()
      await trx
        .updateTable('webhook_delivery')
        .set({
          attempts: attemptNumber,
          last_status_code: result.statusCode,
          last_error: result.error,
          locked_until: null,
          ...(result.ok
            ? { status: 'delivered', delivered_at: finishedAt }
            : retryIn === null
              ? { status: 'failed' }
              : { next_attempt_at: new Date(clock() + retryIn).toISOString() }),
        })
        .where('id', '=', delivery.id)
        .execute()
      if (result.ok) {
        await trx
          .updateTable('webhook')
          .set({ consecutive_failures: 0, failing_since: null })
          .where('id', '=', webhook.id)
          .execute()
        return
      }
      const failingSince = webhook.failing_since ?? startedAt
      const failures = Number(webhook.consecutive_failures) + 1
      const disable = clock() - Date.parse(failingSince) >= disableAfter
      await trx
        .updateTable('webhook')
        .set({
          consecutive_failures: failures,
          failing_since: failingSince,
          ...(disable
            ? {
                enabled: fromBool(false),
                disabled_reason: `Disabled automatically on ${finishedAt}: every delivery has failed since ${failingSince} (${failures} failed attempts; last: ${result.error ?? 'unknown error'})`,
              }
            : {}),
        })
        .where('id', '=', webhook.id)
        .execute()
      if (disable) options.changes?.announce({ kind: 'webhooks', siteId: Number(webhook.site_id) })
    })
  }

  return {
    claim,
    /** Claim and attempt one batch. */
    async runOnce(): Promise<number> {
      const due = await claim()
      await Promise.all(due.map(attempt))
      return due.length
    },
  }
}

export type DeliveryRunner = ReturnType<typeof createDeliveryRunner>
