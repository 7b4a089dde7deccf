/**
 * Single sign-on end to end: a real OpenID provider (`oidc-provider` on loopback, with users, groups
 * and a second client; `testing/oidc-test-provider.ts`), the real server (SQLite + chDB) listening on
 * loopback, and Debian's Chromium through the dashboard's "Sign in with SSO" and the provider's own
 * login page. Checked: the just-in-time account, its role from a group, the role changed at the next
 * sign-in, the removal when no group maps, SSO-only refusing passwords (the instance owner excepted, API
 * keys kept), sign-out answering the provider's end-session URL; and each of a wrong `state`, a replayed
 * callback (code and state), an ID token signed by another key and an expired one refused, with no
 * session, audited; and the operator's `sso-remove` command (`auth/sso-remove.ts`). The tests run in order and share one provider and instance.
 */
import net from 'node:net'
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import { sql } from 'kysely'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removeSsoAccess } from '../src/auth/sso-remove.js'
import { CHROME_UA, collectPageErrors, launchChromium, newDashboardContext } from '../src/testing/browser.js'
import { startOidcProvider, type TestOidcProvider } from '../src/testing/oidc-test-provider.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

let t: TestInstance
let idp: TestOidcProvider
let browser: Browser
let base: string
let owner: { cookie: string; userId: string }
const pageErrors: string[] = []

async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

const db = () => t.services.metadata.db

async function userByEmail(email: string) {
  return db().selectFrom('user').select(['id', 'email', 'name']).where('email', '=', email).executeTakeFirst()
}

async function ssoOrganization() {
  return db()
    .selectFrom('organization')
    .select(['id', 'name'])
    .where('name', '=', 'Acme Analytics')
    .executeTakeFirst()
}

async function roleOf(userId: string): Promise<string | null> {
  const org = await ssoOrganization()
  if (!org) return null
  const row = await db()
    .selectFrom('member')
    .select('role')
    .where('organization_id', '=', org.id)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return row?.role ?? null
}

async function sessionCount(): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`SELECT count(*) AS n FROM "session"`.execute(db())
  return Number(rows[0]?.n)
}

async function auditActions(): Promise<{ action: string; details: string }[]> {
  return db().selectFrom('audit_log').select(['action', 'details']).orderBy('created_at').execute()
}

const sessionEmail = (page: Page) =>
  page.evaluate(() =>
    fetch('/api/auth/get-session')
      .then((r) => r.json())
      .then((s: { user: { email: string } } | null) => s?.user.email ?? null),
  )

/** A fresh browser context at the sign-in page, its "Sign in with SSO" clicked: at the provider's page. */
async function startSso(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newDashboardContext(browser, base, { userAgent: CHROME_UA })
  const page = await context.newPage()
  page.setDefaultTimeout(15_000)
  collectPageErrors(page, pageErrors, 'sso')
  await page.goto(`${base}/sign-in`)
  await page.getByRole('button', { name: 'Sign in with SSO' }).click()
  await page.waitForURL((url) => url.href.startsWith(idp.issuer))
  return { context, page }
}

/** The provider's login page filled in and sent. */
async function logInAtProvider(page: Page, login: string) {
  await page.locator('input[name="login"]').fill(login)
  await page.locator('input[name="password"]').fill('any password')
  await page.getByRole('button', { name: 'Sign-in' }).click()
}

/** Sign in through the provider in a fresh context; resolves at the dashboard page it lands on. */
async function signInWithSso(login: string): Promise<{ context: BrowserContext; page: Page }> {
  const started = await startSso()
  await logInAtProvider(started.page, login)
  await started.page.waitForURL((url) => url.href.startsWith(base) && !url.pathname.startsWith('/api/'))
  return started
}

