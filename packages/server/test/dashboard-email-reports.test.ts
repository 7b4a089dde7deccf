/**
 * E-mail reports in Debian's Chromium (playwright-core) against the real server (SQLite + chDB,
 * loopback) with a real SMTP server in this process: an owner schedules a weekly report in the site
 * settings and sends it now; the mail that arrives is rendered in Chromium, its figures are those the
 * v1 stats and pages answer for the week it names, and its screenshot is the README's picture
 * (`docs/images/email-report.png` when UPDATE_DOCS_IMAGES=1, else under `os.tmpdir()`); the alert
 * form takes e-mail recipients; then the mail's unsubscribe link, opened signed out, unsubscribes on its
 * button and the next send leaves the address out. The dashboard is built first when `dist/` is stale.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Geolocator, openGeolocator } from '../src/ingest/enrich/geolocation.js'
import { formatChange, formatDuration } from '../src/mail/templates/email-report.js'
import { EMAIL_VERIFICATION_SUBJECT } from '../src/mail/templates/email-verification.js'
import type { Site } from '../src/sites/site.js'
import { fromBool } from '../src/storage/metadata/schema.js'
import {
  collectPageErrors,
  launchChromium,
  newChromeContext,
  openSignedInPage,
} from '../src/testing/browser.js'
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from '../src/testing/smtp-receiver.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const SCREENS = path.join(os.tmpdir(), 'pathlight-dashboard-screens')
const README_IMAGE = path.resolve(import.meta.dirname, '../../../docs/images/email-report.png')
const DAY = 86_400_000
const USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const IPS = ['8.8.8.8', '81.2.69.142', '8.8.4.4', '81.2.69.160', '2.16.0.1']
const PAGES = ['/', '/pricing', '/blog/launch-week', '/docs/getting-started', '/signup', '/changelog']
const REFERRERS = [
  '',
  '',
  'https://www.google.com/',
  'https://news.ycombinator.com/item?id=1',
  'https://github.com/',
]

/** A small deterministic PRNG (mulberry32). */
function random(seed: number) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Visits of 1 to 4 pageviews, 07:00-19:00 UTC, over the four weeks from 2026-02-16. */
function generate(visits: number): string[] {
  const next = random(11)
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T
  const lines: string[] = []
  for (let v = 0; v < visits; v++) {
    const visitor = Math.floor(next() * 300)
    // More visits in the later weeks: the report shows growth.
    const day = Math.floor(Math.sqrt(next()) * 28)
    const start = Date.parse('2026-02-16T07:00:00Z') + day * DAY + Math.floor(next() * 12 * 3600_000)
    const referrer = pick(REFERRERS)
    const pages = 1 + Math.floor(next() * next() * 4)
    for (let i = 0; i < pages; i++) {
      lines.push(
        JSON.stringify({
          timestamp: new Date(start + i * 45_000).toISOString(),
          hostname: 'example.com',
          pathname: i === 0 ? pick(PAGES.slice(0, 4)) : pick(PAGES),
          referrer: i === 0 ? referrer : '',
          user_agent: USER_AGENT,
          ip_address: IPS[visitor % IPS.length],
          user_id: `visitor-${visitor}`,
        }),
      )
    }
  }
  return lines
}

let t: TestInstance
let receiver: SmtpReceiver
let geolocator: Geolocator
let browser: Browser
let base: string
let site: Site
let owner: { cookie: string; userId: string }
let apiKey: string
let page: Page
let reportMail: ReceivedMail
const pageErrors: string[] = []
// Wednesday: the last full week is 2026-03-02 .. 2026-03-08.
const now = Date.parse('2026-03-11T10:00:00.000Z')

const deliver = async () => {
  const runner = t.services.mailRunner
  if (!runner) throw new Error('mail is not configured')
  const before = receiver.received.length
  const ignoredBefore = receiver.ignored
  let total = 0
  for (let n = await runner.runOnce(); n > 0; n = await runner.runOnce()) total += n
  // Address verification mails are not kept (`ignoreSubjects`).
  return (await receiver.waitFor(before + total - (receiver.ignored - ignoredBefore))).slice(before)
}

