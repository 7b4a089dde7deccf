/**
 * Series of webhook delivery: `pathlight_webhook_outbox_pending_deliveries` (the outbox backlog, read
 * from the metadata store at each scrape) and `pathlight_webhook_delivery_failures_total{reason}`
 * (failed delivery attempts made by this process).
 */
import { Counter, Gauge, type Registry } from 'prom-client'
import type { MetadataDb } from '../storage/metadata/db.js'
import { outboxBacklog } from '../webhooks/outbox-backlog.js'
import type { AttemptResult } from '../webhooks/post-webhook.js'

export interface WebhookMetrics {
  /** Count one delivery attempt (only failures are counted). */
  attempted(result: Pick<AttemptResult, 'ok' | 'statusCode'>): void
}

/** Register the webhook series on `registry`. */
export function registerWebhookMetrics(registry: Registry, db: MetadataDb): WebhookMetrics {
  new Gauge({
    name: 'pathlight_webhook_outbox_pending_deliveries',
    help: 'Webhook deliveries pending (due, or waiting for a retry) in the outbox, all sites.',
    registers: [registry],
    async collect() {
      this.set(await outboxBacklog(db))
    },
  })
  const failures = new Counter({
    name: 'pathlight_webhook_delivery_failures_total',
    help: 'Failed webhook delivery attempts by this process, by reason: http_status (the receiver answered: a non-2xx status, or a body cut off) or no_response (connection error, timeout, refused address).',
    labelNames: ['reason'] as const,
    registers: [registry],
  })
  for (const reason of ['http_status', 'no_response']) failures.inc({ reason }, 0)
  return {
    attempted(result) {
      if (!result.ok) failures.inc({ reason: result.statusCode === null ? 'no_response' : 'http_status' })
    },
  }
}