beforeAll(async () => {
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  idp = await startOidcProvider([
    {
      clientId: 'pathlight',
      clientSecret: 'pathlight-client-secret',
      redirectUris: [`${base}/api/auth/callback/oidc`],
      postLogoutRedirectUris: [`${base}/sign-in`],
    },
    { clientId: 'other-app', clientSecret: 'other-secret', redirectUris: ['http://127.0.0.1:1/cb'] },
  ])
  idp.users.set('ada', { email: 'ada@example.com', name: 'Ada Lovelace', groups: ['analytics-admins'] })
  idp.users.set('grace', { email: 'grace@example.com', name: 'Grace Hopper', groups: ['staff'] })
  idp.users.set('carol', { email: 'carol@example.com', name: 'Carol Shaw', groups: ['analytics'] })
  const [build] = await Promise.all([
    ensureDashboardBuilt(),
    (async () => {
      t = await openTestInstance({
        env: {
          BASE_URL: base,
          OIDC_ISSUER: idp.issuer,
          OIDC_CLIENT_ID: 'pathlight',
          OIDC_CLIENT_SECRET: 'pathlight-client-secret',
          OIDC_ROLE_CLAIM: 'groups',
          OIDC_ROLE_MAP: 'analytics-admins:admin,analytics:member',
          OIDC_ORGANIZATION: 'Acme Analytics',
        },
      })
      await t.app.listen({ port, host: '127.0.0.1' })
    })(),
  ])
  if (build.built) console.info(`built the dashboard in ${build.ms} ms`)
  owner = await t.signUp('owner@example.com')
  browser = await launchChromium()
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await t?.close()
  await idp?.close()
})

