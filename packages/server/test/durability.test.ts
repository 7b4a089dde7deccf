/**
 * Durability of acknowledged events (the 200 goes out only once the event is durable): a real server process is SIGKILLed while a
 * load runs; after a restart on the same data directory, every event that got a 200 is in the store.
 */
import path from 'node:path'
import { Session } from 'chdb'
import { afterAll, expect, it } from 'vitest'
import { type SpawnedServer, spawnServer, startServerProcess } from '../src/testing/start-server-process.js'
import { createTempClickHouseDatabase, testEventsOnServer } from '../src/testing/test-events-store.js'

let restarted: SpawnedServer | undefined
afterAll(async () => {
  await restarted?.stop()
})

/** Keyed pageviews with unique user ids from 16 workers until `stop()`; collects the acknowledged ids. */
function startLoad(server: { baseUrl: string; apiKey: string; siteId: number }) {
  const acknowledged: string[] = []
  let stopped = false
  let sent = 0
  const worker = async (w: number) => {
    for (let i = 0; !stopped; i++) {
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
  const done = Promise.all(Array.from({ length: 16 }, (_, w) => worker(w)))
  return {
    acknowledged,
    sent: () => sent,
    async until(count: number) {
      while (acknowledged.length < count) await new Promise((resolve) => setTimeout(resolve, 20))
    },
    async stop() {
      stopped = true
      await done
    },
  }
}

/**
 * The user ids stored for a site, read with chDB directly from a data directory no server holds (in
 * the server pass: from the server's database of that data directory).
 */
async function storedUserIds(dataDir: string, siteId: number): Promise<Set<string>> {
  if (testEventsOnServer()) {
    const database = new URL(createTempClickHouseDatabase(dataDir).url)
    const response = await fetch(
      `${database.origin}/?database=${database.pathname.slice(1)}&param_site=${siteId}`,
      {
        method: 'POST',
        body: 'SELECT DISTINCT user_id FROM events WHERE site_id = {site:UInt32} FORMAT TSV',
      },
    )
    if (!response.ok) throw new Error(`stored user ids: ${response.status} ${await response.text()}`)
    return new Set((await response.text()).split('\n').filter(Boolean))
  }
  const session = new Session(path.join(dataDir, 'events'))
  try {
    const result = await session.queryBindAsync(
      'SELECT DISTINCT user_id FROM events WHERE site_id = {site:UInt32}',
      { site: siteId },
      { format: 'JSONEachRow' },
    )
    return new Set(
      result
        .text()
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { user_id: string }).user_id),
    )
  } finally {
    session.close()
  }
}

it('every acknowledged event survives SIGKILL of the server under load', async () => {
  const server = await startServerProcess({ env: { PATHLIGHT_TRACK_KEY_LIMIT: '1000000', GEOIP: 'off' } })
  const load = startLoad(server)
  await load.until(2000)
  const killing = server.kill()
  await load.stop()
  await killing

  restarted = await spawnServer({ dataDir: server.dataDir, env: { GEOIP: 'off' } })
  expect((await fetch(`${restarted.baseUrl}/api/health`)).status).toBe(200)
  // Acknowledged rows not yet in chDB at the kill were in the journal, and were recovered at start.
  expect(restarted.output()).toMatch(
    /Recovered the ingest journal: \d+ segment\(s\), \d+ event\(s\) inserted/,
  )
  await restarted.stop({ keepData: true })
  restarted = undefined

  const stored = await storedUserIds(server.dataDir, server.siteId)
  const missing = load.acknowledged.filter((id) => !stored.has(id))
  console.log(
    `SIGKILL: sent ${load.sent()}, acknowledged ${load.acknowledged.length}, stored ${stored.size}, missing ${missing.length}`,
  )
  expect(load.acknowledged.length).toBeGreaterThanOrEqual(2000)
  expect(missing).toEqual([])
}, 120_000)

it('SIGTERM under load drains in-flight requests, exits, and loses nothing acknowledged', async () => {
  const server = await startServerProcess({ env: { PATHLIGHT_TRACK_KEY_LIMIT: '1000000', GEOIP: 'off' } })
  const load = startLoad(server)
  await load.until(1000)
  const stopping = server.stop({ keepData: true })
  await load.stop()
  await stopping
  expect(server.output()).not.toMatch(/unhandled|Error:/)
  const stored = await storedUserIds(server.dataDir, server.siteId)
  expect(load.acknowledged.filter((id) => !stored.has(id))).toEqual([])
}, 120_000)
