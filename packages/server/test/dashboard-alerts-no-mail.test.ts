/**
 * The alert form without SMTP_URL, in Debian's Chromium (playwright-core) against the real server
 * (SQLite + chDB, loopback): the form says up front that e-mail is not set up, a rule with an e-mail
 * recipient is saved all the same, and the page shows the server's warning that it mails nobody.
 * The dashboard is built first when `dist/` is stale.
 */
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../src/sites/site.js'
import { launchChromium, openSignedInPage } from '../src/testing/browser.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

let t: TestInstance
let browser: Browser
let page: Page
let site: Site
const pageErrors: string[] = []

beforeAll(async () => {
  const [build] = await Promise.all([
    ensureDashboardBuilt(),
    (async () => {
      t = await openTestInstance({ workers: false })
    })(),
  ])
  if (build.built) console.info(`built the dashboard in ${build.ms} ms`)
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' })
  const seeded = await t.seed()
  site = seeded.site
  browser = await launchChromium()
  ;({ page } = await openSignedInPage(browser, {
    baseURL: base,
    cookie: seeded.cookie,
    errors: pageErrors,
    label: 'owner',
  }))
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await t?.close()
})

describe('the alert form without e-mail', () => {
  it('says e-mail is not set up before saving, saves the rule and shows the warning', async () => {
    await page.goto(`/sites/${site.siteId}/alerts`)
    const form = page.getByRole('region', { name: 'Add an alert rule' })
    await form.getByText('E-mail is not set up on this server').waitFor()
    await form.getByLabel('Name').fill('Traffic spike')
    await form.getByLabel('E-mail recipients (optional)').fill('oncall@example.com')
    await form.getByRole('button', { name: 'Create rule' }).click()
    await page.getByText('E-mails oncall@example.com (waits for confirmation)').waitFor()
    await page
      .getByRole('status')
      .getByText('E-mail is not configured (set SMTP_URL): the rule was saved and calls its webhooks')
      .waitFor()
    const rules = await t.services.alerts.rules.list(site.siteId)
    expect(rules.map((r) => [r.name, r.emailRecipients])).toEqual([['Traffic spike', ['oncall@example.com']]])
    expect(pageErrors).toEqual([])
  })
})
