/**
 * Durability of acknowledged events (DESIGN §2 stage 11): a real server process is SIGKILLed while a
 * load runs; after a restart on the same data directory, every event that got a 200 is in the store.
 */
import path from 'node:path'
import { Session } from 'chdb'
import { afterAll, expect, it } from 'vitest'
import { type SpawnedServer, spawnServer, startServerProcess } from '../src/testing/start-server-process.js'

let restarted: SpawnedServer | undefined
afterAll(async () => {
  await restarted?.stop()
})

it('every acknowledged event survives SIGKILL of the server under load', async () => {
  const server = await startServerProcess({ env: { PATHLIGHT_TRACK_KEY_LIMIT: '1000000', GEOIP: 'off' } })
  const acknowledged: string[] = []
  let sent = 0
  let killed = false

  const worker = async (w: number) => {
    for (let i = 0; !killed; i++) {
      const userId = `w${w}-${i}`
      sent++
      try {
        const response = await fetch(`${server.baseUrl}/api/track`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${server.apiKey}` },
          body: JSON.stringify({ site_id: String(server.siteId), pathname: `/p/${i}`, user_id: userId }),
        })
        if (response.status === 200) acknowledged.push(userId)
      } catch {
        // The connection died with the server: this event was never acknowledged.
      }
    }
  }
  const load = Promise.all(Array.from({ length: 16 }, (_, w) => worker(w)))
  while (acknowledged.length < 2000) await new Promise((resolve) => setTimeout(resolve, 20))
  killed = true
  await server.kill()
  await load
  expect(acknowledged.length).toBeGreaterThanOrEqual(2000)

  restarted = await spawnServer({ dataDir: server.dataDir, env: { GEOIP: 'off' } })
  expect((await fetch(`${restarted.baseUrl}/api/health`)).status).toBe(200)
  await restarted.stop({ keepData: true })
  restarted = undefined

  const session = new Session(path.join(server.dataDir, 'events'))
  try {
    const result = await session.queryBindAsync(
      'SELECT DISTINCT user_id FROM events WHERE site_id = {site:UInt32}',
      { site: server.siteId },
      { format: 'JSONEachRow' },
    )
    const stored = new Set(
      result
        .text()
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { user_id: string }).user_id),
    )
    const missing = acknowledged.filter((id) => !stored.has(id))
    console.log(
      `durability: sent ${sent}, acknowledged ${acknowledged.length}, stored ${stored.size}, missing ${missing.length}`,
    )
    expect(missing).toEqual([])
  } finally {
    session.close()
  }
}, 120_000)
