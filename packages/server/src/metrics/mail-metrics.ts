/**
 * Series of outgoing mail: `pathlight_mail_messages{status}` (the mail outbox by status: pending,
 * sent, failed; read from the metadata store at each scrape) and `pathlight_mail_send_failures_total
 * {reason}` (failed send attempts by this process: `transient`, retried; `permanent`, an SMTP 5xx reply
 * refusing the recipient or the message, which failed it).
 */
import { Counter, Gauge, type Registry } from 'prom-client'
import type { SendResult } from '../mail/mail-outbox.js'
import { mailCounts } from '../mail/mail-outbox.js'
import type { MetadataDb } from '../storage/metadata/db.js'

export interface MailMetrics {
  /** Count one send attempt (only failures are counted). */
  attempted(result: SendResult): void
}

/** Register the mail series on `registry`. */
export function registerMailMetrics(registry: Registry, db: MetadataDb): MailMetrics {
  new Gauge({
    name: 'pathlight_mail_messages',
    help: 'Messages in the mail outbox by status: pending (due, or waiting for a retry), sent, failed (given up).',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const counts = await mailCounts(db)
      for (const [status, count] of Object.entries(counts)) this.set({ status }, count)
    },
  })
  const failures = new Counter({
    name: 'pathlight_mail_send_failures_total',
    help: 'Failed mail send attempts by this process, by reason: transient (no connection, timeout, a 4xx reply, a refused login or sender; retried) or permanent (a 5xx refusal of the recipient or the message; it failed).',
    labelNames: ['reason'] as const,
    registers: [registry],
  })
  for (const reason of ['transient', 'permanent']) failures.inc({ reason }, 0)
  return {
    attempted(result) {
      if (!result.ok) failures.inc({ reason: result.permanent ? 'permanent' : 'transient' })
    },
  }
}
