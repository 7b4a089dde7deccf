/**
 * Webhook deliveries survive SIGKILL: deliveries pending when the server dies are all delivered after a
 * restart, and deliveries that already succeeded are not sent again.
 */
import { afterAll, expect, it } from 'vitest'
import { type SpawnedServer, spawnServer, startServerProcess } from '../src/testing/start-server-process.js'
import { startWebhookReceiver } from '../src/testing/webhook-receiver.js'

let current: SpawnedServer | undefined
afterAll(async () => {
  await current?.stop()
})

it('delivers every pending delivery after SIGKILL and a restart, and repeats none', async () => {
  const receiver = await startWebhookReceiver()
  try {
    const env = { WEBHOOKS_ALLOW_PRIVATE: 'true', GEOIP: 'off', PATHLIGHT_TRACK_KEY_LIMIT: '100000' }
    // A slow worker poll: its first look finds nothing, so every delivery is still pending at the kill.
    const server = await startServerProcess({ env: { ...env, WEBHOOK_POLL_MS: '600000' } })
    const auth = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' }
    const created = await fetch(`${server.baseUrl}/api/sites/${server.siteId}/webhooks`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ url: receiver.url, events: ['session.created'] }),
    })
    expect(created.status).toBe(201)
    for (let i = 0; i < 20; i++) {
      const tracked = await fetch(`${server.baseUrl}/api/track`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ site_id: String(server.siteId), user_id: `visitor-${i}` }),
      })
      expect(tracked.status).toBe(200)
    }
    await server.kill()
    expect(receiver.received).toHaveLength(0)

    current = await spawnServer({ dataDir: server.dataDir, env: { ...env, WEBHOOK_POLL_MS: '50' } })
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(20)
    const users = receiver.received.map(
      (r) => (JSON.parse(r.body) as { data: { userId: string } }).data.userId,
    )
    expect(new Set(users).size).toBe(20)

    // Everything is delivered; another kill and restart must not send anything again.
    await current.kill()
    current = await spawnServer({ dataDir: server.dataDir, env: { ...env, WEBHOOK_POLL_MS: '50' } })
    await new Promise((resolve) => setTimeout(resolve, 1000)) // several polls of the worker
    expect(receiver.received).toHaveLength(20)
    expect(new Set(receiver.received.map((r) => r.headers['x-pathlight-delivery'])).size).toBe(20)
  } finally {
    await receiver.close()
  }
}, 120_000)
