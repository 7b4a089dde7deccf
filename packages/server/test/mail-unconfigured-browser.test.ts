/**
 * An instance without SMTP_URL in the dashboard (Chromium on the built app and the real server): the
 * forgot-password page and the members page's invite form say "E-mail is not configured: set SMTP_URL"
 * before anything is submitted, offer no button that would mail, and the forgot-password page names the
 * operator's command that prints a link instead.
 */
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  collectPageErrors,
  launchChromium,
  newDashboardContext,
  openSignedInPage,
} from '../src/testing/browser.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

let t: TestInstance
let browser: Browser
let base: string
const pageErrors: string[] = []
/** Requests the pages sent to routes that would mail. */
const mailingRequests: string[] = []

beforeAll(async () => {
  await ensureDashboardBuilt()
  t = await openTestInstance()
  base = await t.app.listen({ port: 0, host: '127.0.0.1' })
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  await t?.close()
})

const watchMailingRequests = (page: Page) =>
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (request.method() === 'POST' && /request-password-reset|\/invitations$/.test(url.pathname))
      mailingRequests.push(url.pathname)
  })

describe('without SMTP_URL, in the dashboard', () => {
  it('"Forgot password?" says e-mail is not configured before sending, and names the operator\'s command', async () => {
    const context = await newDashboardContext(browser, base)
    const page = await context.newPage()
    page.setDefaultTimeout(10_000)
    collectPageErrors(page, pageErrors, 'forgot')
    watchMailingRequests(page)
    await page.goto('/sign-in')
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    const notice = page.getByTestId('mail-not-configured')
    await notice.waitFor()
    expect(await notice.textContent()).toContain('E-mail is not configured: set SMTP_URL')
    expect(await page.getByText('npx pathlight reset-password').count()).toBe(1)
    await page.getByLabel('Email').fill('ada@example.com')
    expect(await page.getByRole('button', { name: 'Send the link' }).isDisabled()).toBe(true)
    expect(mailingRequests).toEqual([])
    await context.close()
  })

  it('the invite form says e-mail is not configured before inviting, and offers no Invite', async () => {
    const owner = await t.signUp('owner@example.com')
    const organizationId = await t.createOrganization(owner.cookie)
    const { context, page } = await openSignedInPage(browser, {
      baseURL: base,
      cookie: owner.cookie,
      errors: pageErrors,
      label: 'members',
    })
    watchMailingRequests(page)
    await page.goto(`/organizations/${organizationId}/members`)
    const card = page.getByRole('region', { name: 'Invite by e-mail' })
    const notice = card.getByTestId('mail-not-configured')
    await notice.waitFor()
    expect(await notice.textContent()).toContain('E-mail is not configured: set SMTP_URL')
    await card.getByLabel('Address to invite').fill('bob@example.com')
    expect(await card.getByRole('button', { name: 'Invite', exact: true }).isDisabled()).toBe(true)
    expect(mailingRequests).toEqual([])
    expect(pageErrors).toEqual([])
    await context.close()
  })
})