describe('single sign-on with OpenID Connect', () => {
  it('creates the account at the first sign-in, with the role its group maps to', async () => {
    expect(await userByEmail('ada@example.com')).toBeUndefined()
    const { context, page } = await signInWithSso('ada')
    expect(await sessionEmail(page)).toBe('ada@example.com')
    const ada = await userByEmail('ada@example.com')
    expect(ada?.name).toBe('Ada Lovelace')
    expect(await roleOf(ada?.id ?? '')).toBe('admin')
    const actions = (await auditActions()).map((a) => a.action)
    expect(actions).toContain('member.added')
    expect(actions).toContain('sso.signed_in')
    // Sign-out ends the session here and answers the provider's end-session URL.
    const signOut = await page.evaluate(() =>
      fetch('/api/auth/sign-out', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ callbackURL: '/sign-in', disableRedirect: true }),
      }).then((r) => r.json() as Promise<{ url?: string }>),
    )
    expect(signOut.url?.startsWith(`${idp.issuer}/session/end`)).toBe(true)
    expect(new URL(signOut.url ?? base).searchParams.get('id_token_hint')).toBeTruthy()
    expect(await sessionEmail(page)).toBeNull()
    await context.close()
  })

  it('changes the role at the next sign-in when the groups changed, and removes it when none maps', async () => {
    const ada = await userByEmail('ada@example.com')
    ;(idp.users.get('ada') as { groups: string[] }).groups = ['analytics']
    let session = await signInWithSso('ada')
    expect(await sessionEmail(session.page)).toBe('ada@example.com')
    expect(await roleOf(ada?.id ?? '')).toBe('member')
    await session.context.close()

    ;(idp.users.get('ada') as { groups: string[] }).groups = ['somewhere-else']
    session = await signInWithSso('ada')
    expect(await sessionEmail(session.page)).toBe('ada@example.com')
    expect(await roleOf(ada?.id ?? '')).toBeNull()
    await session.context.close()
    const audit = await auditActions()
    expect(audit.filter((a) => a.action === 'member.role_changed').map((a) => JSON.parse(a.details))).toEqual(
      [expect.objectContaining({ source: 'sso', from: 'admin', to: 'member' })],
    )
    expect(audit.some((a) => a.action === 'member.removed')).toBe(true)
  })

  it('signs in a user no group maps with no membership', async () => {
    const { page, context } = await signInWithSso('grace')
    expect(await sessionEmail(page)).toBe('grace@example.com')
    expect(await roleOf((await userByEmail('grace@example.com'))?.id ?? '')).toBeNull()
    await context.close()
  })

  it('refuses a callback whose state was changed', async () => {
    const { context, page } = await startSso()
    idp.tamper = 'state'
    try {
      await logInAtProvider(page, 'carol')
      await page.waitForURL((url) => url.pathname === '/sign-in' && url.searchParams.has('error'))
    } finally {
      idp.tamper = undefined
    }
    await page.waitForURL((url) => url.pathname === '/sign-in' && url.searchParams.has('error'))
    await page.getByRole('alert').filter({ hasText: 'could not be verified' }).waitFor()
    expect(await sessionEmail(page)).toBeNull()
    expect(await userByEmail('carol@example.com')).toBeUndefined()
    await context.close()
  })

  it('refuses a replayed callback (the same code and state)', async () => {
    const { context, page } = await startSso()
    let callback = ''
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/callback/oidc?')) callback = request.url()
    })
    await logInAtProvider(page, 'carol')
    await page.waitForURL((url) => url.href.startsWith(base) && !url.pathname.startsWith('/api/'))
    expect(await sessionEmail(page)).toBe('carol@example.com')
    expect(callback).toContain('code=')
    await context.clearCookies()
    await page.goto(callback)
    await page.waitForURL((url) => url.pathname === '/sign-in' && url.searchParams.has('error'))
    expect(await sessionEmail(page)).toBeNull()
    await context.close()
  })

  for (const tamper of ['other-key', 'expired'] as const) {
    it(`refuses an ID token ${tamper === 'other-key' ? 'signed by another key' : 'that has expired'}`, async () => {
      const before = await sessionCount()
      idp.tamper = tamper
      try {
        const { context, page } = await startSso()
        await logInAtProvider(page, 'ada')
        await page.waitForURL((url) => url.pathname === '/sign-in' && url.searchParams.has('error'))
        expect(new URL(page.url()).searchParams.get('error')).toBe('unable_to_get_user_info')
        await page.getByRole('alert').filter({ hasText: 'could not be verified' }).waitFor()
        expect(await sessionEmail(page)).toBeNull()
        await context.close()
      } finally {
        idp.tamper = undefined
      }
      expect(await sessionCount()).toBe(before)
      const refused = (await auditActions())
        .filter((a) => a.action === 'sso.refused')
        .map((a) => JSON.parse(a.details))
      expect(refused.at(-1)).toEqual({ reason: 'unable_to_get_user_info' })
    })
  }

  it('in SSO-only mode refuses passwords of members, but not the instance owner, and keeps API keys', async () => {
    const org = await ssoOrganization()
    expect(org).toBeDefined()
    const organizationId = org?.id ?? ''
    // A member with a password from before SSO, with an API key; and the owner, also a member.
    const dana = await t.signUp('dana@example.com')
    const key = await t.createApiKey(dana.cookie)
    await db()
      .insertInto('member')
      .values([
        {
          id: 'm-dana',
          organization_id: organizationId,
          user_id: dana.userId,
          role: 'member',
          created_at: new Date().toISOString(),
        },
        {
          id: 'm-owner',
          organization_id: organizationId,
          user_id: owner.userId,
          role: 'owner',
          created_at: new Date().toISOString(),
        },
      ])
      .execute()
    const setting = await t.app.inject({
      method: 'PUT',
      url: `/api/organizations/${organizationId}/sso`,
      headers: { cookie: owner.cookie },
      payload: { ssoOnly: true },
    })
    expect(setting.statusCode).toBe(200)
    expect(setting.json()).toEqual({ ssoOnly: true })

    const signIn = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        payload: { email, password: 'correct horse battery staple' },
      })
    const refused = await signIn('dana@example.com')
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toMatchObject({
      code: 'SSO_REQUIRED',
      message: expect.stringContaining('Sign in with SSO'),
    })
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      payload: { email: 'dana@example.com' },
    })
    expect([403, 503]).toContain(reset.statusCode)
    expect((await signIn('owner@example.com')).statusCode).toBe(200)
    const keyed = await t.app.inject({
      method: 'GET',
      url: '/api/v1/sites',
      headers: { authorization: `Bearer ${key}` },
    })
    expect(keyed.statusCode).toBe(200)
    const audit = (await auditActions())
      .filter((a) => a.action === 'sso.refused')
      .map((a) => JSON.parse(a.details))
    expect(audit).toContainEqual({ reason: 'password_sign_in' })
  })

  it("applies a removal at once with the operator's command", async () => {
    const carol = await userByEmail('carol@example.com')
    expect(await roleOf(carol?.id ?? '')).toBe('member')
    const { rows } = await sql<{
      n: number | string
    }>`SELECT count(*) AS n FROM "session" WHERE "userId" = ${carol?.id}`.execute(db())
    expect(Number(rows[0]?.n)).toBeGreaterThan(0)
    const removal = await removeSsoAccess({ db: db() }, 'Carol@Example.com')
    expect(removal.membership).toEqual({ kind: 'removed', from: 'member' })
    expect(removal.sessionsEnded).toBe(Number(rows[0]?.n))
    expect(await roleOf(carol?.id ?? '')).toBeNull()
    const audit = (await auditActions())
      .filter((a) => a.action === 'member.removed')
      .map((a) => JSON.parse(a.details))
    expect(audit.at(-1)).toMatchObject({ source: 'operator', userId: carol?.id, role: 'member' })
    await expect(removeSsoAccess({ db: db() }, 'nobody@example.com')).rejects.toThrow(
      'No account with the address',
    )
  })

  it('shows no page errors', () => {
    expect(pageErrors).toEqual([])
  })
})
