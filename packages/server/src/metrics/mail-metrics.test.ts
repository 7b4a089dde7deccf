/**
 * The mail series against a real metadata store (SQLite): the outbox by status as the store holds it
 * at the scrape, and failed send attempts by reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMailRunner, enqueueMail, type SendResult } from '../mail/mail-outbox.js'
import { type MetadataStore, openMetadataStore } from '../storage/metadata/db.js'
import { registerMailMetrics } from './mail-metrics.js'
import { createMetricsRegistry } from './metrics-registry.js'

describe('mail metrics', () => {
  let store: MetadataStore
  beforeAll(async () => {
    store = await openMetadataStore({ sqlite: ':memory:' })
  })
  afterAll(() => store.close())

  it('counts the outbox by status and the failed attempts by reason', async () => {
    const registry = createMetricsRegistry()
    const metrics = registerMailMetrics(registry, store.db)
    const mail = (to: string) => ({ kind: 'test', to, subject: 's', html: '<p>h</p>', text: 't' })
    for (const to of ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com']) {
      await enqueueMail(store.db, mail(to))
    }
    // a: taken; b: refused for good; c and d: no connection (retried later).
    const answers: Record<string, SendResult> = {
      'a@example.com': { ok: true },
      'b@example.com': { ok: false, error: '550 no such user', permanent: true },
    }
    const runner = createMailRunner(store, {
      send: async (m) => answers[m.to] ?? { ok: false, error: 'connect ECONNREFUSED', permanent: false },
      onAttempt: (result) => metrics.attempted(result),
    })
    expect(await runner.runOnce()).toBe(4)
    const text = await registry.metrics()
    expect(text).toContain('pathlight_mail_messages{status="pending"} 2')
    expect(text).toContain('pathlight_mail_messages{status="sent"} 1')
    expect(text).toContain('pathlight_mail_messages{status="failed"} 1')
    expect(text).toContain('pathlight_mail_send_failures_total{reason="transient"} 2')
    expect(text).toContain('pathlight_mail_send_failures_total{reason="permanent"} 1')
  })
})
