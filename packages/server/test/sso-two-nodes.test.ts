/**
 * Single sign-on on two API nodes sharing PostgreSQL and Redis, behind a small load balancer on
 * loopback (the instance's BASE_URL) that sends the provider's callbacks (`/api/auth/callback/*`) to
 * node B and everything else to node A. An organization's own provider is saved on node A; in Chromium,
 * the sign-in starts on node A and node B answers the callback (the provider built there from the
 * metadata store, the OAuth state read from the shared store); the role changed at the provider applies
 * at the next sign-in; an SSO-only organization set on node A refuses a password on node B; and failed
 * callbacks on either node count toward one throttle of the client address (Redis).
 */
import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import pg from 'pg'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { CHROME_UA, collectPageErrors, launchChromium, newDashboardContext } from '../src/testing/browser.js'
import { cookieClient } from '../src/testing/cookie-client.js'
import { startOidcProvider, type TestOidcProvider } from '../src/testing/oidc-test-provider.js'
import { createTempDatabase } from '../src/testing/postgres.js'
import { type SpawnedServer, spawnServer } from '../src/testing/start-server-process.js'

/** The throttle's limit of failed attempts per client address in this test. */
const ADDRESS_MAX = 6

const cleanup: (() => Promise<void>)[] = []
let a: SpawnedServer
let b: SpawnedServer
let idp: TestOidcProvider
let browser: Browser
let databaseUrl: string
let lbUrl: string
let organizationId: string
const handled = { a: 0, b: 0, callbacksOnB: 0 }
const pageErrors: string[] = []

/** Rows of the shared PostgreSQL database. */
async function query<Row>(text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    return (await client.query(text, values)).rows as Row[]
  } finally {
    await client.end()
  }
}

const roleOf = async (email: string) =>
  (
    await query<{ role: string }>(
      'SELECT m.role FROM member m JOIN "user" u ON u.id = m.user_id WHERE m.organization_id = $1 AND u.email = $2',
      [organizationId, email],
    )
  )[0]?.role ?? null

/** A load balancer: callbacks to node B, the rest to node A. */
async function startLoadBalancer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const callback = req.url?.startsWith('/api/auth/callback/') ?? false
    const target = new URL(callback ? b.baseUrl : a.baseUrl)
    if (callback) handled.callbacksOnB++
    handled[callback ? 'b' : 'a']++
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    upstream.on('error', () => res.writeHead(502).end())
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

const sessionEmail = (page: Page) =>
  page.evaluate(() =>
    fetch('/api/auth/get-session')
      .then((r) => r.json())
      .then((s: { user: { email: string } } | null) => s?.user.email ?? null),
  )

/** Sign in through the load balancer: the address, the provider's login page, back at the dashboard. */
async function signInWithSso(email: string, login: string): Promise<void> {
  const context = await newDashboardContext(browser, lbUrl, { userAgent: CHROME_UA })
  const page = await context.newPage()
  page.setDefaultTimeout(20_000)
  collectPageErrors(page, pageErrors, 'sso-two-nodes')
  await page.goto(`${lbUrl}/sign-in`)
  await page.getByRole('button', { name: 'Sign in with SSO' }).click()
  await page.getByLabel('Work e-mail').fill(email)
  await page.getByRole('button', { name: 'Continue with SSO' }).click()
  await page.waitForURL((url) => url.href.startsWith(idp.issuer))
  await page.locator('input[name="login"]').fill(login)
  await page.locator('input[name="password"]').fill('any password')
  await page.getByRole('button', { name: 'Sign-in' }).click()
  await page.waitForURL((url) => url.href.startsWith(lbUrl) && !url.pathname.startsWith('/api/'))
  expect(await sessionEmail(page)).toBe(email)
  await context.close()
}

beforeAll(async () => {
  const database = await createTempDatabase()
  cleanup.push(database.drop)
  databaseUrl = database.url
  // The balancer's port is the instance's BASE_URL: reserve it before the nodes start.
  const lb = await startLoadBalancer()
  cleanup.push(lb.close)
  lbUrl = lb.url
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: `test:sso-two-nodes:${crypto.randomUUID()}:`,
    GEOIP: 'off',
    BASE_URL: lbUrl,
    SSO_ALLOW_PRIVATE_ISSUERS: 'true',
    AUTH_THROTTLE_ADDRESS_MAX: String(ADDRESS_MAX),
  }
  await ensureDashboardBuilt()
  a = await spawnServer({ env })
  cleanup.push(() => a.stop())
  b = await spawnServer({ env })
  cleanup.push(() => b.stop())
  browser = await launchChromium()
  cleanup.push(() => browser.close())
}, 180_000)

