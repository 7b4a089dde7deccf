/**
 * The account page in Debian's Chromium (playwright-core) against the real server (SQLite + chDB,
 * loopback): a scoped, expiring API key made in the app (shown once; sends events but reads nothing;
 * marked as expired once the browser's clock passes its expiry),
 * the user's sessions (a second browser signed in as the same user is listed, then revoked and so
 * signed out), and the password change (a mismatch caught in the page, a wrong current password under
 * its field, the right one signing out the old password, then the throttle's wait shown as the server
 * words it). Screenshots go to `os.tmpdir()/pathlight-dashboard-screens/account-*.png`.
 * The tests run in order and share one page. The dashboard is built first when `dist/` is stale.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  CHROME_UA,
  collectPageErrors,
  cookieHeaderOf,
  launchChromium,
  newDashboardContext,
} from '../src/testing/browser.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

/** The second browser's: another system, so the sessions list tells the two apart. */
const WINDOWS_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'
const OWNER = {
  name: 'Katherine Johnson',
  email: 'katherine@example.com',
  password: 'correct horse battery staple',
}
const NEW_PASSWORD = 'orbital mechanics 1962'
const DAY_MS = 86_400_000
const SCREENS = path.join(os.tmpdir(), 'pathlight-dashboard-screens')

let t: TestInstance
let browser: Browser
let context: BrowserContext
let page: Page
let base: string
let cookie: string
let siteId: number
let apiKey: string
/** Console errors and uncaught exceptions of every page (CSP violations land here too). */
const pageErrors: string[] = []

function watch(p: Page, label: string) {
  p.setDefaultTimeout(10_000)
  collectPageErrors(p, pageErrors, label)
}

const newContext = (userAgent: string) => newDashboardContext(browser, base, { userAgent })
const heading = (p: Page, name: string | RegExp) => p.getByRole('heading', { level: 1, name })
const region = (name: string) => page.getByRole('region', { name, exact: true })
const screenshot = (name: string) =>
  page.screenshot({ path: path.join(SCREENS, `account-${name}.png`), fullPage: true })
/** What `GET /api/auth/get-session` answers in the browser of `p` (null when signed out). */
const sessionOf = (p: Page) => p.evaluate(() => fetch('/api/auth/get-session').then((r) => r.json()))
/** `iso` as the account page formats dates with times, in that browser's locale and zone. */
const formatted = (iso: string) =>
  page.evaluate(
    (value) =>
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value)),
    iso,
  )

async function signIn(p: Page, password: string) {
  await p.goto('/sign-in')
  await heading(p, 'Sign in').waitFor()
  await p.getByLabel('Email').fill(OWNER.email)
  await p.getByLabel('Password').fill(password)
  await p.getByRole('button', { name: 'Sign in' }).click()
}

beforeAll(async () => {
  fs.mkdirSync(SCREENS, { recursive: true })
  const [build] = await Promise.all([
    ensureDashboardBuilt(),
    (async () => {
      t = await openTestInstance()
      base = await t.app.listen({ port: 0, host: '127.0.0.1' })
    })(),
  ])
  if (build.built) console.info(`built the dashboard in ${build.ms} ms`)
  browser = await launchChromium()
  context = await newContext(CHROME_UA)
  page = await context.newPage()
  watch(page, 'owner')
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await t?.close()
})