beforeAll(async () => {
  fs.mkdirSync(SCREENS, { recursive: true })
  receiver = await startSmtpReceiver({ ignoreSubjects: [EMAIL_VERIFICATION_SUBJECT] })
  geolocator = await openGeolocator()
  const [build] = await Promise.all([
    ensureDashboardBuilt(),
    (async () => {
      t = await openTestInstance({
        geolocator,
        clock: () => now,
        workers: false,
        env: {
          SMTP_URL: receiver.url,
          MAIL_FROM: 'Pathlight <reports@pathlight.example>',
        },
      })
      base = await t.app.listen({ port: 0, host: '127.0.0.1' })
    })(),
  ])
  if (build.built) console.info(`built the dashboard in ${build.ms} ms`)
  owner = await t.signUp('ada@example.com')
  // Ada verified her address: as a member she gets the site's mails without a confirm link.
  await t.services.metadata.db
    .updateTable('user')
    .set({ emailVerified: fromBool(true) })
    .where('id', '=', owner.userId)
    .execute()
  const organizationId = await t.createOrganization(owner.cookie, 'Lovelace Analytics')
  site = await t.createSite(owner.cookie, organizationId, 'example.com')
  apiKey = await t.createApiKey(owner.cookie)
  const imported = await t.app.inject({
    method: 'POST',
    url: `/api/sites/${site.siteId}/import`,
    headers: { cookie: owner.cookie, 'content-type': 'application/x-ndjson' },
    payload: generate(900).join('\n'),
  })
  expect(imported.statusCode, imported.body).toBe(200)
  for (const [name, pathPattern] of [
    ['Signed up', '/signup'],
    ['Read the docs', '/docs/*'],
  ]) {
    const goal = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/goals`,
      headers: { cookie: owner.cookie },
      payload: { name, goalType: 'path', config: { pathPattern } },
    })
    expect(goal.statusCode, goal.body).toBe(201)
  }
  browser = await launchChromium()
  ;({ page } = await openSignedInPage(browser, {
    baseURL: base,
    cookie: owner.cookie,
    errors: pageErrors,
    label: 'owner',
  }))
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await t?.close()
  await receiver?.close()
  geolocator?.close()
})

describe('e-mail reports in the dashboard and in the mail', () => {
  it('schedules a weekly report in the site settings and sends it now', async () => {
    await page.goto(`/sites/${site.siteId}/settings`)
    const card = page.getByTestId('email-reports')
    await card.getByText('No e-mail reports yet.').waitFor()
    await card.getByLabel('Recipients').fill('ada@example.com\nnot-an-address')
    await card.getByRole('button', { name: 'Add e-mail report' }).click()
    await card.getByText('Entry 2: must be an e-mail address such as someone@example.com').waitFor()
    await card.getByLabel('Recipients').fill('ada@example.com')
    await card.getByLabel('Frequency').selectOption('weekly')
    await card.getByRole('button', { name: 'Add e-mail report' }).click()
    const row = card.locator('tbody tr')
    await row.getByText('ada@example.com').waitFor()
    expect(await row.count()).toBe(1)
    await row.getByRole('button', { name: 'Send now' }).click()
    await card.getByText('Sent 2026-03-02 to 2026-03-08 to ada@example.com.').waitFor()
    await row.getByText('2026-03-02 to 2026-03-08').waitFor()
    await page.screenshot({ path: path.join(SCREENS, 'email-reports-settings.png'), fullPage: true })
    const mails = await deliver()
    expect(mails.map((m) => m.to)).toEqual([['ada@example.com']])
    reportMail = mails[0] as ReceivedMail
  })

  it('renders the mail with the figures v1 answers for its week', async () => {
    const query = `start_date=2026-03-02&end_date=2026-03-08&time_zone=${encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC')}`
    const v1 = async (what: string, extra = '') => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/sites/${site.siteId}/${what}?${query}${extra}`,
        headers: { authorization: `Bearer ${apiKey}` },
      })
      expect(response.statusCode, response.body).toBe(200)
      return response.json().data
    }
    const stats = await v1('stats')
    const pages = await v1('pages', '&limit=5')
    const context = await newChromeContext(browser, { viewport: { width: 680, height: 900 } })
    const mailPage = await context.newPage()
    collectPageErrors(mailPage, pageErrors, 'mail')
    const requests: string[] = []
    mailPage.on('request', (request) => requests.push(request.url()))
    await mailPage.setContent(reportMail.html, { waitUntil: 'load' })
    expect(await mailPage.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Weekly report for example.com',
    )
    const cards = await mailPage
      .locator('td')
      .evaluateAll((cells) => cells.slice(0, 4).map((cell) => (cell as HTMLElement).innerText.split('\n')))
    expect(cards).toEqual([
      ['Visitors', stats.current.visitors.toLocaleString('en-US'), formatChange(stats.change.visitors)],
      ['Pageviews', stats.current.pageviews.toLocaleString('en-US'), formatChange(stats.change.pageviews)],
      [
        'Bounce rate',
        `${Math.round(stats.current.bounce_rate * 100)}%`,
        formatChange(stats.change.bounce_rate),
      ],
      [
        'Visit duration',
        formatDuration(stats.current.session_duration),
        formatChange(stats.change.session_duration),
      ],
    ])
    const topPages = mailPage.locator('table').nth(1).locator('tr')
    expect(await topPages.count()).toBe(pages.length + 1)
    for (const [i, p] of pages.entries()) {
      expect(
        await topPages
          .nth(i + 1)
          .locator('td')
          .allInnerTexts(),
      ).toEqual([p.pathname, String(p.pageviews)])
    }
    // A mail loads nothing from anywhere.
    expect(requests.filter((url) => !url.startsWith('about:'))).toEqual([])
    const shot = await mailPage.screenshot({ fullPage: true })
    fs.writeFileSync(path.join(SCREENS, 'email-report.png'), shot)
    if (process.env.UPDATE_DOCS_IMAGES === '1') fs.writeFileSync(README_IMAGE, shot)
    await context.close()
  })

  it('takes e-mail recipients in the alert form; an outsider confirms from the mailed link, signed out', async () => {
    await page.goto(`/sites/${site.siteId}/alerts`)
    const form = page.getByRole('region', { name: 'Add an alert rule' })
    expect(await form.getByText('E-mail is not set up on this server').count()).toBe(0)
    await form.getByLabel('Name').fill('Traffic spike')
    await form.getByLabel('E-mail recipients (optional)').fill('oncall@example.com\nnope')
    await form.getByRole('button', { name: 'Create rule' }).click()
    await form.getByText('must be an e-mail address such as someone@example.com').waitFor()
    await form.getByLabel('E-mail recipients (optional)').fill('oncall@example.com, ada@example.com')
    await form.getByRole('button', { name: 'Create rule' }).click()
    // ada is a member with a verified address: hers is on at once; oncall waits for its confirmation.
    await page.getByText('E-mails oncall@example.com (waits for confirmation), ada@example.com').waitFor()
    const rules = await t.services.alerts.rules.list(site.siteId)
    expect(rules.map((r) => r.emailRecipients)).toEqual([['oncall@example.com', 'ada@example.com']])

    const confirmation = (await deliver()).find((m) => m.to[0] === 'oncall@example.com')
    const link = /https?:\/\/[^/\s]+(\/alerts\/confirm\/[\w-]+)/.exec(confirmation?.text ?? '')
    expect(link).not.toBeNull()
    const context = await newChromeContext(browser, { baseURL: base })
    const signedOut = await context.newPage()
    collectPageErrors(signedOut, pageErrors, 'signed out')
    await signedOut.goto(link?.[1] ?? '')
    await signedOut.getByRole('heading', { name: 'Confirm the alert e-mails' }).waitFor()
    await signedOut.getByText('wait for this address to confirm.').waitFor()
    await signedOut.getByRole('button', { name: 'Confirm' }).click()
    await signedOut.getByText('are on: this address gets them.').waitFor()
    await context.close()
    await page.reload()
    await page.getByText('E-mails oncall@example.com, ada@example.com', { exact: true }).waitFor()
  })

  it("unsubscribes from the mail's link signed out, and the next send leaves the address out", async () => {
    const link = /https?:\/\/[^/\s]+(\/email-reports\/unsubscribe\/[\w-]+)/.exec(reportMail.text)
    expect(link).not.toBeNull()
    const context = await newChromeContext(browser, { baseURL: base })
    const signedOut = await context.newPage()
    collectPageErrors(signedOut, pageErrors, 'signed out')
    await signedOut.goto(link?.[1] ?? '')
    await signedOut.getByRole('heading', { name: 'Unsubscribe from the e-mail report' }).waitFor()
    await signedOut.getByText('is active: this address gets it.').waitFor()
    await signedOut.getByRole('button', { name: 'Unsubscribe' }).click()
    await signedOut.getByText('is stopped: this address gets no more of it.').waitFor()
    await context.close()

    await page.goto(`/sites/${site.siteId}/settings`)
    const card = page.getByTestId('email-reports')
    await card.getByText('unsubscribed').waitFor()
    await card.getByRole('button', { name: 'Send now' }).click()
    await card.getByText('No active recipient: nothing was sent.').waitFor()
    expect(await deliver()).toEqual([])
    expect(pageErrors).toEqual([])
  })
})