afterAll(async () => {
  for (const step of cleanup.reverse()) await step()
  await idp?.close()
})

it('signs in with SSO started on node A and answered by node B, with the role at each sign-in', async () => {
  const owner = cookieClient(lbUrl)
  const password = 'correct horse battery staple'
  expect(
    (await owner.post('/api/auth/sign-up/email', { name: 'Owner', email: 'owner@example.com', password }))
      .status,
  ).toBe(200)
  const created = await owner.post('/api/organizations', { name: 'Gamma Works' })
  expect(created.status).toBe(201)
  organizationId = (created.json() as { id: string }).id
  idp = await startOidcProvider([
    {
      clientId: 'pathlight',
      clientSecret: 'gamma-client-secret',
      redirectUris: [`${lbUrl}/api/auth/callback/org-${organizationId}`],
    },
  ])
  idp.users.set('ada', { email: 'ada@gamma.test', name: 'Ada Gamma', groups: ['gamma-admins'] })
  const saved = await owner.request('PUT', `/api/organizations/${organizationId}/sso/provider`, {
    issuer: idp.issuer,
    clientId: 'pathlight',
    clientSecret: 'gamma-client-secret',
    roleMap: [
      { group: 'gamma-admins', role: 'admin' },
      { group: 'gamma', role: 'member' },
    ],
    domains: ['gamma.test'],
  })
  expect(saved.status).toBe(200)

  await signInWithSso('ada@gamma.test', 'ada')
  expect(handled.callbacksOnB).toBe(1)
  expect(await roleOf('ada@gamma.test')).toBe('admin')
  // The OAuth state was written by node A and consumed by node B: none is left in the shared store.
  const states = await query<{ n: string }>(
    `SELECT count(*) AS n FROM verification WHERE identifier NOT LIKE 'reset-password:%'`,
  )
  expect(Number(states[0]?.n)).toBe(0)

  ;(idp.users.get('ada') as { groups: string[] }).groups = ['gamma']
  await signInWithSso('ada@gamma.test', 'ada')
  expect(handled.callbacksOnB).toBe(2)
  expect(await roleOf('ada@gamma.test')).toBe('member')
  const changes = await query<{ details: string }>(
    `SELECT details FROM audit_log WHERE organization_id = $1 AND action = 'member.role_changed'`,
    [organizationId],
  )
  expect(changes.map((c) => JSON.parse(c.details))).toEqual([
    expect.objectContaining({ source: 'sso', from: 'admin', to: 'member' }),
  ])
  expect(pageErrors).toEqual([])
}, 120_000)

it('refuses a password on node B for an organization made SSO-only on node A', async () => {
  const password = 'another horse battery staple'
  const carol = cookieClient(lbUrl)
  expect(
    (await carol.post('/api/auth/sign-up/email', { name: 'Carol', email: 'carol@gamma.test', password }))
      .status,
  ).toBe(200)
  const owner = cookieClient(lbUrl)
  await owner.post('/api/auth/sign-in/email', {
    email: 'owner@example.com',
    password: 'correct horse battery staple',
  })
  expect(
    (
      await owner.post(`/api/organizations/${organizationId}/members`, {
        email: 'carol@gamma.test',
        role: 'member',
      })
    ).status,
  ).toBe(201)
  expect(
    (await owner.request('PUT', `/api/organizations/${organizationId}/sso`, { ssoOnly: true })).status,
  ).toBe(200)
  const onB = await fetch(`${b.baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: lbUrl },
    body: JSON.stringify({ email: 'carol@gamma.test', password }),
  })
  expect(onB.status).toBe(403)
  expect(await onB.json()).toMatchObject({ code: 'SSO_REQUIRED' })
}, 60_000)

it('counts failed callbacks on either node toward one throttle of the address', async () => {
  const callback = (server: SpawnedServer) =>
    fetch(`${server.baseUrl}/api/auth/callback/org-${organizationId}?code=forged&state=forged`, {
      redirect: 'manual',
    })
  const statuses: number[] = []
  for (let i = 0; i < ADDRESS_MAX * 2 && !statuses.includes(429); i++) {
    statuses.push((await callback(i % 2 === 0 ? a : b)).status)
  }
  // Each node alone saw fewer than ADDRESS_MAX of them: the limit held because the count is shared.
  const refusedAt = statuses.indexOf(429)
  expect(refusedAt).toBeGreaterThan(0)
  expect(refusedAt).toBeLessThanOrEqual(ADDRESS_MAX)
  expect(statuses.slice(0, refusedAt).every((s) => s === 302)).toBe(true)
  for (const server of [a, b]) {
    const refused = await callback(server)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
  }
}, 60_000)
