/**
 * Organizations' own identity providers end to end: two real OpenID providers (`oidc-provider` on
 * loopback, `testing/oidc-test-provider.ts`), one per organization with its own e-mail domain, the real
 * server (SQLite + chDB) listening on loopback with no instance-wide provider, and Debian's Chromium
 * through the dashboard. Checked: saving refuses an issuer whose discovery fails, a public mail domain
 * and a domain another organization owns, each naming the field; the owner sets the second provider in
 * the organization page's card; the client secret is stored encrypted; "Sign in with SSO" asks the
 * address and each user goes to their domain's provider and lands in that organization with the mapped
 * role; a provider naming an address outside its organization's domains is refused; the changes are
 * audited. The tests run in order and share the providers and the instance.
 */
import net from 'node:net'
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  addSessionCookie,
  CHROME_UA,
  collectPageErrors,
  launchChromium,
  newDashboardContext,
} from '../src/testing/browser.js'
import { startOidcProvider, type TestOidcProvider } from '../src/testing/oidc-test-provider.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

let t: TestInstance
let alphaIdp: TestOidcProvider
let betaIdp: TestOidcProvider
let browser: Browser
let base: string
let owner: { cookie: string; userId: string }
let alpha: string
let beta: string
const pageErrors: string[] = []

async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

const db = () => t.services.metadata.db

async function roleIn(organizationId: string, email: string): Promise<string | null> {
  const row = await db()
    .selectFrom('member')
    .innerJoin('user', 'user.id', 'member.user_id')
    .select('member.role')
    .where('member.organization_id', '=', organizationId)
    .where('user.email', '=', email)
    .executeTakeFirst()
  return row?.role ?? null
}

async function auditOf(
  organizationId: string,
): Promise<{ action: string; details: Record<string, unknown> }[]> {
  const rows = await db()
    .selectFrom('audit_log')
    .select(['action', 'details'])
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .execute()
  return rows.map((r) => ({ action: r.action, details: JSON.parse(r.details) as Record<string, unknown> }))
}

