/**
 * Two server processes on one PostgreSQL and one Redis enforce one v1 rate limit per key between them.
 */
import crypto from 'node:crypto'
import { afterAll, expect, it } from 'vitest'
import { createTempDatabase } from '../src/testing/postgres.js'
import { type SpawnedServer, spawnServer, startServerProcess } from '../src/testing/start-server-process.js'

const cleanup: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const step of cleanup.reverse()) await step()
})

it('shares the 50-per-minute limit of a key across API nodes through Redis', async () => {
  const database = await createTempDatabase()
  cleanup.push(database.drop)
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: `test:v1:${crypto.randomUUID()}:`,
    GEOIP: 'off',
  }
  const a = await startServerProcess({ env })
  cleanup.push(() => a.stop())
  const b: SpawnedServer = await spawnServer({ env })
  cleanup.push(() => b.stop())
  const get = (server: { baseUrl: string }) =>
    fetch(`${server.baseUrl}/api/v1/sites`, { headers: { authorization: `Bearer ${a.apiKey}` } })
  for (let i = 0; i < 50; i++) {
    const response = await get(i % 2 === 0 ? a : b)
    expect(response.status).toBe(200)
    expect(response.headers.get('x-ratelimit-remaining')).toBe(String(49 - i))
  }
  expect((await get(a)).status).toBe(429)
  expect((await get(b)).status).toBe(429)
}, 120_000)
