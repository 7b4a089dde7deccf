/**
 * The mail series against a real metadata store (SQLite) and a real SMTP server in this process: the
 * outbox by status as the store holds it at the scrape, and failed send attempts by reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../config.js'
import { createMailRunner, enqueueMail } from '../mail/mail-outbox.js'
import { createSmtpSender } from '../mail/smtp-sender.js'
import { type MetadataStore, openMetadataStore } from '../storage/metadata/db.js'
import { type SmtpReceiver, startSmtpReceiver } from '../testing/smtp-receiver.js'
import { registerMailMetrics } from './mail-metrics.js'
import { createMetricsRegistry } from './metrics-registry.js'

describe('mail metrics', () => {
  let store: MetadataStore
  let receiver: SmtpReceiver
  beforeAll(async () => {
    store = await openMetadataStore({ sqlite: ':memory:' })
    receiver = await startSmtpReceiver({ reject: ['b@example.com'] })
  })
  afterAll(async () => {
    await store.close()
    await receiver.close()
  })

  it('counts the outbox by status and the failed attempts by reason', async () => {
    const registry = createMetricsRegistry()
    const metrics = registerMailMetrics(registry, store.db)
    const settings = loadConfig({ SMTP_URL: receiver.url }).mail
    if (!settings) throw new Error('SMTP_URL did not configure mail')
    const runner = createMailRunner(store, {
      send: createSmtpSender(settings),
      onAttempt: (result) => metrics.attempted(result),
    })
    const mail = (to: string) => ({ kind: 'test', to, subject: 's', html: '<p>h</p>', text: 't' })
    // a: taken; b: refused for good (550).
    await enqueueMail(store.db, mail('a@example.com'))
    await enqueueMail(store.db, mail('b@example.com'))
    expect(await runner.runOnce()).toBe(2)
    // c and d: the server is down (retried later).
    await receiver.down()
    await enqueueMail(store.db, mail('c@example.com'))
    await enqueueMail(store.db, mail('d@example.com'))
    expect(await runner.runOnce()).toBe(2)

    const text = await registry.metrics()
    expect(text).toContain('pathlight_mail_messages{status="pending"} 2')
    expect(text).toContain('pathlight_mail_messages{status="sent"} 1')
    expect(text).toContain('pathlight_mail_messages{status="failed"} 1')
    expect(text).toContain('pathlight_mail_send_failures_total{reason="transient"} 2')
    expect(text).toContain('pathlight_mail_send_failures_total{reason="permanent"} 1')
  })
})
