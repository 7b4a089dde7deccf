/**
 * The webhook outbox is recovered with the ingest journal. The outbox is written after the journal
 * append, so a crash between the two leaves journaled events without their deliveries. Here that crash
 * is reproduced without touching the server: with the server stopped, a journal segment is written
 * exactly as the ingest path writes one (`encodeEventRow` lines in `DATA_DIR/journal`) and no outbox
 * row exists for its events; the next start must deliver their `session.created`, `event.tracked` and
 * `goal.converted` facts to a real receiver. Recovering the same events again (the segment replayed,
 * or live events whose deliveries were written before `kill -9`) must not deliver anything twice.
 * On SQLite, and on PostgreSQL with Redis.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { encodeEventRow } from '../src/storage/events/encode-event-row.js'
import { eventRow } from '../src/storage/events/event-row.fixture.js'
import { createTempDatabase } from '../src/testing/postgres.js'
import { type SpawnedServer, spawnServer, startServerProcess } from '../src/testing/start-server-process.js'
import { startWebhookReceiver, type WebhookReceiver } from '../src/testing/webhook-receiver.js'

const cleanup: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const step of cleanup.reverse()) await step()
})

interface Payload {
  id: string
  type: string
  siteId: number
  data: Record<string, unknown> & { event?: { eventId: string } }
}

const stores = [
  { name: 'SQLite', env: async (): Promise<Record<string, string>> => ({}) },
  {
    name: 'PostgreSQL + Redis',
    env: async (): Promise<Record<string, string>> => {
      const database = await createTempDatabase()
      cleanup.push(database.drop)
      return {
        DATABASE_URL: database.url,
        REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
        REDIS_KEY_PREFIX: `test:outbox:${crypto.randomUUID()}:`,
      }
    },
  },
]

describe.each(stores)('webhook outbox recovered from the journal on $name', ({ env: storeEnv }) => {
  it('delivers the facts of journaled events that have no outbox rows, and never twice', async () => {
    const receiver: WebhookReceiver = await startWebhookReceiver()
    cleanup.push(() => receiver.close())
    const env = {
      ...(await storeEnv()),
      GEOIP: 'off',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_MS: '50',
      // The delivery log is polled with the API key; keep its rate limit out of the way.
      PATHLIGHT_V1_LIMIT: '100000',
      // Nothing reaches the events store before shutdown or recovery: every event stays journaled.
      INGEST_FLUSH_MS: '600000',
    }
    const seeded = await startServerProcess({ env })
    let server: SpawnedServer = seeded
    cleanup.push(() => server.stop())
    const { dataDir, siteId } = seeded
    const auth = { authorization: `Bearer ${seeded.apiKey}`, 'content-type': 'application/json' }
    const post = async (url: string, body: unknown) => {
      const response = await fetch(`${server.baseUrl}${url}`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify(body),
      })
      expect(response.status, await response.clone().text()).toBeLessThan(300)
      return (await response.json()) as { data: { id: string } }
    }
    const { data: webhook } = await post(`/api/sites/${siteId}/webhooks`, {
      url: receiver.url,
      events: ['session.created', 'event.tracked', 'goal.converted'],
    })
    await post(`/api/sites/${siteId}/goals`, {
      name: 'Signed up',
      goalType: 'event',
      config: { eventName: 'signup' },
    })
    /** The webhook's deliveries as its delivery log lists them. */
    const deliveries = async () => {
      const response = await fetch(
        `${server.baseUrl}/api/sites/${siteId}/webhooks/${webhook.id}/deliveries?limit=100`,
        { headers: auth },
      )
      expect(response.status).toBe(200)
      return ((await response.json()) as { data: { id: string; status: string; payload: Payload }[] }).data
    }
    // Delivery is at-least-once: before a kill, wait until the worker has recorded every answer, or a
    // delivery sent but not yet marked would rightly be sent again after the restart.
    const allDelivered = () =>
      expect
        .poll(async () => (await deliveries()).every((d) => d.status === 'delivered'), {
          timeout: 20_000,
          interval: 200,
        })
        .toBe(true)
    await server.stop({ keepData: true })

    // The crash between the journal append and the outbox write: a segment as ingest writes it, and no
    // delivery for its events. Session A: a pageview, then the goal's custom event; session B: another
    // custom event only.
    const at = (seconds: number) => new Date(Date.now() - 60_000 + seconds * 1000).toISOString()
    const journaled = [
      eventRow({
        site_id: siteId,
        session_id: 'session-a',
        user_id: 'ada',
        timestamp: at(0),
        pathname: '/pricing',
      }),
      eventRow({
        site_id: siteId,
        session_id: 'session-a',
        user_id: 'ada',
        timestamp: at(5),
        type: 'custom_event',
        event_name: 'signup',
        properties: '{"plan":"pro"}',
        pathname: '/signup',
      }),
      eventRow({
        site_id: siteId,
        session_id: 'session-b',
        user_id: 'bob',
        timestamp: at(7),
        type: 'custom_event',
        event_name: 'download',
        pathname: '/docs',
      }),
    ]
    const segment = path.join(dataDir, 'journal', '0000000900.jsonl')
    const writeSegment = () =>
      fs.writeFileSync(segment, journaled.map((row) => `${encodeEventRow(row)}\n`).join(''))
    writeSegment()

    server = await spawnServer({ dataDir, env })
    expect(server.output()).toMatch(/Recovered the ingest journal: 1 segment\(s\), 3 event\(s\) inserted/)
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(5)
    const received = () =>
      receiver.received
        .map((r) => JSON.parse(r.body) as Payload)
        .map(({ type, data }) =>
          type === 'goal.converted'
            ? `${type} ${data.sessionId} ${data.goalName} ${data.event?.eventId}`
            : type === 'event.tracked'
              ? `${type} ${data.sessionId} ${data.eventName} ${JSON.stringify(data.properties)}`
              : `${type} ${data.sessionId} ${data.userId} ${data.entryPage}`,
        )
        .sort()
    expect(received()).toEqual([
      `event.tracked session-a signup {"plan":"pro"}`,
      'event.tracked session-b download {}',
      `goal.converted session-a Signed up ${journaled[1]?.event_id}`,
      'session.created session-a ada /pricing',
      'session.created session-b bob /docs',
    ])

    // The crash after the outbox write but before the segment was deleted: the same segment again.
    await allDelivered()
    await server.kill()
    writeSegment()
    server = await spawnServer({ dataDir, env })
    expect(server.output()).toMatch(
      /Recovered the ingest journal: \d+ segment\(s\), 0 event\(s\) inserted, 3 already stored/,
    )
    // Recovery ran before the server listened: had it written anything, the log would list it.
    expect(await deliveries()).toHaveLength(5)

    // Live events whose deliveries were written, then kill -9 before they left the journal.
    const tracked = await fetch(`${server.baseUrl}/api/track`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        site_id: String(siteId),
        user_id: 'cyd',
        type: 'custom_event',
        event_name: 'signup',
      }),
    })
    expect(tracked.status).toBe(200)
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(8)
    await allDelivered()
    await server.kill()
    server = await spawnServer({ dataDir, env })
    expect(server.output()).toMatch(/Recovered the ingest journal: \d+ segment\(s\), 1 event\(s\) inserted/)
    const log = await deliveries()
    expect(log).toHaveLength(8)
    expect(log.every((d) => d.status === 'delivered')).toBe(true)
    expect(receiver.received).toHaveLength(8)
    expect(new Set(receiver.received.map((r) => r.headers['x-pathlight-delivery'])).size).toBe(8)
    expect(new Set(receiver.received.map((r) => (JSON.parse(r.body) as Payload).id)).size).toBe(8)
  }, 180_000)
})
