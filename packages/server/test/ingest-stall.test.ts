/**
 * A real server process whose events store refuses writes: health answers 503 `degraded` naming the
 * stall, SIGTERM logs the failed final flush and exits with 75 (EX_TEMPFAIL) without an uncaught
 * error, and the next start, with the store writable again, recovers every acknowledged event from the
 * journal.
 *
 * How the store refuses: ClickHouse's own free-space guard. Between runs this test opens the stopped
 * server's chDB directory and sets the events table's `min_free_disk_bytes_to_perform_insert` above
 * any disk's free space, so every insert fails inside chDB as on a full disk ("Code: 243 ... Could not
 * perform insert ... enough free space"); nothing in the server is replaced or told it is a test. A
 * really full filesystem would need a mount (root), and unwritable part directories do not stop root.
 */
import path from 'node:path'
import { drainPending, Session } from 'chdb'
import { afterAll, expect, it } from 'vitest'
import { type SpawnedServer, spawnServer, startServerProcess } from '../src/testing/start-server-process.js'

let running: SpawnedServer | undefined
afterAll(async () => {
  await running?.stop()
})

/** Run statements on a data directory's chDB while no server holds it; @returns the last one's rows. */
async function onStoppedStore(dataDir: string, ...statements: string[]): Promise<string> {
  const session = new Session(path.join(dataDir, 'events'))
  try {
    let text = ''
    for (const statement of statements) text = session.query(statement, 'CSV').toString()
    return text
  } finally {
    session.close()
    await drainPending()
  }
}

interface Health {
  status: string
  reasons: string[]
  events: { ok: boolean }
  metadata: { ok: boolean }
  ingest: { pendingEvents: number; oldestPendingAgeSeconds: number; lastInsertFailed: boolean }
}

const health = async (baseUrl: string) => {
  const response = await fetch(`${baseUrl}/api/health`)
  return { status: response.status, body: (await response.json()) as Health }
}

it('health degrades, SIGTERM exits cleanly with the events journaled, and the next start stores them', async () => {
  const env = { GEOIP: 'off', INGEST_FLUSH_MS: '100', HEALTH_MAX_PENDING_AGE_S: '2' }
  const seeded = await startServerProcess({ env })
  await seeded.stop({ keepData: true })
  const { dataDir } = seeded
  await onStoppedStore(
    dataDir,
    'ALTER TABLE events MODIFY SETTING min_free_disk_bytes_to_perform_insert = 1000000000000000000',
  )

  const full = await spawnServer({ dataDir, env })
  running = full
  expect(await health(full.baseUrl)).toEqual({
    status: 200,
    body: {
      status: 'ok',
      metadata: { kind: 'sqlite', ok: true },
      events: { kind: 'chdb', ok: true },
      ingest: { pendingEvents: 0, oldestPendingAgeSeconds: 0, lastInsertFailed: false },
      reasons: [],
    },
  })
  const users = Array.from({ length: 5 }, (_, i) => `stalled-${i}`)
  for (const user of users) {
    const tracked = await fetch(`${full.baseUrl}/api/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${seeded.apiKey}` },
      body: JSON.stringify({ site_id: String(seeded.siteId), user_id: user }),
    })
    // Acknowledged: the journal holds the event even though the store refuses it.
    expect(tracked.status).toBe(200)
  }

  // The first failed insert (within ~100 ms) makes health degraded at once...
  await expect
    .poll(async () => (await health(full.baseUrl)).body.reasons, { timeout: 10_000 })
    .toContain(
      'events store: refuses writes (the last insert failed and none has succeeded since); accepted events wait in the journal',
    )
  // ... and once the oldest pending event is older than the limit (2 s here), that is named too.
  await expect.poll(async () => (await health(full.baseUrl)).body.reasons.length, { timeout: 10_000 }).toBe(2)
  const degraded = await health(full.baseUrl)
  expect(degraded.status).toBe(503)
  expect(degraded.body).toMatchObject({
    status: 'degraded',
    metadata: { kind: 'sqlite', ok: true },
    events: { kind: 'chdb', ok: true },
    ingest: { pendingEvents: 5, lastInsertFailed: true },
  })
  expect(degraded.body.ingest.oldestPendingAgeSeconds).toBeGreaterThanOrEqual(2)
  expect(degraded.body.reasons[0]).toMatch(/^ingest: oldest pending event is \d+ s old \(limit 2 s\)$/)
  expect(full.output()).toMatch(/events store insert failed; will retry/)

  await full.stop({ keepData: true })
  running = undefined
  expect(full.exitCode()).toBe(75)
  expect(full.output()).toMatch(
    /shutdown: the final flush to the events store failed; 5 accepted event\(s\) stay in the ingest journal/,
  )
  expect(full.output()).not.toMatch(/Uncaught|unhandled|UnhandledPromiseRejection|shutdown failed/i)

  // Room again: the next start recovers the journal into the store.
  await onStoppedStore(dataDir, 'ALTER TABLE events RESET SETTING min_free_disk_bytes_to_perform_insert')
  const healed = await spawnServer({ dataDir, env })
  running = healed
  expect(healed.output()).toMatch(/Recovered the ingest journal: \d+ segment\(s\), 5 event\(s\) inserted/)
  expect((await health(healed.baseUrl)).status).toBe(200)
  await healed.stop({ keepData: true })
  running = undefined
  expect(healed.exitCode()).toBe(0)

  const stored = await onStoppedStore(
    dataDir,
    `SELECT user_id FROM events WHERE site_id = ${seeded.siteId} AND startsWith(user_id, 'stalled-') ORDER BY user_id`,
  )
  expect(stored.trim().split('\n')).toEqual(users.map((u) => `"${u}"`))
}, 180_000)
