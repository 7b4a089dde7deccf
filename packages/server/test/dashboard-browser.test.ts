/**
 * The dashboard end to end: Debian's Chromium (playwright-core) drives the built app served by the real
 * server (whole app in process on SQLite + chDB, listening on loopback), as a new owner would: sign up,
 * create an organization and a site, install the snippet and watch the first event arrive, change the
 * configuration, manage members, API keys, webhooks and alerts, sign out and in again.
 * The tests run in order and share one page. The dashboard is built first when `dist/` is stale.
 */
import crypto from 'node:crypto'
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import { strToU8, zipSync } from 'fflate'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  CHROME_UA,
  collectPageErrors,
  launchChromium,
  newChromeContext,
  newDashboardContext,
} from '../src/testing/browser.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'
import { startWebhookReceiver, type WebhookReceiver } from '../src/testing/webhook-receiver.js'

const POLL = { timeout: 10_000, interval: 50 }
const OWNER = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery staple' }

let t: TestInstance
let receiver: WebhookReceiver
let browser: Browser
let page: Page
let base: string
let siteId: number
/** Console errors and uncaught exceptions of the page (CSP violations land here too). */
const pageErrors: string[] = []

beforeAll(async () => {
  const build = await ensureDashboardBuilt()
  if (build.built) console.info(`built the dashboard in ${build.ms} ms`)
  receiver = await startWebhookReceiver()
  t = await openTestInstance({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '100' } })
  base = await t.app.listen({ port: 0, host: '127.0.0.1' })
  browser = await launchChromium()
  const context = await newDashboardContext(browser, base)
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base })
  page = await context.newPage()
  page.setDefaultTimeout(10_000)
  collectPageErrors(page, pageErrors, 'owner')
})

afterAll(async () => {
  await browser?.close()
  await t?.close()
  await receiver?.close()
})

const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name })
const alertText = () => page.getByRole('alert').allTextContents()

/** POST /api/track as a browser on the site's domain would (no API key). */
async function trackFromSite(body: Record<string, unknown>) {
  return fetch(`${base}/api/track`, {
    method: 'POST',
    headers: { origin: 'https://shop.example', 'user-agent': CHROME_UA, 'content-type': 'application/json' },
    body: JSON.stringify({ site_id: String(siteId), ...body }),
  })
}

