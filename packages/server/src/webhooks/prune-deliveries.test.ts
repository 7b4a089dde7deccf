/**
 * Pruning the delivery log on SQLite and PostgreSQL: delivered and failed deliveries go with their
 * attempts once older than the kept days (to the millisecond); pending ones and newer ones stay.
 */
import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MetadataStore, openMetadataStore } from '../storage/metadata/db.js'
import { createTempDatabase } from '../testing/postgres.js'
import { startWebhookReceiver, type WebhookReceiver } from '../testing/webhook-receiver.js'
import { createDeliveryRunner } from './deliveries.js'
import { createOutbox } from './outbox.js'
import { postWebhook } from './post-webhook.js'
import { DELIVERY_KEEP_DAYS, pruneDeliveries } from './prune-deliveries.js'
import { createWebhooks } from './webhooks.js'

const DAY = 86_400_000

/**
 * A user, an organization and a site, as the metadata store holds them (booleans as 0 and 1, which
 * both stores take); returns the site id.
 */
async function seedSite(store: MetadataStore): Promise<number> {
  const now = new Date().toISOString()
  await store.db
    .insertInto('user')
    .values({
      id: 'u1',
      name: 'U',
      email: 'u@example.com',
      emailVerified: 0,
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
      public: 0,
      salt_user_ids: 0,
      block_bots: 1,
      session_replay: 0,
      web_vitals: 0,
      track_errors: 0,
      track_outbound: 1,
      track_url_params: 1,
      track_initial_pageview: 1,
      track_spa_navigation: 1,
      track_button_clicks: 0,
      track_copy: 0,
      track_form_interactions: 0,
      heatmaps: 0,
      excluded_ips: '[]',
      excluded_countries: '[]',
      monthly_pageview_limit: null,
      replay_sample_rate: 1,
      replay_retention_days: 30,
      private_link_key: null,
    })
    .returning('site_id')
    .executeTakeFirstOrThrow()
  return Number(site.site_id)
}

describe.each([
  ['SQLite', false],
  ['PostgreSQL', true],
])('pruning webhook deliveries on %s', (_name, postgres) => {
  let store: MetadataStore
  let drop: (() => Promise<void>) | undefined
  let receiver: WebhookReceiver

  beforeAll(async () => {
    if (postgres) {
      const database = await createTempDatabase()
      drop = database.drop
      store = await openMetadataStore({ postgres: database.url })
    } else store = await openMetadataStore({ sqlite: ':memory:' })
    receiver = await startWebhookReceiver()
  })
  afterAll(async () => {
    await receiver.close()
    await store.close()
    await drop?.()
  })

  it('deletes handled deliveries and their attempts after the kept days, never pending ones', async () => {
    const siteId = await seedSite(store)
    await createWebhooks(store.db, { allowPrivate: true }).create(siteId, 'u1', {
      url: receiver.url,
      events: ['event.tracked'],
    })
    const enqueuedAt = Date.parse('2026-03-01T12:00:00.000Z')
    let now = enqueuedAt
    const outbox = createOutbox(store.db, { clock: () => now })
    // Three old deliveries (one to be delivered, one failed, one left pending), then a newer one.
    for (const n of [1, 2, 3]) await outbox.enqueue(siteId, 'event.tracked', { n })
    now = enqueuedAt + DAY
    await outbox.enqueue(siteId, 'event.tracked', { n: 4 })
    const rows = await store.db.selectFrom('webhook_delivery').select(['id', 'payload']).execute()
    const idOf = (n: number) => rows.find((row) => JSON.parse(row.payload).data.n === n)?.id ?? ''
    const post = (url: string, body: string, headers: Record<string, string>) =>
      postWebhook(url, body, headers, { timeoutMs: 5000, allowPrivate: true })
    const runner = createDeliveryRunner(store, { post, clock: () => now })
    while ((await runner.runOnce()) > 0) {}
    expect(receiver.received).toHaveLength(4)
    // What the runner leaves once retries are exhausted, and a delivery still waiting for its turn.
    await store.db
      .updateTable('webhook_delivery')
      .set({ status: 'failed' })
      .where('id', '=', idOf(2))
      .execute()
    await store.db
      .updateTable('webhook_delivery')
      .set({ status: 'pending' })
      .where('id', '=', idOf(3))
      .execute()
    const attempts = async () =>
      Number(
        (
          await store.db
            .selectFrom('webhook_attempt')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    expect(await attempts()).toBe(4)

    const keptUntil = enqueuedAt + DELIVERY_KEEP_DAYS * DAY
    expect(await pruneDeliveries(store.db, { clock: () => keptUntil })).toBe(0)
    expect(await pruneDeliveries(store.db, { clock: () => keptUntil + 1 })).toBe(2)
    const left = await store.db
      .selectFrom('webhook_delivery')
      .select(['id', 'status'])
      .orderBy('id')
      .execute()
    expect(Object.fromEntries(left.map((row) => [row.id, row.status]))).toEqual({
      [idOf(3)]: 'pending',
      [idOf(4)]: 'delivered',
    })
    expect(await attempts()).toBe(2)
    // A day later the newer delivery goes too; the pending one stays, however old.
    expect(await pruneDeliveries(store.db, { clock: () => keptUntil + DAY + 1 })).toBe(1)
    expect(await pruneDeliveries(store.db, { clock: () => keptUntil + 1000 * DAY })).toBe(0)
    expect(
      (await store.db.selectFrom('webhook_delivery').select('id').execute()).map((row) => row.id),
    ).toEqual([idOf(3)])
  })
})