describe('the account page', () => {
  it('creates a track-only key expiring in 30 days, lists its scope and expiry, and shows it once', async () => {
    await page.goto('/sign-up')
    await heading(page, 'Create your account').waitFor()
    await page.getByLabel('Name').fill(OWNER.name)
    await page.getByLabel('Email').fill(OWNER.email)
    await page.getByLabel('Password').fill(OWNER.password)
    await page.getByRole('button', { name: 'Create account' }).click()
    await heading(page, 'Welcome to Pathlight').waitFor()
    cookie = await cookieHeaderOf(context, base)
    const organizationId = await t.createOrganization(cookie, 'Johnson Labs')
    siteId = (await t.createSite(cookie, organizationId, 'shop.test')).siteId

    await page.getByRole('link', { name: OWNER.name }).click()
    await heading(page, 'Account').waitFor()
    const keys = region('API keys')
    await keys.getByText('No API keys yet.').waitFor()
    expect(await keys.getByRole('radio', { name: 'Track only' }).isChecked()).toBe(true)
    await keys.getByLabel('Key name').fill('backend')
    await keys.getByLabel('Expiry').selectOption({ label: 'In 30 days' })
    await keys.getByText(/^It stops working on /).waitFor()
    const before = Date.now()
    await keys.getByRole('button', { name: 'Create key' }).click()
    const notice = page.getByRole('region', { name: 'Your new API key “backend”' })
    apiKey = ((await notice.locator('.secret-value').textContent()) ?? '').trim()
    expect(apiKey).toMatch(/^pl_[A-Za-z0-9_-]{43}$/)

    const listed = await t.app.inject({ method: 'GET', url: '/api/user/api-keys', headers: { cookie } })
    const [info] = listed.json().data as { scope: string; expiresAt: string }[]
    expect(info?.scope).toBe('track')
    const expiresAt = Date.parse(info?.expiresAt ?? '')
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * DAY_MS - 1000)
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS)
    const row = keys.getByRole('row', { name: /backend/ })
    const cells = () => row.getByRole('cell').allTextContents()
    expect(await cells()).toEqual([
      'backend',
      `${apiKey.slice(0, 10)}…`,
      'Track only',
      expect.any(String),
      await formatted(info?.expiresAt ?? ''),
      'never',
      'Delete',
    ])
    // The form is back to its defaults for the next key.
    expect(await keys.getByRole('radio', { name: 'Track only' }).isChecked()).toBe(true)
    expect(await keys.getByLabel('Expiry').inputValue()).toBe('never')
    await screenshot('key-created')

    await notice.getByRole('button', { name: 'I have copied it' }).click()
    await page.reload()
    await heading(page, 'Account').waitFor()
    await row.waitFor()
    expect((await cells())[2]).toBe('Track only')
    expect(await page.content()).not.toContain(apiKey)
  })

  it('the track key sends events but may not read a report', async () => {
    const tracked = await fetch(`${base}/api/track`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        site_id: String(siteId),
        hostname: 'shop.test',
        pathname: '/from-server',
        user_agent: CHROME_UA,
        ip_address: '203.0.113.9',
      }),
    })
    expect(tracked.status, await tracked.text()).toBe(200)

    const today = new Date().toISOString().slice(0, 10)
    const reports = [
      `/api/v1/sites/${siteId}/stats?start_date=${today}&end_date=${today}&time_zone=UTC`,
      `/api/sites/${siteId}/stats?period=day&date=${today}`,
    ]
    for (const report of reports) {
      const refused = await fetch(`${base}${report}`, { headers: { authorization: `Bearer ${apiKey}` } })
      expect(refused.status, report).toBe(403)
      expect(await refused.json(), report).toMatchObject({
        success: false,
        error: "This API key's scope (track) does not allow reading",
      })
    }

    // The key's use shows in the list.
    await page.reload()
    const row = region('API keys').getByRole('row', { name: /backend/ })
    await row.waitFor()
    expect((await row.getByRole('cell').allTextContents())[5]).not.toBe('never')
    expect(await row.getByText('expired').count()).toBe(0)

    // 31 days on (the browser's clock only), the key is marked as expired.
    const later = await context.newPage()
    try {
      watch(later, 'owner, 31 days on')
      await later.clock.setFixedTime(Date.now() + 31 * DAY_MS)
      await later.goto('/account')
      await heading(later, 'Account').waitFor()
      await later
        .getByRole('region', { name: 'API keys', exact: true })
        .getByRole('row', { name: /backend/ })
        .getByText('expired', { exact: true })
        .waitFor()
    } finally {
      await later.close()
    }
  })

  it('lists a second browser’s session and revokes it, which signs that browser out', async () => {
    const second = await newContext(WINDOWS_UA)
    try {
      const other = await second.newPage()
      watch(other, 'second browser')
      await signIn(other, OWNER.password)
      await other.getByRole('link', { name: OWNER.name }).waitFor()
      expect(await sessionOf(other)).not.toBeNull()

      await page.reload()
      const sessions = region('Sessions')
      const rows = sessions.getByRole('table', { name: 'Your sessions' }).locator('tbody tr')
      await expect.poll(() => rows.count()).toBe(2)
      const mine = rows.filter({ hasText: 'This session' })
      const theirs = rows.filter({ hasText: 'Chrome 156 on Windows' })
      expect((await mine.getByRole('cell').allTextContents()).slice(0, 2)).toEqual([
        'Chrome 156 on LinuxThis session',
        '127.0.0.1',
      ])
      expect(await mine.getByRole('button').count()).toBe(0)
      expect(await theirs.getByRole('cell').nth(1).textContent()).toBe('127.0.0.1')
      await sessions.getByRole('button', { name: 'Sign out other sessions' }).waitFor()
      await screenshot('sessions')

      await theirs.getByRole('button', { name: 'Revoke' }).click()
      await theirs.getByText('Sign this session out?').waitFor()
      await theirs.getByRole('button', { name: 'Revoke' }).click()
      await expect.poll(() => rows.count()).toBe(1)
      expect(await sessions.getByRole('button', { name: 'Sign out other sessions' }).count()).toBe(0)
      expect(await sessionOf(page)).not.toBeNull()

      expect(await sessionOf(other)).toBeNull()
      await other.goto('/account')
      await heading(other, 'Sign in').waitFor()
      expect(other.url()).toBe(`${base}/sign-in?next=${encodeURIComponent('/account')}`)

      // Signed in again there, it goes with "Sign out other sessions" too.
      await signIn(other, OWNER.password)
      await other.getByRole('link', { name: OWNER.name }).waitFor()
      await page.reload()
      await expect.poll(() => rows.count()).toBe(2)
      await sessions.getByRole('button', { name: 'Sign out other sessions' }).click()
      await sessions.getByText('Sign out the other session?').waitFor()
      await sessions.getByRole('button', { name: 'Sign out', exact: true }).click()
      await expect.poll(() => rows.count()).toBe(1)
      expect(await sessionOf(other)).toBeNull()
    } finally {
      await second.close()
    }
  })

  it('changes the password, refusing a mismatch and a wrong current password, and signs out the old one', async () => {
    const form = region('Password')
    const puts: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().endsWith('/api/user/password')) puts.push(request.url())
    })
    const second = await newContext(WINDOWS_UA)
    try {
      const other = await second.newPage()
      watch(other, 'second browser')
      await signIn(other, OWNER.password)
      await other.getByRole('link', { name: OWNER.name }).waitFor()
      await page.reload()
      const rows = region('Sessions').getByRole('table', { name: 'Your sessions' }).locator('tbody tr')
      await expect.poll(() => rows.count()).toBe(2)

      await form.getByLabel('Current password').fill(OWNER.password)
      await form.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD)
      await form.getByLabel('Confirm new password').fill(`${NEW_PASSWORD}!`)
      await form.getByRole('button', { name: 'Change password' }).click()
      await form.getByText('The new passwords do not match').waitFor()
      expect(await form.getByLabel('Confirm new password').getAttribute('aria-invalid')).toBe('true')
      expect(puts).toEqual([])

      await form.getByLabel('Current password').fill('not my password')
      await form.getByLabel('Confirm new password').fill(NEW_PASSWORD)
      await form.getByRole('button', { name: 'Change password' }).click()
      await form.getByText('currentPassword is not your current password').waitFor()
      expect(await form.getByLabel('Current password').getAttribute('aria-invalid')).toBe('true')
      expect(puts).toHaveLength(1)
      await screenshot('password-refused')

      await form.getByLabel('Current password').fill(OWNER.password)
      await form.getByRole('button', { name: 'Change password' }).click()
      await form
        .getByRole('status')
        .getByText('Password changed; your other sessions were signed out.')
        .waitFor()
      expect(await form.getByLabel('Current password').inputValue()).toBe('')
      // The list is refreshed: only this browser, on its new session, is left.
      await expect.poll(() => rows.count()).toBe(1)
      await rows.filter({ hasText: 'This session' }).waitFor()
      expect(await sessionOf(page)).not.toBeNull()
      expect(await sessionOf(other)).toBeNull()
      await screenshot('password-changed')

      await signIn(other, OWNER.password)
      await other.getByText('Invalid email or password').waitFor()
      await other.getByLabel('Password').fill(NEW_PASSWORD)
      await other.getByRole('button', { name: 'Sign in' }).click()
      await other.getByRole('link', { name: OWNER.name }).waitFor()
    } finally {
      await second.close()
    }
  })

  it('shows the wait after too many wrong current passwords, as the server words it', async () => {
    const form = region('Password')
    const refused = () => form.getByText('currentPassword is not your current password')
    let wait = ''
    // The throttle allows 5 failed attempts per account and address in its window (15 minutes).
    for (let attempt = 1; attempt <= 6 && wait === ''; attempt++) {
      await form.getByLabel('Current password').fill(`wrong guess ${attempt}`)
      await form.getByLabel('New password', { exact: true }).fill(OWNER.password)
      await form.getByLabel('Confirm new password').fill(OWNER.password)
      const answer = page.waitForResponse((r) => r.url().endsWith('/api/user/password'))
      await form.getByRole('button', { name: 'Change password' }).click()
      const response = await answer
      if (response.status() === 429) {
        expect(response.headers()['retry-after']).toMatch(/^\d+$/)
        wait = ((await response.json()) as { error: string }).error
      } else {
        expect(response.status()).toBe(400)
        await refused().waitFor()
      }
    }
    expect(wait).toMatch(/^Too many failed attempts: try again in \d+ seconds?$/)
    await form.getByRole('alert').getByText(wait, { exact: true }).waitFor()
    expect(await refused().count()).toBe(0)
    await screenshot('password-throttled')
  })

  it('logged no script errors or CSP violations', () => {
    expect(pageErrors).toEqual([])
  })
})
