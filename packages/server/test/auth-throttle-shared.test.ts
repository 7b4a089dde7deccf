/**
 * Two server processes on one PostgreSQL and one Redis share the authentication throttle: failures on
 * either count toward one limit per account and address, for passwords and for two-factor codes alike.
 */
import crypto from 'node:crypto'
import { afterAll, expect, it } from 'vitest'
import { cookieClient } from '../src/testing/cookie-client.js'
import { createTempDatabase } from '../src/testing/postgres.js'
import { type SpawnedServer, spawnServer } from '../src/testing/start-server-process.js'
import { totpCode } from '../src/testing/totp.js'

const cleanup: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const step of cleanup.reverse()) await step()
})

it('shares the 5-failures-per-account-and-address limit across API nodes through Redis', async () => {
  const database = await createTempDatabase()
  cleanup.push(database.drop)
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: `test:throttle:${crypto.randomUUID()}:`,
    GEOIP: 'off',
  }
  const a: SpawnedServer = await spawnServer({ env })
  cleanup.push(() => a.stop())
  const b: SpawnedServer = await spawnServer({ env })
  cleanup.push(() => b.stop())
  const post = (server: SpawnedServer, path: string, body: unknown) =>
    fetch(`${server.baseUrl}/api/auth/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl },
      body: JSON.stringify(body),
    })
  const email = 'shared@example.com'
  const password = 'correct horse battery staple'
  expect((await post(a, 'sign-up/email', { name: 'Shared', email, password })).status).toBe(200)
  for (let i = 0; i < 5; i++) {
    expect(
      (await post(i % 2 === 0 ? a : b, 'sign-in/email', { email, password: 'wrong password' })).status,
    ).toBe(401)
  }
  for (const server of [a, b]) {
    const refused = await post(server, 'sign-in/email', { email, password })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(890)
  }
}, 120_000)

it('shares the two-factor code limit across API nodes: wrong codes on either count for the account', async () => {
  const database = await createTempDatabase()
  cleanup.push(database.drop)
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: `test:throttle:${crypto.randomUUID()}:`,
    GEOIP: 'off',
  }
  const a: SpawnedServer = await spawnServer({ env })
  cleanup.push(() => a.stop())
  const b: SpawnedServer = await spawnServer({ env })
  cleanup.push(() => b.stop())
  const email = 'shared-codes@example.com'
  const password = 'correct horse battery staple'

  const owner = cookieClient(a.baseUrl)
  expect((await owner.post('/api/auth/sign-up/email', { name: 'Shared', email, password })).status).toBe(200)
  const enabled = await owner.post('/api/auth/two-factor/enable', { password })
  const { totpURI } = enabled.json() as { totpURI: string }
  expect((await owner.post('/api/auth/two-factor/verify-totp', { code: totpCode(totpURI) })).status).toBe(200)

  // One pending sign-in on node a; its cookie goes to either node, as behind a load balancer.
  const browser = cookieClient(a.baseUrl)
  expect((await browser.post('/api/auth/sign-in/email', { email, password })).json()).toMatchObject({
    twoFactorRedirect: true,
  })
  const verify = (server: SpawnedServer, code: string) =>
    fetch(`${server.baseUrl}/api/auth/two-factor/verify-totp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie: browser.cookieHeader() },
      body: JSON.stringify({ code }),
    })
  for (let i = 0; i < 4; i++) {
    expect((await verify(i % 2 === 0 ? a : b, totpCode(totpURI, Date.now(), 30 + i))).status).toBe(401)
  }
  // A second pending sign-in (Better Auth allows 5 codes per sign-in): the fifth failure, on node b.
  expect((await browser.post('/api/auth/sign-in/email', { email, password })).status).toBe(200)
  expect((await verify(b, totpCode(totpURI, Date.now(), 40))).status).toBe(401)
  for (const server of [a, b]) {
    const refused = await verify(server, totpCode(totpURI))
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(890)
  }
}, 120_000)
