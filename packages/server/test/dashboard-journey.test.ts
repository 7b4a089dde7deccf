/**
 * A new owner's whole journey in Debian's Chromium (playwright-core) against the real server (SQLite +
 * chDB, loopback, DB-IP geolocation on): sign up, create an organization and a site for shop.test,
 * copy the snippet from the app, load a fixture page of shop.test that contains exactly that snippet
 * (the tracker served by the server, cross-origin), watch the onboarding check turn green, compare the
 * overview's figures with the v1 API's (an API key created in the app), filter every panel by a
 * country (events with known IP addresses: 8.8.8.8 is US, 81.2.69.142 GB) and keep it across a reload,
 * then a private link that stops working once revoked. Finally every page of the site with data and of
 * a site without data renders without console errors; screenshots go to
 * `os.tmpdir()/pathlight-dashboard-screens/` (not in the repository).
 *
 * Hosts: the app is http://127.0.0.1:PORT; the fixture page http://shop.test:PORT2/ (Chromium maps
 * *.test to 127.0.0.1 with --host-resolver-rules). The range is the current UTC day.
 * The tests run in order and share one page. The dashboard is built first when `dist/` is stale.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openGeolocator } from '../src/ingest/enrich/geolocation.js'
import {
  CHROME_UA,
  collectPageErrors,
  cookieHeaderOf,
  launchChromium,
  newChromeContext,
  newDashboardContext,
} from '../src/testing/browser.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const OWNER = { name: 'Grace Hopper', email: 'grace@example.com', password: 'correct horse battery staple' }
const POLL = { timeout: 10_000, interval: 100 }
/** Where the screenshots go (outside the repository). */
export const SCREENS = path.join(os.tmpdir(), 'pathlight-dashboard-screens')

let t: TestInstance
let browser: Browser
let context: BrowserContext
let page: Page
let base: string
let fixture: http.Server
let fixtureOrigin: string
/** The snippet the fixture page embeds, as copied from the app. */
let snippet = ''
let siteId: number
let organizationId: string
let cookie: string
let apiKey: string
const today = new Date().toISOString().slice(0, 10)
const VIEW = `period=custom&from=${today}&to=${today}&tz=UTC`
/** Console errors and uncaught exceptions of every page (CSP violations land here too). */
const pageErrors: string[] = []

const screenshot = (p: Page, name: string) =>
  p.screenshot({ path: path.join(SCREENS, `${name}.png`), fullPage: true })
const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name })
/** Wait until the KPI cards have loaded (not busy) and return the visitors figure. */
const settledKpis = async (p: Page) => {
  await p.waitForFunction(
    () =>
      document.querySelector('.kpis')?.getAttribute('aria-busy') === 'false' &&
      document.querySelector('[data-kpi="visitors"] .kpi-value') !== null,
  )
}
const kpiText = (p: Page, key: string) => p.locator(`[data-kpi="${key}"] .kpi-value`).textContent()

async function inject(method: 'GET' | 'POST', url: string, payload?: unknown, headers = { cookie }) {
  const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
  expect(response.statusCode, response.body).toBeLessThan(300)
  return response.json()
}

/** POST /api/track with the API key, as a server would (ip_address sets the visitor's address). */
async function track(body: Record<string, unknown>) {
  const response = await fetch(`${base}/api/track`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ site_id: String(siteId), hostname: 'shop.test', user_agent: CHROME_UA, ...body }),
  })
  expect(response.status, await response.text()).toBe(200)
}

beforeAll(async () => {
  fs.mkdirSync(SCREENS, { recursive: true })
  const [build] = await Promise.all([
    ensureDashboardBuilt(),
    (async () => {
      t = await openTestInstance({ geolocator: await openGeolocator() })
      base = await t.app.listen({ port: 0, host: '127.0.0.1' })
    })(),
  ])
  if (build.built) console.info(`built the dashboard in ${build.ms} ms`)
  // The customer's page: the snippet copied from the app, nothing else that tracks.
  fixture = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://x').pathname
    if (pathname !== '/' && pathname !== '/pricing') {
      response.writeHead(404).end()
      return
    }
    const title = pathname === '/' ? 'Shop' : 'Pricing'
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${snippet}</head>` +
          `<body><h1>${title}</h1><a href="/pricing">Pricing</a></body></html>`,
      )
  })
  await new Promise<void>((resolve) => fixture.listen(0, '127.0.0.1', resolve))
  fixtureOrigin = `http://shop.test:${(fixture.address() as AddressInfo).port}`
  browser = await launchChromium()
  context = await newDashboardContext(browser, base)
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base })
  page = await context.newPage()
  page.setDefaultTimeout(10_000)
  collectPageErrors(page, pageErrors, 'owner')
}, 120_000)

