/**
 * Delivery claims under concurrency on PostgreSQL (two workers, one database) and the SSRF guard.
 */
import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MetadataStore, openMetadataStore } from '../storage/metadata/db.js'
import { createTempDatabase } from '../testing/postgres.js'
import { startWebhookReceiver, type WebhookReceiver } from '../testing/webhook-receiver.js'
import { createDeliveryRunner } from './deliveries.js'
import { createOutbox } from './outbox.js'
import { postWebhook } from './post-webhook.js'
import { checkWebhookUrl, isPublicAddress } from './url-guard.js'
import { createWebhooks } from './webhooks.js'

describe('two workers on PostgreSQL', () => {
  let store: MetadataStore
  let drop: () => Promise<void>
  let receiver: WebhookReceiver

  beforeAll(async () => {
    const database = await createTempDatabase()
    drop = database.drop
    store = await openMetadataStore({ postgres: database.url })
    receiver = await startWebhookReceiver()
  })
  afterAll(async () => {
    await receiver.close()
    await store.close()
    await drop()
  })

  it('never send the same attempt twice', async () => {
    const now = new Date().toISOString()
    await store.db
      .insertInto('user')
      .values({
        id: 'u1',
        name: 'U',
        email: 'u@example.com',
        emailVerified: false,
        image: null,
        createdAt: now,
        updatedAt: now,
      })
      .execute()
    await store.db
      .insertInto('organization')
      .values({ id: 'o1', name: 'O', slug: 'o', created_by: 'u1', created_at: now })
      .execute()
    const site = await store.db
      .insertInto('site')
      .values({
        id: crypto.randomUUID(),
        organization_id: 'o1',
        name: 's',
        domain: 'example.com',
        created_by: 'u1',
        created_at: now,
        updated_at: now,
        public: false,
        salt_user_ids: false,
        block_bots: true,
        session_replay: false,
        web_vitals: false,
        track_errors: false,
        track_outbound: true,
        track_url_params: true,
        track_initial_pageview: true,
        track_spa_navigation: true,
        track_button_clicks: false,
        track_copy: false,
        track_form_interactions: false,
        heatmaps: false,
        excluded_ips: '[]',
        excluded_countries: '[]',
        monthly_pageview_limit: null,
        replay_sample_rate: 1,
        replay_retention_days: 30,
        private_link_key: null,
      })
      .returning('site_id')
      .executeTakeFirstOrThrow()
    const siteId = Number(site.site_id)
    await createWebhooks(store.db, { allowPrivate: true }).create(siteId, 'u1', {
      url: receiver.url,
      events: ['event.tracked'],
    })
    const outbox = createOutbox(store.db)
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => outbox.enqueue(siteId, 'event.tracked', { n: i })),
    )
    const post = (url: string, body: string, headers: Record<string, string>) =>
      postWebhook(url, body, headers, { timeoutMs: 5000, allowPrivate: true })
    const workers = [1, 2].map(() => createDeliveryRunner(store, { post, batchSize: 7 }))
    const drain = async (runner: (typeof workers)[number]) => {
      while ((await runner.runOnce()) > 0) {}
    }
    await Promise.all(workers.map(drain))
    const ids = receiver.received.map((r) => r.headers['x-pathlight-delivery'])
    expect(ids).toHaveLength(200)
    expect(new Set(ids).size).toBe(200)
    const delivered = await store.db
      .selectFrom('webhook_delivery')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('status', '=', 'delivered')
      .executeTakeFirstOrThrow()
    expect(Number(delivered.n)).toBe(200)
  })
})

describe('SSRF guard', () => {
  it.each([
    'http://127.0.0.1/hook',
    'http://localhost/hook',
    'http://10.1.2.3/hook',
    'http://192.168.0.10/hook',
    'http://172.16.5.4/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hook',
    'http://[fd00::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://100.64.0.1/hook',
  ])('refuses %s without the override', async (url) => {
    await expect(checkWebhookUrl(url, { allowPrivate: false })).rejects.toThrow(/private|loopback|resolve/)
    await expect(checkWebhookUrl(url, { allowPrivate: true })).resolves.toBeInstanceOf(URL)
  })

  it('accepts public addresses, refuses other schemes', async () => {
    await expect(
      checkWebhookUrl('https://93.184.215.14/hook', { allowPrivate: false }),
    ).resolves.toBeInstanceOf(URL)
    await expect(checkWebhookUrl('file:///etc/passwd', { allowPrivate: true })).rejects.toThrow(/http/)
    expect(isPublicAddress('8.8.8.8')).toBe(true)
    expect(isPublicAddress('::ffff:10.0.0.1')).toBe(false)
  })

  it('refuses a private target again at delivery time', async () => {
    const receiver = await startWebhookReceiver()
    try {
      const result = await postWebhook(receiver.url, '{}', {}, { timeoutMs: 2000, allowPrivate: false })
      expect(result).toMatchObject({ ok: false, statusCode: null })
      expect(result.error).toMatch(/refused/)
      expect(receiver.received).toHaveLength(0)
      const byName = await postWebhook(
        receiver.url.replace('127.0.0.1', 'localhost'),
        '{}',
        {},
        {
          timeoutMs: 2000,
          allowPrivate: false,
        },
      )
      expect(byName.error).toMatch(/refused/)
      expect(receiver.received).toHaveLength(0)
    } finally {
      await receiver.close()
    }
  })
})
