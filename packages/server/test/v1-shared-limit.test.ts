/**
 * Two server processes on one PostgreSQL and one Redis enforce one request budget per key between
 * them, over the v1 API and the dashboard's routes alike.
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
  // The v1 API, the dashboard's site and report routes and the report batch: one budget.
  const paths = [
    '/api/v1/sites',
    `/api/sites/${a.siteId}`,
    `/api/sites/${a.siteId}/stats`,
    `/api/sites/${a.siteId}/reports`,
  ]
  const get = (server: { baseUrl: string }, path: string) =>
    fetch(`${server.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${a.apiKey}`, 'content-type': 'application/json' },
      ...(path.endsWith('/reports')
        ? { method: 'POST', body: JSON.stringify({ reports: [{ name: 'stats' }] }) }
        : {}),
    })
  for (let i = 0; i < 50; i++) {
    const response = await get(i % 2 === 0 ? a : b, paths[i % paths.length] as string)
    expect(response.status, await response.clone().text()).toBe(200)
    expect(response.headers.get('x-ratelimit-remaining')).toBe(String(49 - i))
  }
  for (const path of paths) {
    expect((await get(a, path)).status).toBe(429)
    expect((await get(b, path)).status).toBe(429)
  }
}, 120_000)