const putProvider = (organizationId: string, body: Record<string, unknown>) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/organizations/${organizationId}/sso/provider`,
    headers: { cookie: owner.cookie },
    payload: body,
  })

const sessionEmail = (page: Page) =>
  page.evaluate(() =>
    fetch('/api/auth/get-session')
      .then((r) => r.json())
      .then((s: { user: { email: string } } | null) => s?.user.email ?? null),
  )

/**
 * A fresh context at the sign-in page: "Sign in with SSO", the address, "Continue with SSO"; resolves
 * once the browser is at a provider's page, with that provider's issuer.
 */
async function startSso(email: string): Promise<{ context: BrowserContext; page: Page; issuer: string }> {
  const context = await newDashboardContext(browser, base, { userAgent: CHROME_UA })
  const page = await context.newPage()
  page.setDefaultTimeout(15_000)
  collectPageErrors(page, pageErrors, 'sso-organizations')
  await page.goto(`${base}/sign-in`)
  await page.getByRole('button', { name: 'Sign in with SSO' }).click()
  await page.getByLabel('Work e-mail').fill(email)
  await page.getByRole('button', { name: 'Continue with SSO' }).click()
  await page.waitForURL((url) => !url.href.startsWith(base))
  return { context, page, issuer: new URL(page.url()).origin }
}

/** The provider's login page filled in and sent; resolves back at the dashboard. */
async function logInAtProvider(page: Page, login: string) {
  await page.locator('input[name="login"]').fill(login)
  await page.locator('input[name="password"]').fill('any password')
  await page.getByRole('button', { name: 'Sign-in' }).click()
  await page.waitForURL((url) => url.href.startsWith(base) && !url.pathname.startsWith('/api/'))
}

beforeAll(async () => {
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  const [build] = await Promise.all([
    ensureDashboardBuilt(),
    (async () => {
      t = await openTestInstance({ env: { BASE_URL: base, SSO_ALLOW_PRIVATE_ISSUERS: 'true' } })
      await t.app.listen({ port, host: '127.0.0.1' })
    })(),
  ])
  if (build.built) console.info(`built the dashboard in ${build.ms} ms`)
  owner = await t.signUp('owner@example.com')
  alpha = await t.createOrganization(owner.cookie, 'Alpha Corp')
  beta = await t.createOrganization(owner.cookie, 'Beta Labs')
  const client = (organizationId: string, secret: string) => ({
    clientId: 'pathlight',
    clientSecret: secret,
    redirectUris: [`${base}/api/auth/callback/org-${organizationId}`],
    postLogoutRedirectUris: [`${base}/sign-in`],
  })
  alphaIdp = await startOidcProvider([client(alpha, 'alpha-client-secret')])
  betaIdp = await startOidcProvider([client(beta, 'beta-client-secret')])
  alphaIdp.users.set('ada', { email: 'ada@alpha.test', name: 'Ada Alpha', groups: ['alpha-admins'] })
  alphaIdp.users.set('eve', { email: 'eve@beta.test', name: 'Eve Elsewhere', groups: ['alpha-admins'] })
  betaIdp.users.set('bob', { email: 'bob@beta.test', name: 'Bob Beta', groups: ['beta-staff'] })
  browser = await launchChromium()
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await t?.close()
  await alphaIdp?.close()
  await betaIdp?.close()
})

describe("organizations' own identity providers", () => {
  it('refuses an issuer whose discovery fails, naming the field', async () => {
    const answer = await putProvider(alpha, {
      issuer: `http://127.0.0.1:${await freePort()}`,
      clientId: 'pathlight',
      clientSecret: 'alpha-client-secret',
      domains: ['alpha.test'],
    })
    expect(answer.statusCode).toBe(400)
    expect(answer.json().error).toMatch(/^Invalid identity provider: issuer: discovery at/)
    expect(Object.keys(answer.json().details.fieldErrors)).toEqual(['issuer'])
  })

  it('refuses a public mail domain', async () => {
    const answer = await putProvider(alpha, {
      issuer: alphaIdp.issuer,
      clientId: 'pathlight',
      clientSecret: 'alpha-client-secret',
      domains: ['alpha.test', 'gmail.com'],
    })
    expect(answer.statusCode).toBe(400)
    expect(answer.json().error).toMatch(/domains: gmail\.com is a public mail domain/)
  })

  it('saves a provider: discovery checked, the secret stored encrypted and never answered, audited', async () => {
    const answer = await putProvider(alpha, {
      issuer: `${alphaIdp.issuer}/`,
      clientId: 'pathlight',
      clientSecret: 'alpha-client-secret',
      roleClaim: 'groups',
      roleMap: [{ group: 'alpha-admins', role: 'admin' }],
      domains: ['Alpha.test'],
      name: 'Alpha Login',
    })
    expect(answer.statusCode).toBe(200)
    expect(answer.json()).toMatchObject({
      callbackUrl: `${base}/api/auth/callback/org-${alpha}`,
      provider: { issuer: alphaIdp.issuer, domains: ['alpha.test'], name: 'Alpha Login' },
    })
    expect(answer.body).not.toContain('alpha-client-secret')
    const row = await db()
      .selectFrom('organization_oidc')
      .select('client_secret')
      .where('organization_id', '=', alpha)
      .executeTakeFirstOrThrow()
    expect(row.client_secret).not.toContain('alpha-client-secret')
    expect(row.client_secret.length).toBeGreaterThan(20)
    const changed = (await auditOf(alpha)).filter((a) => a.action === 'sso.provider_changed')
    expect(changed).toHaveLength(1)
    expect(changed[0]?.details).toMatchObject({ issuer: alphaIdp.issuer, domains: ['alpha.test'] })
    expect(JSON.stringify(changed[0]?.details)).not.toContain('alpha-client-secret')
  })

  it('refuses a domain another organization owns', async () => {
    const answer = await putProvider(beta, {
      issuer: betaIdp.issuer,
      clientId: 'pathlight',
      clientSecret: 'beta-client-secret',
      domains: ['beta.test', 'alpha.test'],
    })
    expect(answer.statusCode).toBe(409)
    expect(answer.json().error).toBe(
      'Invalid identity provider: domains: alpha.test is already owned by another organization',
    )
  })

  it("is set by the owner in the organization page's card", async () => {
    const context = await newDashboardContext(browser, base, { userAgent: CHROME_UA })
    await addSessionCookie(context, owner.cookie, base)
    const page = await context.newPage()
    page.setDefaultTimeout(15_000)
    collectPageErrors(page, pageErrors, 'sso-provider-card')
    await page.goto(`${base}/organizations/${beta}`)
    const card = page.locator('form', { has: page.getByRole('heading', { name: 'Identity provider' }) })
    await card.getByText(`${base}/api/auth/callback/org-${beta}`).waitFor()
    await card.getByLabel('Issuer URL').fill(betaIdp.issuer)
    await card.getByLabel('Client ID').fill('pathlight')
    await card.getByLabel('Client secret').fill('beta-client-secret')
    await card.getByLabel('E-mail domains').fill('beta.test')
    await card.getByLabel('Role map').fill('beta-staff:member')
    await card.getByRole('button', { name: 'Save provider' }).click()
    await card.getByRole('status').waitFor()
    expect(await card.getByRole('status').textContent()).toBe('Saved.')
    await context.close()
    const saved = await t.app.inject({
      method: 'GET',
      url: `/api/organizations/${beta}/sso/provider`,
      headers: { cookie: owner.cookie },
    })
    expect(saved.json().provider).toMatchObject({
      issuer: betaIdp.issuer,
      domains: ['beta.test'],
      roleMap: [{ group: 'beta-staff', role: 'member' }],
    })
  })

  it("sends each address to its domain's provider, into that organization with the mapped role", async () => {
    const first = await startSso('ada@alpha.test')
    expect(first.issuer).toBe(alphaIdp.issuer)
    await logInAtProvider(first.page, 'ada')
    expect(await sessionEmail(first.page)).toBe('ada@alpha.test')
    await first.context.close()

    const second = await startSso('bob@beta.test')
    expect(second.issuer).toBe(betaIdp.issuer)
    await logInAtProvider(second.page, 'bob')
    expect(await sessionEmail(second.page)).toBe('bob@beta.test')
    await second.context.close()

    expect(await roleIn(alpha, 'ada@alpha.test')).toBe('admin')
    expect(await roleIn(beta, 'ada@alpha.test')).toBeNull()
    expect(await roleIn(beta, 'bob@beta.test')).toBe('member')
    expect(await roleIn(alpha, 'bob@beta.test')).toBeNull()
    const signedIn = (await auditOf(beta)).find((a) => a.action === 'sso.signed_in')
    expect(signedIn?.details).toMatchObject({ provider: `org-${beta}`, subject: 'bob', role: 'member' })
  })

  it("refuses an address outside the provider's organization's domains", async () => {
    const { context, page, issuer } = await startSso('someone@alpha.test')
    expect(issuer).toBe(alphaIdp.issuer)
    await logInAtProvider(page, 'eve')
    expect(new URL(page.url()).pathname).toBe('/sign-in')
    await page.getByRole('alert').waitFor()
    expect(await page.getByRole('alert').textContent()).toContain("outside the organization's domains")
    expect(await sessionEmail(page)).toBeNull()
    await context.close()
    const user = await db()
      .selectFrom('user')
      .select('id')
      .where('email', '=', 'eve@beta.test')
      .executeTakeFirst()
    expect(user).toBeUndefined()
    expect((await auditOf(alpha)).filter((a) => a.action === 'sso.refused').map((a) => a.details)).toEqual([
      { reason: 'email_domain_not_owned', domain: 'beta.test' },
      // The callback's own refusal, as every failed callback is audited.
      { reason: 'unable_to_get_user_info' },
    ])
  })

  it('answers which provider signs an address in, and 404 for a domain no provider owns', async () => {
    const ask = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/sso/provider-for',
        headers: { origin: base },
        payload: { email },
      })
    expect((await ask('x@beta.test')).json()).toEqual({ providerId: `org-${beta}`, name: 'SSO' })
    const none = await ask('x@example.org')
    expect(none.statusCode).toBe(404)
    expect(none.json()).toMatchObject({ code: 'SSO_NOT_CONFIGURED' })
    expect(pageErrors).toEqual([])
  })

  it('removes a provider, releasing its domains, audited', async () => {
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/organizations/${beta}/sso/provider`,
      headers: { cookie: owner.cookie },
    })
    expect(removed.json()).toEqual({ provider: null, callbackUrl: `${base}/api/auth/callback/org-${beta}` })
    const domains = await db().selectFrom('organization_sso_domain').select('domain').execute()
    expect(domains.map((d) => d.domain)).toEqual(['alpha.test'])
    expect((await auditOf(beta)).some((a) => a.action === 'sso.provider_removed')).toBe(true)
  })
})