afterAll(async () => {
  await browser?.close()
  fixture?.close()
  await t?.close()
})

describe('a new owner’s journey', { timeout: 90_000 }, () => {
  it('signs up, creates an organization and a site, and copies the snippet', async () => {
    await page.goto('/sign-up')
    await heading('Create your account').waitFor()
    await page.getByLabel('Name').fill(OWNER.name)
    await page.getByLabel('Email').fill(OWNER.email)
    await page.getByLabel('Password').fill(OWNER.password)
    await page.getByRole('button', { name: 'Create account' }).click()
    await heading('Welcome to Pathlight').waitFor()
    await page.getByLabel('Organization name').fill('Hopper & Co')
    await page.getByRole('button', { name: 'Create organization' }).click()
    await heading('Add your first site').waitFor()
    organizationId = decodeURIComponent(/\/organizations\/([^/]+)\/sites\/new$/.exec(page.url())?.[1] ?? '')
    await page.getByLabel('Name').fill('Hopper shop')
    await page.getByLabel('Domain').fill('shop.test')
    await page.getByRole('button', { name: 'Add site' }).click()
    await heading('Hopper shop').waitFor()
    siteId = Number(/\/sites\/(\d+)$/.exec(page.url())?.[1])
    expect(siteId).toBeGreaterThan(0)

    await page.getByRole('button', { name: 'Copy snippet' }).click()
    await page.getByText('Copied', { exact: true }).waitFor()
    snippet = await page.evaluate(() => navigator.clipboard.readText())
    expect(snippet).toBe(`<script defer src="${base}/api/script.js" data-site-id="${siteId}"></script>`)
    await page.getByText('Waiting for the first event…').waitFor()

    cookie = await cookieHeaderOf(context, base)
  })

  it('turns the onboarding check green once the fixture page with the snippet is visited', async () => {
    const visitor = await newChromeContext(browser, { viewport: { width: 1280, height: 800 } })
    try {
      const shop = await visitor.newPage()
      collectPageErrors(shop, pageErrors, 'shop.test')
      const tracked = shop.waitForRequest((r) => r.url() === `${base}/api/track` && r.method() === 'POST')
      await shop.goto(`${fixtureOrigin}/`)
      // The page as served holds the copied snippet verbatim; the browser ran it.
      const served = await (
        await fetch(`http://127.0.0.1:${(fixture.address() as AddressInfo).port}/`)
      ).text()
      expect(served).toContain(snippet)
      expect(await shop.locator('script[data-site-id]').getAttribute('src')).toBe(`${base}/api/script.js`)
      await tracked
      // The second pageview's answer, before the context closes (closing it could cancel the request).
      const second = shop.waitForResponse(
        (r) => r.url() === `${base}/api/track` && r.request().method() === 'POST',
      )
      await shop.getByRole('link', { name: 'Pricing' }).click()
      await shop.waitForURL(`${fixtureOrigin}/pricing`)
      expect((await second).status()).toBe(200)
    } finally {
      await visitor.close()
    }
    const started = Date.now()
    await page.getByText('Receiving events.').waitFor({ timeout: 15_000 })
    console.info(`onboarding check turned green ${Date.now() - started} ms after the visit`)
    await screenshot(page, 'journey-receiving')
  })

  it('shows on the overview the visitors and pageviews the v1 API returns, with a key made in the app', async () => {
    await page.goto('/account')
    await page.getByRole('heading', { level: 1 }).first().waitFor()
    const keys = page.getByRole('region', { name: /API keys/i })
    await keys.getByLabel(/name/i).fill('journey')
    // It both tracks and reads the v1 API: the default scope (track only) would not do.
    await keys.getByRole('radio', { name: 'Full access' }).check()
    await keys.getByRole('button', { name: /create/i }).click()
    const secret = page.locator('.secret-value').first()
    await secret.waitFor()
    apiKey = ((await secret.textContent()) ?? '').trim()
    expect(apiKey.length).toBeGreaterThan(16)

    // Wait until both pageviews of the fixture visit are stored.
    await expect
      .poll(async () => {
        await t.services.buffer.flush()
        const stats = await fetch(
          `${base}/api/v1/sites/${siteId}/stats?start_date=${today}&end_date=${today}&time_zone=UTC`,
          { headers: { authorization: `Bearer ${apiKey}` } },
        )
        return stats.json()
      }, POLL)
      .toMatchObject({ data: { current: { pageviews: 2 } } })
    const v1 = await fetch(
      `${base}/api/v1/sites/${siteId}/stats?start_date=${today}&end_date=${today}&time_zone=UTC`,
      { headers: { authorization: `Bearer ${apiKey}` } },
    )
    expect(v1.status).toBe(200)
    const { current } = (await v1.json()).data as { current: { visitors: number; pageviews: number } }

    await page.goto(`/sites/${siteId}?${VIEW}`)
    await settledKpis(page)
    expect(await kpiText(page, 'visitors')).toBe(String(current.visitors))
    expect(await kpiText(page, 'pageviews')).toBe(String(current.pageviews))
    expect(current).toMatchObject({ visitors: 1, pageviews: 2 })
    await screenshot(page, 'journey-overview')
  })

  it('filters every panel by a country row and keeps the filter across a reload', async () => {
    await track({
      user_id: 'us-visitor',
      ip_address: '8.8.8.8',
      pathname: '/from-us',
      referrer: 'https://news.example/a',
    })
    await track({
      user_id: 'gb-visitor',
      ip_address: '81.2.69.142',
      pathname: '/from-gb',
      referrer: 'https://blog.example/b',
    })
    await track({ user_id: 'gb-visitor', ip_address: '81.2.69.142', pathname: '/from-gb/2' })
    await t.services.buffer.flush()

    await page.reload()
    await page.waitForFunction(
      () => document.querySelector('[data-kpi="visitors"] .kpi-value')?.textContent === '3',
    )
    const locations = page.getByRole('region', { name: 'Locations' })
    const us = locations.getByRole('button', { name: /^United States/ })
    await us.waitFor()
    await locations.getByRole('button', { name: /^United Kingdom/ }).waitFor()
    // The world map shades both countries and is itself a filter: click the United States on it.
    const map = page.getByRole('region', { name: 'Visitors by country' })
    await map.getByRole('button', { name: /^United Kingdom: 1 visitor\. Filter/ }).waitFor()
    await map.getByRole('button', { name: /^United States: \d+ visitors?\. Filter/ }).click()

    const chips = page.getByRole('list', { name: 'Filters' }).getByRole('listitem')
    await chips.getByText(/Country is/).waitFor()
    const checkFiltered = async () => {
      await page.waitForFunction(
        () =>
          document.querySelector('[data-kpi="visitors"] .kpi-value')?.textContent === '1' &&
          document.querySelector('.kpis')?.getAttribute('aria-busy') === 'false',
      )
      expect(await kpiText(page, 'pageviews')).toBe('1')
      const pages = page.getByRole('region', { name: 'Pages' })
      await expect.poll(() => pages.locator('.bar-label').allTextContents(), POLL).toEqual(['/from-us'])
      await expect
        .poll(
          () => page.getByRole('region', { name: 'Locations' }).locator('.bar-label').allTextContents(),
          POLL,
        )
        .toEqual(['United States'])
      // Sources: only the US visitor's referrer remains (no GB one in any tab shown first).
      await expect
        .poll(
          async () =>
            (
              await page.getByRole('region', { name: 'Sources' }).locator('.bar-label').allTextContents()
            ).some((label) => label.includes('blog.example')),
          POLL,
        )
        .toBe(false)
      await expect
        .poll(() => page.getByRole('region', { name: 'Devices' }).locator('[aria-busy="true"]').count(), POLL)
        .toBe(0)
      // The chart's table sums to the filtered visitors.
      const chartTotal = (await page.locator('.chart-table tbody td:last-child').allTextContents())
        .map(Number)
        .reduce((a, b) => a + b, 0)
      expect(chartTotal).toBe(1)
    }
    await checkFiltered()
    expect(JSON.parse(new URL(page.url()).searchParams.get('filters') ?? '[]')).toEqual([
      { parameter: 'country', type: 'equals', value: ['US'] },
    ])
    await screenshot(page, 'journey-country-filter')
    await page.reload()
    await chips.getByText(/Country is/).waitFor()
    await checkFiltered()
  })

  it('stops showing the private link view once the key is revoked', async () => {
    const generated = await inject('POST', `/api/sites/${siteId}/private-link-config`, {
      action: 'generate_private_link_key',
    })
    const key = generated.data.privateLinkKey as string
    const shared = await newDashboardContext(browser, base)
    try {
      const guest = await shared.newPage()
      guest.setDefaultTimeout(10_000)
      collectPageErrors(guest, pageErrors, 'shared')
      await guest.goto(`/sites/${siteId}?key=${encodeURIComponent(key)}&${VIEW}`)
      await guest.waitForFunction(
        () => document.querySelector('[data-kpi="visitors"] .kpi-value')?.textContent === '3',
      )
      await screenshot(guest, 'journey-shared')

      await inject('POST', `/api/sites/${siteId}/private-link-config`, { action: 'revoke_private_link_key' })
      await guest.reload()
      await guest
        .getByRole('heading', { level: 1, name: /Sign in|not available|does not work/i })
        .first()
        .waitFor()
      expect(await guest.locator('[data-kpi]').count()).toBe(0)
      expect(await guest.getByText('/from-us').count()).toBe(0)
      await screenshot(guest, 'journey-shared-revoked')
    } finally {
      await shared.close()
    }
  })

  const sitePages = [
    '',
    '/goals',
    '/errors',
    '/web-vitals',
    '/sessions',
    '/events',
    '/settings',
    '/webhooks',
    '/alerts',
  ]

  it('renders every page of the site with data', async () => {
    for (const sub of sitePages) {
      await page.goto(`/sites/${siteId}${sub}?${VIEW}`)
      await page.getByRole('heading', { level: 1 }).first().waitFor()
      await page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0)
      await page.waitForLoadState('networkidle')
      expect(await page.getByText('Something went wrong').count(), sub).toBe(0)
      await screenshot(page, `data${sub.replace('/', '-') || '-overview'}`)
    }
    for (const p of [
      '/account',
      `/organizations/${encodeURIComponent(organizationId)}`,
      `/organizations/${encodeURIComponent(organizationId)}/members`,
    ]) {
      await page.goto(p)
      await page.getByRole('heading', { level: 1 }).first().waitFor()
      await page.waitForLoadState('networkidle')
    }
  })

  it('renders every page of a site without data', async () => {
    const empty = await inject('POST', `/api/organizations/${encodeURIComponent(organizationId)}/sites`, {
      name: 'Empty',
      domain: 'empty.test',
    })
    const emptyId = Number(empty.siteId)
    expect(emptyId).toBeGreaterThan(0)
    for (const sub of sitePages) {
      await page.goto(`/sites/${emptyId}${sub}?${VIEW}`)
      await page.getByRole('heading', { level: 1 }).first().waitFor()
      await page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0)
      await page.waitForLoadState('networkidle')
      await screenshot(page, `empty${sub.replace('/', '-') || '-overview'}`)
    }
  })

  it('manages an experiment in the site settings, with the server’s messages under the fields', async () => {
    await inject('POST', `/api/sites/${siteId}/goals`, {
      name: 'Saw pricing',
      goalType: 'path',
      config: { pathPattern: '/pricing' },
    })
    await page.goto(`/sites/${siteId}/settings`)
    const card = page.getByRole('region', { name: 'Experiments' })
    await card.getByText('No experiments yet.').waitFor()
    await card.getByRole('button', { name: 'New experiment' }).click()
    await card.getByLabel('Name', { exact: true }).fill('Pricing page')
    expect(await card.getByLabel('Key', { exact: true }).inputValue()).toBe('pricing-page')
    await card.getByLabel('Variant 2 name').fill('control')
    await card.getByRole('button', { name: 'Create experiment' }).click()
    // Duplicate variant names: the server's message under the second variant's name.
    await card.getByText('variant names must be unique: "control" appears twice', { exact: true }).waitFor()
    expect(await card.getByLabel('Variant 2 name').getAttribute('aria-invalid')).toBe('true')
    expect(await card.getByRole('alert').first().textContent()).toContain('Invalid experiment')
    await screenshot(page, 'experiments-error')
    await card.getByLabel('Variant 2 name').fill('new')
    // The site's one goal is chosen already.
    expect(await card.getByLabel('Goal', { exact: true }).inputValue()).not.toBe('')
    await card.getByRole('button', { name: 'Create experiment' }).click()
    const row = card.locator('tr[data-experiment="pricing-page"]')
    await row.waitFor()
    expect(await row.locator('td').allTextContents()).toEqual(
      expect.arrayContaining([
        'Pricing page',
        'pricing-page',
        'control (control), new',
        'Saw pricing',
        'Draft',
      ]),
    )
    await row.getByRole('button', { name: 'Edit' }).click()
    await card.getByLabel('Status').selectOption('running')
    await card.getByRole('button', { name: 'Save experiment' }).click()
    await row.getByText('Running').waitFor()
    await page.reload()
    await row.getByText('Running').waitFor()
    await screenshot(page, 'experiments')
    const stored = await inject('GET', `/api/sites/${siteId}/experiments`)
    expect(stored.data).toMatchObject([
      {
        key: 'pricing-page',
        status: 'running',
        variants: [
          { name: 'control', control: true },
          { name: 'new', control: false },
        ],
      },
    ])
    await row.getByRole('button', { name: 'Delete' }).click()
    await row.getByRole('button', { name: 'Delete experiment' }).click()
    await card.getByText('No experiments yet.').waitFor()
  })

  it('logged no script errors or CSP violations', () => {
    expect(pageErrors).toEqual([])
  })
})