describe('dashboard in Chromium', () => {
  it('signs up the first user, creates an organization and a site, and shows the snippet', async () => {
    // A fresh instance, without its owner yet, opens on creating that account.
    await page.goto('/')
    await heading('Create your account').waitFor()
    expect(new URL(page.url()).pathname).toBe('/sign-up')
    await page.getByLabel('Name').fill(OWNER.name)
    await page.getByLabel('Email').fill(OWNER.email)
    await page.getByLabel('Password').fill(OWNER.password)
    await page.getByRole('button', { name: 'Create account' }).click()

    await heading('Welcome to Pathlight').waitFor()
    expect(new URL(page.url()).pathname).toBe('/organizations/new')
    await page.getByLabel('Organization name').fill('Acme')
    await page.getByRole('button', { name: 'Create organization' }).click()

    await heading('Add your first site').waitFor()
    await page.getByRole('button', { name: 'Add site' }).click()
    // Browser validation first: nothing is sent with empty required fields.
    expect(new URL(page.url()).pathname).toMatch(/\/sites\/new$/)
    await page.getByLabel('Name').fill('Acme shop')
    await page.getByLabel('Domain').fill('not a domain!')
    await page.getByRole('button', { name: 'Add site' }).click()
    await page.getByText('domain must be a host name such as example.com').waitFor()
    expect(await page.getByLabel('Domain').getAttribute('aria-invalid')).toBe('true')
    await page.getByLabel('Domain').fill('https://Shop.Example/landing')
    await page.getByRole('button', { name: 'Add site' }).click()

    await heading('Acme shop').waitFor()
    const match = /\/sites\/(\d+)$/.exec(page.url())
    siteId = Number(match?.[1])
    expect(siteId).toBeGreaterThan(0)
    expect(await page.locator('.site-domain').textContent()).toBe('shop.example')

    const snippet = `<script defer src="${base}/api/script.js" data-site-id="${siteId}"></script>`
    expect(await page.locator('.snippet code').textContent()).toBe(snippet)
    await page.getByRole('button', { name: 'Copy snippet' }).click()
    await page.getByText('Copied', { exact: true }).waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippet)

    await page.getByText('Waiting for the first event…').waitFor()
    await page.screenshot({ path: '/tmp/dashboard-waiting.png', fullPage: true })
  })

  it('says why events that arrive are dropped, and what to change', async () => {
    const headless = CHROME_UA.replace('Chrome/', 'HeadlessChrome/')
    const response = await fetch(`${base}/api/track`, {
      method: 'POST',
      headers: { origin: 'https://shop.example', 'user-agent': headless, 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: String(siteId), pathname: '/' }),
    })
    expect(response.status).toBe(403)
    const alert = page.locator('.dropped-requests')
    await alert.getByText('1 request arrived and was dropped').waitFor()
    expect(await alert.innerText()).toMatch(/headless or automated browser.*turn off “Block bots”/s)
    await page.screenshot({ path: '/tmp/dashboard-dropped.png', fullPage: true })
  })

  it('turns the check green when the first event arrives', async () => {
    const sent = Date.now()
    const response = await trackFromSite({ pathname: '/', hostname: 'shop.example' })
    expect(response.status, await response.text()).toBe(200)
    await page.getByText('Receiving events.').waitFor()
    const waited = Date.now() - sent
    expect(waited).toBeLessThan(5000)
    expect(await page.getByText('Waiting for the first event…').count()).toBe(0)
    await page.screenshot({ path: '/tmp/dashboard-receiving.png', fullPage: true })
  })

  it('starts a new site’s chart on the day it was added, not with a month of zeros', async () => {
    await page.goto(`/sites/${siteId}?period=30d`)
    await page.locator('.chart-point circle').first().waitFor()
    // The site was added today: one day in the chart, with its one visitor.
    expect(await page.locator('.chart-table tbody td:last-child').allTextContents()).toEqual(['1'])
    expect(await page.locator('.chart-point circle').count()).toBe(1)
    expect(await page.getByTestId('chart-since').textContent()).toMatch(
      /^From [A-Z][a-z]{2} \d{1,2}, \d{4}, when the site was added\.$/,
    )
    await page.screenshot({ path: '/tmp/dashboard-new-site-chart.png', fullPage: true })
  })

  it('ends today’s chart at the current hour, the hours to come drawn as no point', async () => {
    const hourBefore = new Date().getUTCHours()
    await page.goto(`/sites/${siteId}?period=today&tz=UTC`)
    await page.locator('.chart-point circle').first().waitFor()
    const hourAfter = new Date().getUTCHours()
    const points = await page.locator('.chart-point').count()
    const drawn = await page.locator('.chart-point circle').count()
    const toCome = await page.locator('.chart-point-to-come').count()
    // The chart starts at the hour the site was added (today) and spans the day to 23:00; the hours
    // after the one holding now are still to come, drawn as no point, and empty in the table.
    expect([23 - hourBefore, 23 - hourAfter]).toContain(toCome)
    expect(drawn).toBe(points - toCome)
    expect(drawn).toBeGreaterThan(0)
    const rows = await page.locator('.chart-table tbody td:nth-child(2)').allTextContents()
    expect(rows.slice(drawn)).toEqual(Array(toCome).fill(''))
    expect(rows.slice(0, drawn).every((text) => /^\d+$/.test(text))).toBe(true)
    await page.screenshot({ path: '/tmp/dashboard-today-chart.png', fullPage: true })
  })

  it('keeps a configuration change across a reload and shows the server’s message for a bad IP', async () => {
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Settings' }).click()
    const errors = page.getByRole('checkbox', { name: 'JavaScript errors' })
    await errors.waitFor()
    expect(await errors.isChecked()).toBe(false)
    await errors.check()
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('Saved: JavaScript errors.').waitFor()

    await page.reload()
    await heading('Acme shop').waitFor()
    expect(await page.getByRole('checkbox', { name: 'JavaScript errors' }).isChecked()).toBe(true)

    const ips = page.getByLabel('Excluded IP addresses')
    await ips.fill('10.0.0.0/8\n999.1.1.1')
    await page.getByRole('button', { name: 'Save changes' }).click()
    const message = 'entry 1: "999.1.1.1" is not an IP address or CIDR range'
    await page.getByText(message).waitFor()
    expect(await alertText()).toContain('Invalid site configuration')
    // The message is tied to its field for assistive technology.
    expect(await ips.getAttribute('aria-invalid')).toBe('true')
    const describedBy = (await ips.getAttribute('aria-describedby')) ?? ''
    const description = await page.evaluate(
      (ids) => ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' '),
      describedBy.split(' '),
    )
    expect(description).toContain(message)
    await page.screenshot({ path: '/tmp/dashboard-settings-error.png', fullPage: true })

    await ips.fill('10.0.0.0/8\n2001:db8::/32')
    await page.getByLabel('Excluded countries').fill('de, fr')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('Saved: Excluded IP addresses and Excluded countries.').waitFor()
    await page.reload()
    await heading('Acme shop').waitFor()
    expect(await page.getByLabel('Excluded IP addresses').inputValue()).toBe('10.0.0.0/8\n2001:db8::/32')
    expect(await page.getByLabel('Excluded countries').inputValue()).toBe('DE\nFR')

    const stored = await t.services.metadata.db
      .selectFrom('site')
      .select(['track_errors', 'excluded_ips', 'excluded_countries'])
      .where('site_id', '=', siteId)
      .executeTakeFirstOrThrow()
    expect(Boolean(stored.track_errors)).toBe(true)
    expect(JSON.parse(stored.excluded_ips)).toEqual(['10.0.0.0/8', '2001:db8::/32'])
    expect(JSON.parse(stored.excluded_countries)).toEqual(['DE', 'FR'])

    // Renaming the site: the heading follows at once and after a reload (the domain stays as it was).
    await page.getByLabel('Site name').fill('Acme shop EU')
    await page.getByRole('button', { name: 'Save name and domain' }).click()
    await heading('Acme shop EU').waitFor()
    await page.reload()
    await heading('Acme shop EU').waitFor()
    expect(await page.getByLabel('Site domain').inputValue()).toBe('shop.example')
  })

  it('generates, shows and revokes the private link key', async () => {
    const section = page.getByRole('region', { name: 'Private link' })
    await section.getByText('No private link key.').waitFor()
    await section.getByRole('button', { name: 'Generate a key' }).click()
    const key = section.locator('.secret-value')
    await key.waitFor()
    const value = (await key.textContent()) ?? ''
    expect(value.length).toBeGreaterThanOrEqual(32)
    const stored = await t.services.metadata.db
      .selectFrom('site')
      .select('private_link_key')
      .where('site_id', '=', siteId)
      .executeTakeFirstOrThrow()
    expect(stored.private_link_key).toBe(value)
    await section.getByRole('button', { name: 'Revoke' }).click()
    await section.getByRole('button', { name: 'Revoke key' }).click()
    await section.getByText('No private link key.').waitFor()
  })

  it('imports an NDJSON file with progress and a summary, and downloads the export', async () => {
    const section = page.getByRole('region', { name: 'Import and export' })
    // The import form stands apart from the export's Download button above it.
    const downloadBox = await section.getByRole('link', { name: 'Download events (NDJSON)' }).boundingBox()
    const importBox = await section.getByRole('heading', { name: 'Import', exact: true }).boundingBox()
    expect(
      downloadBox && importBox && importBox.y - (downloadBox.y + downloadBox.height),
    ).toBeGreaterThanOrEqual(24)
    const lines = [
      { timestamp: '2026-01-05T10:00:00Z', pathname: '/imported', user_id: 'visitor-1' },
      { timestamp: '2026-01-05T10:01:00Z', pathname: '/imported/two', user_id: 'visitor-1' },
      { timestamp: 'yesterday', pathname: '/bad' },
    ]
    await section.getByLabel('File').setInputFiles({
      name: 'history.ndjson',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(lines.map((line) => JSON.stringify(line)).join('\n')),
    })
    await section.getByRole('button', { name: 'Import', exact: true }).click()
    const summary = section.getByRole('status')
    await summary.getByText('Imported 2 events; 1 lines rejected.').waitFor()
    expect(await summary.getByRole('listitem').allTextContents()).toEqual([
      'Line 3: timestamp: must be an ISO 8601 date-time with Z or an offset',
    ])

    await section.getByLabel('From (optional)').fill('2026-01-05')
    await section.getByLabel('To (optional)').fill('2026-01-05')
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('link', { name: 'Download events (NDJSON)' }).click(),
    ])
    expect(download.suggestedFilename()).toBe(`pathlight-site-${siteId}-2026-01-05-2026-01-05.ndjson`)
    const text = await (await download.createReadStream()).toArray()
    const exported = Buffer.concat(text as Buffer[])
      .toString('utf8')
      .trimEnd()
      .split('\n')
    expect(exported.map((line) => (JSON.parse(line) as { pathname: string }).pathname)).toEqual([
      '/imported',
      '/imported/two',
    ])
  })

  it("imports Plausible's export ZIP as daily totals and removes them", async () => {
    const section = page.getByRole('region', { name: 'Import and export' })
    const visitors = 'date,visitors,pageviews,bounces,visits,visit_duration\n2025-12-01,40,90,10,50,3000\n'
    await section.getByLabel('File').setInputFiles({
      name: 'plausible-export.zip',
      mimeType: 'application/zip',
      buffer: Buffer.from(zipSync({ 'imported_visitors_20251201_20251201.csv': strToU8(visitors) })),
    })
    expect(await section.getByLabel('Format').inputValue()).toBe('plausible')
    await section.getByRole('button', { name: 'Import', exact: true }).click()
    await section.getByRole('status').getByText('Imported 1 daily rows.').waitFor()
    const totals = () =>
      t.services.events.query<{ n: number }>(
        'SELECT toUInt32(count()) AS n FROM imported_days WHERE site_id = {site:UInt32}',
        { site: siteId },
      )
    expect(await totals()).toEqual([{ n: 1 }])
    page.once('dialog', (dialog) => void dialog.accept())
    await section.getByRole('button', { name: 'Remove imported data' }).click()
    await section.getByText('Imported totals removed.').waitFor()
    expect(await totals()).toEqual([{ n: 0 }])
  })

  it('names the organization once on its page, its field still labelled', async () => {
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Sites' }).click()
    const form = page.getByRole('form', { name: 'Organization name' })
    await form.waitFor()
    expect(await form.getByLabel('Organization name').inputValue()).toBe('Acme')
    // The heading says it; the field's label is there for screen readers only.
    const shown = await form
      .getByText('Organization name', { exact: true })
      .evaluateAll((texts) =>
        texts.filter((text) => text.getBoundingClientRect().width > 1 && text.checkVisibility()),
      )
    expect(shown).toHaveLength(1)
    // The site cards keep their distance from the cards around them.
    const card = await page.locator('.site-card').first().boundingBox()
    const nameForm = await form.boundingBox()
    expect(nameForm && card && nameForm.y - (card.y + card.height)).toBeGreaterThan(8)
    await page.screenshot({ path: '/tmp/dashboard-organization.png', fullPage: true })
  })

  it('adds a member by email and shows the last-owner rule', async () => {
    await t.signUp('grace@example.com')
    await page
      .getByRole('navigation', { name: 'Organization' })
      .getByRole('link', { name: 'Members' })
      .click()
    await heading('Members').waitFor()
    await page.getByLabel('Email').fill('nobody@example.com')
    await page.getByRole('button', { name: 'Add member' }).click()
    await page.getByText('No account with that email; invite them by e-mail instead').waitFor()

    await page.getByLabel('Email').fill('grace@example.com')
    await page.getByLabel('Role', { exact: true }).selectOption('admin')
    await page.getByRole('button', { name: 'Add member' }).click()
    const grace = page.getByRole('row', { name: /grace@example\.com/ })
    await grace.waitFor()
    expect(await grace.getByRole('combobox').inputValue()).toBe('admin')

    const me = page.getByRole('row', { name: /ada@example\.com/ })
    await me.getByRole('button', { name: 'Leave' }).click()
    await me.getByRole('button', { name: 'Leave' }).click()
    await page.getByText('The last owner cannot be removed; make someone else owner first').waitFor()
    expect(await alertText()).toContain('The last owner cannot be removed; make someone else owner first')

    await me.getByRole('combobox', { name: 'Role of Ada Lovelace' }).selectOption('member')
    await page.getByText('The last owner cannot be demoted; make someone else owner first').waitFor()
    expect(await me.getByRole('combobox').inputValue()).toBe('owner')
    await page.screenshot({ path: '/tmp/dashboard-members.png', fullPage: true })
  })

  it('shows a new API key once, and the key works', async () => {
    await page.getByRole('link', { name: OWNER.name }).click()
    await heading('Account').waitFor()
    await page.getByLabel('Key name').fill('backend')
    await page.getByRole('button', { name: 'Create key' }).click()
    const notice = page.getByRole('region', { name: 'Your new API key “backend”' })
    const key = (await notice.locator('.secret-value').textContent()) ?? ''
    expect(key).toMatch(/^pl_[A-Za-z0-9_-]{43}$/)

    const tracked = await fetch(`${base}/api/track`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: String(siteId), pathname: '/from-server', ip_address: '203.0.113.9' }),
    })
    expect(tracked.status).toBe(200)

    await notice.getByRole('button', { name: 'I have copied it' }).click()
    await page.reload()
    await heading('Account').waitFor()
    await page
      .getByRole('row', { name: /backend/ })
      .getByText(`${key.slice(0, 10)}…`)
      .waitFor()
    expect(await page.content()).not.toContain(key)
  })

  it('creates a webhook, shows its secret once, and logs and redelivers deliveries', async () => {
    await page.goto(`/sites/${siteId}/webhooks`)
    await page.getByRole('heading', { name: 'Add a webhook' }).waitFor()
    // The hint says http is taken too, and how to allow a local address.
    const hint = await page
      .locator('.field', { has: page.getByLabel('Endpoint URL') })
      .locator('.hint')
      .textContent()
    expect(hint).toContain('http:// or https://')
    expect(hint).toContain('WEBHOOKS_ALLOW_PRIVATE=true')
    await page.getByLabel('Endpoint URL').fill('ftp://example.com/x')
    await page.getByRole('button', { name: 'Create webhook' }).click()
    await page.getByRole('alert').filter({ hasText: 'Invalid webhook' }).waitFor()
    expect(await page.getByLabel('Endpoint URL').getAttribute('aria-invalid')).toBe('true')

    await page.getByLabel('Endpoint URL').fill(receiver.url)
    await page.getByRole('checkbox', { name: 'event.tracked' }).check()
    await page.getByRole('button', { name: 'Create webhook' }).click()
    const notice = page.getByRole('region', { name: `Signing secret for ${receiver.url}` })
    const secret = (await notice.locator('.secret-value').textContent()) ?? ''
    expect(secret.length).toBeGreaterThanOrEqual(32)
    await page.screenshot({ path: '/tmp/dashboard-webhooks.png', fullPage: true })

    // A custom event: delivered, signed with the secret the page showed.
    const response = await trackFromSite({ type: 'custom_event', event_name: 'signup', pathname: '/join' })
    expect(response.status).toBe(200)
    await expect.poll(() => receiver.received.length, POLL).toBeGreaterThanOrEqual(1)
    const first = receiver.received[0]
    const expected = crypto
      .createHmac('sha256', secret)
      .update(first?.body ?? '')
      .digest('hex')
    expect(first?.headers['x-pathlight-signature']).toBe(expected)

    await page.reload()
    await page.getByRole('heading', { name: 'Add a webhook' }).waitFor()
    expect(await page.content()).not.toContain(secret)

    await page.getByRole('link', { name: 'Delivery log' }).click()
    await page.getByRole('heading', { name: 'Delivery log' }).waitFor()
    const delivered = page
      .locator('.item')
      .filter({ hasText: 'event.tracked' })
      .filter({ hasText: 'delivered' })
    await expect
      .poll(async () => {
        if ((await delivered.count()) > 0) return true
        await page.getByRole('button', { name: 'Refresh' }).click()
        return false
      }, POLL)
      .toBe(true)
    await delivered.first().getByText('Attempts').click()
    await delivered
      .first()
      .getByText(/HTTP 200/)
      .first()
      .waitFor()
    const before = receiver.received.length
    await delivered.first().getByRole('button', { name: 'Redeliver' }).click()
    await expect.poll(() => receiver.received.length, POLL).toBeGreaterThan(before)
    await expect.poll(() => page.locator('.item').filter({ hasText: 'event.tracked' }).count(), POLL).toBe(2)
    await page.screenshot({ path: '/tmp/dashboard-deliveries.png', fullPage: true })

    // Edit (turn off), rotate the secret (shown once, different), delete.
    await page.getByRole('link', { name: '← All webhooks' }).click()
    await page.getByRole('button', { name: 'Edit' }).click()
    await page.getByRole('checkbox', { name: 'Enabled' }).uncheck()
    await page.getByRole('button', { name: 'Save webhook' }).click()
    await page.getByText('Disabled', { exact: true }).waitFor()
    await page.getByRole('button', { name: 'Rotate secret' }).click()
    await page.getByRole('button', { name: 'Rotate', exact: true }).click()
    const rotated = (await notice.locator('.secret-value').textContent()) ?? ''
    expect(rotated.length).toBeGreaterThanOrEqual(32)
    expect(rotated).not.toBe(secret)
    await page.getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('No webhooks yet.').waitFor()
  })

  it('creates, edits and deletes an alert rule', async () => {
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Alerts' }).click()
    await page.getByRole('heading', { name: 'Add an alert rule' }).waitFor()
    await page.getByLabel('Name').fill('Traffic spike')
    await page.getByLabel('Window (minutes)').fill('2')
    await page.getByRole('button', { name: 'Create rule' }).click()
    await page.getByText('must be at least 5 minutes').waitFor()
    await page.getByLabel('Window (minutes)').fill('60')
    await page.getByRole('button', { name: 'Create rule' }).click()
    await page.getByText('Pageviews above 100 in 1 hour').waitFor()

    await page.getByRole('button', { name: 'Edit' }).click()
    await page.getByLabel('Threshold').first().fill('250')
    await page.getByRole('button', { name: 'Save rule' }).click()
    await page.getByText('Pageviews above 250 in 1 hour').waitFor()
    await page.getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('No alert rules yet.').waitFor()
  })

  it('shows a plain member the settings read-only, without admin actions', async () => {
    const mia = await t.signUp('mia@example.com')
    const db = t.services.metadata.db
    const { organization_id } = await db
      .selectFrom('site')
      .select('organization_id')
      .where('site_id', '=', siteId)
      .executeTakeFirstOrThrow()
    await db
      .insertInto('member')
      .values({
        id: crypto.randomUUID(),
        organization_id,
        user_id: mia.userId,
        role: 'member',
        created_at: new Date().toISOString(),
      })
      .execute()
    const context = await newChromeContext(browser, { baseURL: base })
    try {
      const other = await context.newPage()
      other.on('pageerror', (error) => pageErrors.push(`member page: ${error.message}`))
      await other.goto(`/sites/${siteId}/settings`)
      await other.getByLabel('Email').fill('mia@example.com')
      await other.getByLabel('Password').fill('correct horse battery staple')
      await other.getByRole('button', { name: 'Sign in' }).click()
      await other.getByText('settings are read-only for you').waitFor()
      expect(await other.getByRole('checkbox', { name: 'JavaScript errors' }).isDisabled()).toBe(true)
      expect(await other.getByRole('checkbox', { name: 'JavaScript errors' }).isChecked()).toBe(true)
      expect(await other.getByRole('heading', { name: 'Delete this site' }).count()).toBe(0)
      expect(await other.getByRole('button', { name: 'Generate a key' }).count()).toBe(0)

      await other.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Webhooks' }).click()
      await other.getByText('Webhooks are managed by the admins and owners').waitFor()
      await other
        .getByRole('navigation', { name: 'Organization' })
        .getByRole('link', { name: 'Sites' })
        .click()
      await other.getByRole('link', { name: /Acme shop/ }).waitFor()
      expect(await other.getByRole('link', { name: 'Add a site' }).count()).toBe(0)
      // The role comes from the session's organizations, loaded apart from the sites list.
      await other.getByText('Your role: member').waitFor()
    } finally {
      await context.close()
    }
  })

  it('signs out, and signs back in to the page asked for', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click()
    await heading('Sign in').waitFor()
    const session = await page.evaluate(() => fetch('/api/auth/get-session').then((r) => r.json()))
    expect(session).toBeNull()

    await page.goto(`/sites/${siteId}/settings`)
    await heading('Sign in').waitFor()
    expect(page.url()).toBe(`${base}/sign-in?next=${encodeURIComponent(`/sites/${siteId}/settings`)}`)
    await page.getByLabel('Email').fill(OWNER.email)
    await page.getByLabel('Password').fill('wrong password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByText('Invalid email or password').waitFor()

    await page.getByLabel('Password').fill(OWNER.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('checkbox', { name: 'JavaScript errors' }).waitFor()
    expect(new URL(page.url()).pathname).toBe(`/sites/${siteId}/settings`)
    expect(await page.getByRole('checkbox', { name: 'JavaScript errors' }).isChecked()).toBe(true)
  })

  it('lands on the site after signing in without a page asked for', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click()
    await heading('Sign in').waitFor()
    await page.goto('/')
    await heading('Sign in').waitFor()
    expect(new URL(page.url()).pathname).toBe('/sign-in')
    await page.getByLabel('Email').fill(OWNER.email)
    await page.getByLabel('Password').fill(OWNER.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL((url) => url.pathname === `/sites/${siteId}`)
    await heading('Acme shop').waitFor()
  })

  it('logged no script errors or CSP violations', () => {
    expect(pageErrors).toEqual([])
  })
})
