/**
 * Two-factor sign-in in Debian's Chromium (playwright-core) against the real server (SQLite + chDB,
 * loopback), with a desktop Chrome user agent: enrolment on the account page (the QR code, the secret
 * as text, ten backup codes; a wrong first code refused under its field, a right one turning it on),
 * then signing in, which asks for a code after the password (an authenticator code, then a backup
 * code), and turning it off with the password. Codes are computed from the secret the page shows, as
 * an authenticator app would. Screenshots go to `os.tmpdir()/pathlight-dashboard-screens/two-factor-*.png`.
 * The tests run in order and share one page. The dashboard is built first when `dist/` is stale.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROME_UA, collectPageErrors, launchChromium, newDashboardContext } from '../src/testing/browser.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'
import { totpCode } from '../src/testing/totp.js'

const OWNER = {
  name: 'Margaret Hamilton',
  email: 'margaret@example.com',
  password: 'correct horse battery staple',
}
const SCREENS = path.join(os.tmpdir(), 'pathlight-dashboard-screens')

let t: TestInstance
let browser: Browser
let context: BrowserContext
let page: Page
let base: string
/** The authenticator URI, rebuilt from the secret the page shows. */
let totpURI = ''
let backupCodes: string[] = []
const pageErrors: string[] = []

const heading = (name: string) => page.getByRole('heading', { level: 1, name })
const region = () => page.getByRole('region', { name: 'Two-factor sign-in', exact: true })
const screenshot = (name: string) =>
  page.screenshot({ path: path.join(SCREENS, `two-factor-${name}.png`), fullPage: true })
const sessionUser = () =>
  page.evaluate(() =>
    fetch('/api/auth/get-session')
      .then((r) => r.json())
      .then((s: { user: { email: string; twoFactorEnabled: boolean } } | null) => s?.user ?? null),
  )

async function signOut() {
  await page.getByRole('button', { name: 'Sign out' }).click()
  await heading('Sign in').waitFor()
  expect(await sessionUser()).toBeNull()
}

async function enterPassword() {
  await page.getByLabel('Email').fill(OWNER.email)
  await page.getByLabel('Password').fill(OWNER.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
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
  context = await newDashboardContext(browser, base, { userAgent: CHROME_UA })
  page = await context.newPage()
  page.setDefaultTimeout(10_000)
  collectPageErrors(page, pageErrors, 'owner')
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await t?.close()
})

describe('two-factor sign-in in the dashboard', () => {
  it('enrols on the account page: QR code, secret, backup codes, then a first code turns it on', async () => {
    await page.goto('/sign-up')
    await heading('Create your account').waitFor()
    await page.getByLabel('Name').fill(OWNER.name)
    await page.getByLabel('Email').fill(OWNER.email)
    await page.getByLabel('Password').fill(OWNER.password)
    await page.getByRole('button', { name: 'Create account' }).click()
    await heading('Welcome to Pathlight').waitFor()
    await page.getByRole('link', { name: OWNER.name }).click()
    await heading('Account').waitFor()

    const card = region()
    await card.getByText('Off.', { exact: true }).waitFor()
    await card.getByLabel('Your password').fill('not my password')
    await card.getByRole('button', { name: 'Set up two-factor sign-in' }).click()
    await card.getByText('Invalid password').waitFor()
    expect(await card.getByLabel('Your password').getAttribute('aria-invalid')).toBe('true')

    await card.getByLabel('Your password').fill(OWNER.password)
    await card.getByRole('button', { name: 'Set up two-factor sign-in' }).click()
    const qr = card.getByRole('img', { name: 'QR code for your authenticator app' })
    await qr.waitFor()
    expect(await qr.locator('path').getAttribute('d')).toMatch(/^(M\d+ \d+h1v1h-1z){200,}$/)
    const secret = ((await card.locator('.totp-secret').textContent()) ?? '').replace(/ /g, '')
    expect(secret).toMatch(/^[A-Z2-7]{32,}$/)
    totpURI = `otpauth://totp/Pathlight:${encodeURIComponent(OWNER.email)}?secret=${secret}&issuer=Pathlight`
    const codes = card.getByRole('region', { name: 'Backup codes' }).getByRole('listitem')
    backupCodes = (await codes.allTextContents()).map((code) => code.trim())
    expect(backupCodes).toHaveLength(10)
    for (const code of backupCodes) expect(code).toMatch(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/)
    await screenshot('enrolment')

    await card.getByLabel('Code from your app').fill(totpCode(totpURI, Date.now(), 20))
    await card.getByRole('button', { name: 'Turn on' }).click()
    await card.getByText('That code is not valid; enter the one your authenticator app shows now').waitFor()
    expect(await card.getByLabel('Code from your app').getAttribute('aria-invalid')).toBe('true')
    expect((await sessionUser())?.twoFactorEnabled).toBe(false)

    await card.getByLabel('Code from your app').fill(totpCode(totpURI))
    await card.getByRole('button', { name: 'Turn on' }).click()
    await card.getByRole('status').getByText('Two-factor sign-in is on.').waitFor()
    await card.getByText('On.', { exact: true }).waitFor()
    expect(await card.getByRole('img').count()).toBe(0)
    expect((await sessionUser())?.twoFactorEnabled).toBe(true)
    // The sessions list follows the session the server replaced on turning it on.
    const rows = page.getByRole('table', { name: 'Your sessions' }).locator('tbody tr')
    await expect.poll(() => rows.filter({ hasText: 'This session' }).count()).toBe(1)
    await screenshot('on')
  })

  it('asks for the authenticator code after the password, refusing a wrong one', async () => {
    await signOut()
    await enterPassword()
    const code = page.getByLabel('Authentication code')
    await code.waitFor()
    expect(await sessionUser()).toBeNull()
    await code.fill(totpCode(totpURI, Date.now(), -20))
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.getByText('That code is not valid; enter the one your authenticator app shows now').waitFor()
    expect(await sessionUser()).toBeNull()
    await screenshot('sign-in-code')

    await code.fill(totpCode(totpURI))
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.getByRole('link', { name: OWNER.name }).waitFor()
    expect((await sessionUser())?.email).toBe(OWNER.email)
  })

  it('signs in with a backup code instead, once', async () => {
    await signOut()
    await enterPassword()
    await page.getByRole('button', { name: 'Use a backup code instead' }).click()
    await page.getByLabel('Backup code').fill(backupCodes[0] ?? '')
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.getByRole('link', { name: OWNER.name }).waitFor()

    await signOut()
    await enterPassword()
    await page.getByRole('button', { name: 'Use a backup code instead' }).click()
    await page.getByLabel('Backup code').fill(backupCodes[0] ?? '')
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.getByText('That backup code is not valid, or it was used already').waitFor()
    await page.getByLabel('Backup code').fill(backupCodes[1] ?? '')
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.getByRole('link', { name: OWNER.name }).waitFor()
  })

  it('turns it off with the password; the password alone signs in again', async () => {
    await page.getByRole('link', { name: OWNER.name }).click()
    await heading('Account').waitFor()
    const card = region()
    await card.getByText('On.', { exact: true }).waitFor()
    await card.getByLabel('Your password').fill(OWNER.password)
    await card.getByRole('button', { name: 'Turn off two-factor sign-in' }).click()
    await card.getByRole('status').getByText('Two-factor sign-in is off.').waitFor()
    expect((await sessionUser())?.twoFactorEnabled).toBe(false)

    await signOut()
    await enterPassword()
    await page.getByRole('link', { name: OWNER.name }).waitFor()
  })

  it('logged no script errors or CSP violations', () => {
    expect(pageErrors).toEqual([])
  })
})
