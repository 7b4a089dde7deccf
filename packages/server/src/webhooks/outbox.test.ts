/**
 * Keyed facts in the webhook outbox, on SQLite and on PostgreSQL: a fact enqueued again (at once, in
 * the same group commit, or later) is stored once per webhook, with the same payload and delivery ids;
 * facts without a key are stored each time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { createOutbox, keyedUuid } from './outbox.js'
import { createWebhooks } from './webhooks.js'

describe.each([
  ['SQLite', false],
  ['PostgreSQL', true],
])('webhook outbox on %s', (_name, postgres) => {
  let t: TestInstance
  let siteId: number

  beforeAll(async () => {
    t = await openTestInstance({ postgres, workers: false })
    const owner = await t.seed()
    siteId = owner.site.siteId
    const webhooks = createWebhooks(t.services.metadata.db, { allowPrivate: true })
    for (const url of ['http://127.0.0.1:9/one', 'http://127.0.0.1:9/two']) {
      await webhooks.create(siteId, owner.userId, { url, events: ['event.tracked'] })
    }
  }, 60_000)
  afterAll(() => t?.close())

  const rows = () =>
    t.services.metadata.db
      .selectFrom('webhook_delivery')
      .select(['id', 'webhook_id', 'payload'])
      .where('site_id', '=', siteId)
      .orderBy('id')
      .execute()

  it('stores a keyed fact once per webhook however often it is enqueued', async () => {
    const outbox = createOutbox(t.services.metadata.db)
    const fact = { key: 'event.tracked:e-1', at: '2026-11-20T12:00:00.000Z' }
    await Promise.all([
      outbox.enqueue(siteId, 'event.tracked', { eventName: 'signup' }, fact),
      outbox.enqueue(siteId, 'event.tracked', { eventName: 'signup' }, fact),
    ])
    await outbox.enqueue(siteId, 'event.tracked', { eventName: 'signup' }, fact)
    const stored = await rows()
    expect(stored).toHaveLength(2)
    expect(new Set(stored.map((r) => r.webhook_id)).size).toBe(2)
    const payloads = stored.map((r) => JSON.parse(r.payload) as { id: string; createdAt: string })
    expect(payloads.map((p) => p.id)).toEqual([
      keyedUuid(`fact:${siteId}:event.tracked:e-1`),
      keyedUuid(`fact:${siteId}:event.tracked:e-1`),
    ])
    expect(payloads.map((p) => p.createdAt)).toEqual([fact.at, fact.at])

    await outbox.enqueue(siteId, 'event.tracked', { eventName: 'signup' })
    await outbox.enqueue(siteId, 'event.tracked', { eventName: 'signup' })
    expect(await rows()).toHaveLength(6)
  })

  it('derives UUIDs from names: the same name, the same id', () => {
    const id = keyedUuid('delivery:w1:1:event.tracked:e-1')
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(keyedUuid('delivery:w1:1:event.tracked:e-1')).toBe(id)
    expect(keyedUuid('delivery:w2:1:event.tracked:e-1')).not.toBe(id)
  })
})
