/**
 * The dashboard's reports end to end: Debian's Chromium (playwright-core) drives the built app served
 * by the real server (SQLite + chDB, on loopback) over a small data set ingested with POST /api/track
 * at controlled times. Range 2026-03-10..11 (UTC); its previous period is 03-08..09.
 *
 * | visitor | browser         | events (UTC)                                                         |
 * |---------|-----------------|----------------------------------------------------------------------|
 * | p1      | Chrome, Windows | 03-08 12:00:00 pageview /, 12:00:20 /pricing (previous period)       |
 * | v1      | Chrome, Windows | 03-10 10:00:00 /, 10:00:30 /pricing, 10:01:00 custom signup -> 60 s  |
 * | v2      | Firefox, Linux  | 03-10 11:00:00 /, 11:00:05 vitals (LCP 2000), 11:00:20 TypeError     |
 * |         |                 | -> 20 s, a bounce                                                    |
 * | v3      | Safari, iPhone  | 03-11 09:00:00 /blog, 09:00:10 vitals (LCP 3600), 09:00:40 / -> 40 s |
 * | v4      | Firefox, Linux  | 03-11 12:00:00 /pricing -> 0 s, a bounce                             |
 *
 * Current: 4 visitors, 4 sessions, 6 pageviews, bounce rate 50 %, 30 s, 1.5 pages per session; the
 * previous period: 1, 1, 2, 0 %, 20 s, 2. Firefox only: 2, 2, 2, 100 %, 10 s, 1.
 * The tests run in order and share one page; the dashboard is built first when `dist/` is stale.
 */
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  collectPageErrors,
  DASHBOARD_VIEWPORT,
  launchChromium,
  newDashboardContext,
  openSignedInPage,
} from '../src/testing/browser.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:124.0) Gecko/20100101 Firefox/124.0'
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'
const TYPE_ERROR = "Cannot read properties of undefined (reading 'plan')"
const VIEW = 'period=custom&from=2026-03-10&to=2026-03-11&tz=UTC'

let t: TestInstance
let now = Date.now()
let browser: Browser
let page: Page
let base: string
let siteId: number
let cookie: string
let apiKey: string
/** Console errors and uncaught exceptions of the pages (CSP violations land here too). */
const pageErrors: string[] = []

async function track(at: string, user: string, userAgent: string, body: Record<string, unknown>) {
  now = Date.parse(at)
  const response = await fetch(`${base}/api/track`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      site_id: String(siteId),
      hostname: 'shop.example',
      user_id: user,
      user_agent: userAgent,
      ...body,
    }),
  })
  expect(response.status, await response.text()).toBe(200)
}

beforeAll(async () => {
  const [build] = await Promise.all([
    ensureDashboardBuilt(),
    (async () => {
      t = await openTestInstance({ clock: () => now })
      base = await t.app.listen({ port: 0, host: '127.0.0.1' })
    })(),
  ])
  if (build.built) console.info(`built the dashboard in ${build.ms} ms`)
  const seeded = await t.seed()
  cookie = seeded.cookie
  siteId = seeded.site.siteId
  apiKey = seeded.apiKey
  await t.app.inject({
    method: 'PUT',
    url: `/api/sites/${siteId}/config`,
    headers: { cookie },
    payload: { webVitals: true, trackErrors: true },
  })
  await track('2026-03-08T12:00:00.000Z', 'p1', CHROME_WINDOWS, { pathname: '/' })
  await track('2026-03-08T12:00:20.000Z', 'p1', CHROME_WINDOWS, { pathname: '/pricing' })
  await track('2026-03-10T10:00:00.000Z', 'v1', CHROME_WINDOWS, { pathname: '/' })
  await track('2026-03-10T10:00:30.000Z', 'v1', CHROME_WINDOWS, { pathname: '/pricing' })
  await track('2026-03-10T10:01:00.000Z', 'v1', CHROME_WINDOWS, {
    type: 'custom_event',
    pathname: '/pricing',
    event_name: 'signup',
    properties: '{"plan":"pro"}',
  })
  await track('2026-03-10T11:00:00.000Z', 'v2', FIREFOX_LINUX, { pathname: '/' })
  await track('2026-03-10T11:00:05.000Z', 'v2', FIREFOX_LINUX, {
    type: 'performance',
    pathname: '/',
    ...{ lcp: 2000, cls: 0.05, inp: 100, fcp: 1000, ttfb: 300 },
  })
  await track('2026-03-10T11:00:20.000Z', 'v2', FIREFOX_LINUX, {
    type: 'error',
    pathname: '/',
    event_name: 'TypeError',
    properties: JSON.stringify({
      message: TYPE_ERROR,
      stack: `TypeError: ${TYPE_ERROR}\n    at renderPlan (https://shop.example/assets/app.js:120:17)\n    at onClick (https://shop.example/assets/app.js:88:5)`,
      fileName: 'https://shop.example/assets/app.js',
      lineNumber: 120,
      columnNumber: 17,
    }),
  })
  await track('2026-03-11T09:00:00.000Z', 'v3', SAFARI_IPHONE, { pathname: '/blog' })
  await track('2026-03-11T09:00:10.000Z', 'v3', SAFARI_IPHONE, {
    type: 'performance',
    pathname: '/blog',
    ...{ lcp: 3600, cls: 0.2, inp: 300, fcp: 2200, ttfb: 900 },
  })
  await track('2026-03-11T09:00:40.000Z', 'v3', SAFARI_IPHONE, { pathname: '/' })
  await track('2026-03-11T12:00:00.000Z', 'v4', FIREFOX_LINUX, { pathname: '/pricing' })
  await t.services.buffer.flush()
  // The server's clock stands three minutes after v4's pageview: v4 is the one live visitor.
  now = Date.parse('2026-03-11T12:03:00.000Z')
  await t.app.inject({
    method: 'POST',
    url: `/api/sites/${siteId}/goals`,
    headers: { cookie },
    payload: { name: 'Saw pricing', goalType: 'path', config: { pathPattern: '/pricing' } },
  })

  browser = await launchChromium()
  ;({ page } = await openSignedInPage(browser, {
    baseURL: base,
    cookie,
    errors: pageErrors,
    label: 'owner',
  }))
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await t?.close()
})

const kpi = (key: string) => page.locator(`[data-kpi="${key}"] .kpi-value`)
const kpiTexts = async () =>
  Object.fromEntries(
    await Promise.all(
      ['visitors', 'sessions', 'pageviews', 'bounce_rate', 'session_duration', 'pages_per_session'].map(
        async (key) => [key, await kpi(key).textContent()] as const,
      ),
    ),
  )
/** Wait until the KPI cards show `visitors` (after a filter change the old figures stay until then). */
const kpisShow = (visitors: string) =>
  page.waitForFunction(
    (v) =>
      document.querySelector('[data-kpi="visitors"] .kpi-value')?.textContent === v &&
      document.querySelector('.kpis')?.getAttribute('aria-busy') === 'false',
    visitors,
  )

/** The box of `locator` on the page, CSS pixels. @throws when it is not rendered */
async function boxOf(locator: Locator) {
  const box = await locator.boundingBox()
  if (!box) throw new Error(`${locator} is not rendered`)
  return box
}

/** The text of `locator` as the lines it is laid out on (a line ends where the next character is lower). */
const linesOf = (locator: Locator) =>
  locator.evaluate((element) => {
    const lines: string[] = []
    let line = ''
    let top: number | undefined
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? ''
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange()
        range.setStart(node, i)
        range.setEnd(node, i + 1)
        const charTop = range.getBoundingClientRect().top
        if (top !== undefined && charTop > top + 2) {
          lines.push(line)
          line = ''
        }
        top = charTop
        line += text[i]
      }
    }
    return [...lines, line]
  })

describe('reports in Chromium', () => {
  it('shows the overview with the API’s figures, the chart, breakdowns and live visitors', async () => {
    await page.goto(`/sites/${siteId}?${VIEW}`)
    await kpisShow('4')
    const api = (
      await t.app.inject({
        method: 'GET',
        url: `/api/sites/${siteId}/stats?start_date=2026-03-10&end_date=2026-03-11&time_zone=UTC`,
        headers: { cookie },
      })
    ).json().data.current
    expect(api).toMatchObject({
      visitors: 4,
      sessions: 4,
      pageviews: 6,
      bounce_rate: 0.5,
      session_duration: 30,
    })
    expect(await kpiTexts()).toEqual({
      visitors: String(api.visitors),
      sessions: String(api.sessions),
      pageviews: String(api.pageviews),
      bounce_rate: `${api.bounce_rate * 100}%`,
      session_duration: `${api.session_duration}s`,
      pages_per_session: String(api.pages_per_session),
    })
    // Against the previous period (p1 alone): 1 visitor, 20 s, 2 pages per session, no bounce.
    const change = (key: string) => page.locator(`[data-kpi="${key}"] .kpi-change`).textContent()
    expect(await change('visitors')).toContain('+300%')
    expect(await change('session_duration')).toContain('+50%')
    expect(await change('pages_per_session')).toContain('−25%')
    expect(await change('bounce_rate')).toContain('–')

    // The chart: one point per day, with its figures as a table too.
    expect(await page.locator('.chart-point circle').count()).toBe(2)
    expect(await page.locator('.chart-table tbody td:last-child').allTextContents()).toEqual(['2', '2'])
    await page.getByRole('group', { name: 'Bucket' }).getByRole('button', { name: 'Hours' }).click()
    await page.waitForFunction(() => document.querySelectorAll('.chart-table tbody tr').length === 48)
    expect(new URL(page.url()).searchParams.get('bucket')).toBe('hour')
    // Another figure loads the series with that count alone: pageviews per hour, 6 in all.
    const pageviews = page.waitForResponse((r) => /\/series\?.*metrics=pageviews/.test(r.url()))
    await page.getByRole('group', { name: 'Chart figure' }).getByRole('button', { name: 'Pageviews' }).click()
    expect((await pageviews).status()).toBe(200)
    await page.locator('#chart-title', { hasText: 'Pageviews' }).waitFor()
    const hourly = await page.locator('.chart-table tbody td:last-child').allTextContents()
    expect(hourly).toHaveLength(48)
    expect(hourly.filter((text) => text !== '0')).toEqual(['2', '1', '2', '1'])
    expect(new URL(page.url()).searchParams.get('metric')).toBe('pageviews')

    const pages = page.getByRole('region', { name: 'Pages' })
    expect(await pages.locator('.bar-label').allTextContents()).toEqual(['/', '/pricing', '/blog'])
    expect(await pages.locator('.bar-row').first().getAttribute('title')).toBe('Filter: Page is /')
    await page
      .getByRole('region', { name: 'Locations' })
      .getByRole('link', { name: 'IP Geolocation by DB-IP' })
      .waitFor()
    // One credit for the page, though the world map shows countries too.
    await page.locator('.world-map-card svg').first().waitFor()
    const credits = page.getByRole('link', { name: 'IP Geolocation by DB-IP' })
    expect(await credits.count()).toBe(1)
    expect(await credits.getAttribute('href')).toBe('https://db-ip.com')
    await page.getByTestId('live-visitors').getByText('1 visitor in the last 5 minutes').waitFor()
    await page.screenshot({ path: '/tmp/dashboard-reports-overview.png', fullPage: true })
  })

  it('adds a filter from a breakdown row, keeps it across a reload, and removes it', async () => {
    const devices = page.getByRole('region', { name: 'Devices' })
    await devices.getByRole('button', { name: /^Firefox/ }).click()
    const chip = page.getByRole('list', { name: 'Filters' }).getByRole('listitem')
    await chip.getByText('Browser is Firefox').waitFor()
    await kpisShow('2')
    expect(await kpiTexts()).toEqual({
      visitors: '2',
      sessions: '2',
      pageviews: '2',
      bounce_rate: '100%',
      session_duration: '10s',
      pages_per_session: '1',
    })
    expect(JSON.parse(new URL(page.url()).searchParams.get('filters') ?? '[]')).toEqual([
      { parameter: 'browser', type: 'equals', value: ['Firefox'] },
    ])
    await page.screenshot({ path: '/tmp/dashboard-reports-filtered.png', fullPage: true })

    await page.reload()
    await kpisShow('2')
    await chip.getByText('Browser is Firefox').waitFor()
    expect(await page.locator('[data-kpi="bounce_rate"] .kpi-value').textContent()).toBe('100%')
    expect(new URL(page.url()).searchParams.get('bucket')).toBe('hour')

    await page.getByRole('button', { name: 'Remove filter: Browser is Firefox' }).click()
    await kpisShow('4')
    expect(await page.getByRole('list', { name: 'Filters' }).count()).toBe(0)
    expect(await kpi('session_duration').textContent()).toBe('30s')
    // Back brings the filter again: each filter change is a history entry.
    await page.goBack()
    await kpisShow('2')
    await page.goForward()
    await kpisShow('4')
  })

  it('lists goals with conversions, creates one, and shows the sessions that converted', async () => {
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Goals' }).click()
    expect(new URL(page.url()).search).toContain('from=2026-03-10')
    const pricing = page.locator('tr[data-goal="Saw pricing"]')
    await pricing.waitFor()
    // v1 and v4 visited /pricing: 2 of 4 sessions.
    expect(await pricing.locator('td.num').allTextContents()).toEqual(['2', '50%'])

    await page.getByLabel('Goal name').fill('Signed up')
    await page.getByRole('radio', { name: 'A custom event' }).check()
    await page.getByLabel('Event name').fill('signup')
    await page.getByRole('button', { name: 'Create goal' }).click()
    const signup = page.locator('tr[data-goal="Signed up"]')
    await signup.waitFor()
    expect(await signup.locator('td.num').allTextContents()).toEqual(['1', '25%'])
    expect(await signup.getByText('Event signup').count()).toBe(1)
    await page.screenshot({ path: '/tmp/dashboard-reports-goals.png', fullPage: true })

    await signup.getByRole('link', { name: 'Signed up' }).click()
    const converted = page.getByRole('region', { name: 'Sessions that converted' })
    await converted.locator('tbody tr').first().waitFor()
    expect(await converted.locator('tbody tr').count()).toBe(1)
    expect(await converted.locator('tbody tr td').nth(1).textContent()).toBe('/ → /pricing')
    await converted.locator('tbody tr a').click()
    const timeline = page.getByRole('region', { name: /^Events/ })
    await timeline.locator('.timeline-item').nth(2).waitFor()
    expect(await timeline.locator('.timeline-what').allTextContents()).toEqual([
      'Viewed /',
      'Viewed /pricing',
      'signup on /pricing (plan: pro)',
    ])
    expect(await timeline.locator('.timeline-time').allTextContents()).toEqual(['+0:00', '+0:30', '+1:00'])
    await page.screenshot({ path: '/tmp/dashboard-reports-session.png', fullPage: true })
  })

  it('lists errors and shows one with its readable stack trace', async () => {
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Errors' }).click()
    const row = page.getByRole('row', { name: new RegExp(TYPE_ERROR.replace(/[()]/g, '\\$&')) })
    await row.waitFor()
    expect(await row.locator('td.num').allTextContents()).toEqual(['1', '1', '100%'])
    await row.locator('.sparkline').waitFor()
    await row.getByRole('link', { name: TYPE_ERROR }).click()
    const trace = page.getByRole('list', { name: 'Stack trace' })
    await trace.waitFor()
    expect(await trace.locator('.stack-text').textContent()).toBe(`TypeError: ${TYPE_ERROR}`)
    expect(await trace.locator('.stack-frame').allTextContents()).toEqual([
      'renderPlan https://shop.example/assets/app.js:120:17',
      'onClick https://shop.example/assets/app.js:88:5',
    ])
    // The total comes from the buckets request, which may answer after the stack trace's.
    await page.getByText('1 occurrence in the period').waitFor()
    await page.screenshot({ path: '/tmp/dashboard-reports-error.png', fullPage: true })
  })

  it('shows the web vitals at p75 with their bands', async () => {
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Web vitals' }).click()
    const lcp = page.locator('[data-vital="lcp"]')
    await lcp.waitFor()
    // LCP 2000 and 3600: p75 3200 ms (needs improvement); one good, one needing improvement.
    expect(await lcp.locator('.vital-p75').textContent()).toBe('3.2 s')
    expect(await lcp.locator('.vital-rating').textContent()).toBe('Needs improvement')
    expect(await lcp.locator('.band').evaluateAll((bands) => bands.map((b) => b.className))).toEqual([
      'band band-good',
      'band band-needs_improvement',
    ])
    expect(await lcp.locator('.band').allTextContents()).toEqual(['50%', '50%'])
    expect(await page.locator('[data-vital="ttfb"] .vital-rating').textContent()).toBe('Good')
    expect(await page.locator('[data-vital="cls"] .vital-p75').textContent()).toBe('0.16')
    const byPage = page.getByRole('region', { name: 'By page' })
    await byPage.locator('tbody tr').nth(1).waitFor()
    expect(await byPage.locator('tbody tr').first().locator('td').allTextContents()).toEqual([
      '/',
      '1',
      '2 s',
      '100 ms',
      '0.05',
      '1 s',
      '300 ms',
    ])
    await page
      .getByRole('region', { name: 'By device type' })
      .getByRole('button', { name: 'mobile' })
      .waitFor()
    await page.screenshot({ path: '/tmp/dashboard-reports-vitals.png', fullPage: true })
  })

  it('opens a shared view with the private link key signed out, without settings', async () => {
    const generated = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${siteId}/private-link-config`,
      headers: { cookie },
      payload: { action: 'generate_private_link_key' },
    })
    const key = generated.json().data.privateLinkKey as string
    const shared = await newDashboardContext(browser, base)
    try {
      const guest = await shared.newPage()
      guest.setDefaultTimeout(10_000)
      collectPageErrors(guest, pageErrors, 'shared')
      await guest.goto(`/sites/${siteId}?key=${encodeURIComponent(key)}&${VIEW}`)
      await guest.waitForFunction(
        () => document.querySelector('[data-kpi="visitors"] .kpi-value')?.textContent === '4',
      )
      expect(await guest.getByText('Shared view · read-only').count()).toBe(1)
      const tabs = await guest.getByRole('navigation', { name: 'Site' }).getByRole('link').allTextContents()
      expect(tabs).toEqual([
        'Overview',
        'Goals',
        'Funnels',
        'Errors',
        'Web vitals',
        'Sessions',
        'Journeys',
        'Retention',
        'Crawlers',
      ])
      // The credit appears once, under the countries list (the world map beside it goes without).
      await guest.locator('.world-map-card svg').first().waitFor()
      expect(await guest.getByRole('link', { name: 'IP Geolocation by DB-IP' }).count()).toBe(1)
      await guest.screenshot({ path: '/tmp/dashboard-reports-shared.png', fullPage: true })

      // The key travels with the tabs; goals are read-only.
      await guest.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Goals' }).click()
      await guest.locator('tr[data-goal="Saw pricing"]').waitFor()
      expect(new URL(guest.url()).searchParams.get('key')).toBe(key)
      expect(await guest.getByRole('button', { name: 'Create goal' }).count()).toBe(0)
      expect(await guest.getByRole('button', { name: 'Edit' }).count()).toBe(0)
      await guest.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Sessions' }).click()
      const sessions = guest.getByRole('region', { name: /^Sessions/ })
      await sessions.getByRole('heading', { name: 'Sessions (4)' }).waitFor()
      expect(await sessions.locator('tbody tr').count()).toBe(4)
      await guest.screenshot({ path: '/tmp/dashboard-reports-sessions.png', fullPage: true })

      // Settings are not part of a shared view: signed out, they ask to sign in.
      await guest.goto(`/sites/${siteId}/settings?key=${encodeURIComponent(key)}`)
      await guest.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()
      // Without the key, the private site asks to sign in too.
      await guest.goto(`/sites/${siteId}?${VIEW}`)
      await guest.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()
      expect(new URL(guest.url()).searchParams.get('next')).toBe(`/sites/${siteId}?${VIEW}`)
    } finally {
      await shared.close()
    }
  })

  it('reads a one-day range, and its comparison, as one day', async () => {
    await page.goto(`/sites/${siteId}?period=custom&from=2026-03-11&to=2026-03-11&tz=UTC`)
    await kpisShow('2')
    expect(await page.getByTestId('range').textContent()).toBe('Mar 11, 2026')
    // Against 03-10 alone: v1 and v2.
    const versus = page.locator('[data-kpi="visitors"] .kpi-change')
    expect(await versus.getAttribute('title')).toBe('vs. Mar 10, 2026: 2')
    expect(await versus.locator('.visually-hidden').textContent()).toBe(' vs. Mar 10, 2026')
    // Today (the browser's day) against yesterday: one day each.
    await page.goto(`/sites/${siteId}?period=today&tz=UTC`)
    await page.locator('[data-kpi="visitors"] .kpi-change').waitFor()
    expect(await page.getByTestId('range').textContent()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/)
    expect(await versus.getAttribute('title')).toMatch(/^vs\. [A-Z][a-z]{2} \d{1,2}, \d{4}: 0$/)
  })

  it('wraps paths only between their segments, and keeps every site tab reachable on a phone', async () => {
    const path = '/docs/getting-started/installing-the-tracker-in-a-single-page-application/react-router'
    await track('2026-03-11T12:01:00.000Z', 'v5', FIREFOX_LINUX, { pathname: path })
    await t.services.buffer.flush()
    await page.setViewportSize({ width: 390, height: 844 })
    try {
      await page.goto(`/sites/${siteId}/events?${VIEW}`)
      const events = page.getByRole('region', { name: 'Events' })
      await events.locator('tbody tr').first().waitFor()
      expect(await events.locator('thead th').allTextContents()).toEqual([
        'Time',
        'Type',
        'What',
        'Page',
        'Country',
      ])
      const eventCell = events.locator('tbody tr').first().locator('td').nth(3)
      expect(await eventCell.locator('[title]').getAttribute('title')).toBe(path)
      // On more than one line at this width, each ending after a slash, never inside a word.
      const eventLines = await linesOf(eventCell)
      expect(eventLines.join('')).toBe(path)
      expect(eventLines.length).toBeGreaterThan(1)
      for (const line of eventLines.slice(0, -1)) expect(line).toMatch(/\/$/)

      await page.goto(`/sites/${siteId}/sessions?${VIEW}`)
      const sessions = page.getByRole('region', { name: /^Sessions/ })
      await sessions.getByRole('heading', { name: 'Sessions (5)' }).waitFor()
      const sessionCell = sessions.locator('tbody tr').first().locator('td').nth(1)
      expect(await sessionCell.locator('[title]').getAttribute('title')).toBe(path)
      const sessionLines = await linesOf(sessionCell)
      expect(sessionLines.join('')).toBe(path)
      expect(sessionLines.length).toBeGreaterThan(1)
      for (const line of sessionLines.slice(0, -1)) expect(line).toMatch(/\/$/)
      await page.screenshot({ path: '/tmp/dashboard-reports-390-sessions.png', fullPage: true })

      // The tab bar stays inside the window; each tab, one line high, scrolls fully into the bar's view.
      const bar = page.getByRole('navigation', { name: 'Site' })
      const barBox = await boxOf(bar)
      expect(barBox.x).toBeGreaterThanOrEqual(0)
      expect(barBox.x + barBox.width).toBeLessThanOrEqual(390)
      const tabs = bar.getByRole('link')
      expect(await tabs.count()).toBe(13)
      const heights = new Set<number>()
      for (const tab of await tabs.all()) {
        await tab.scrollIntoViewIfNeeded()
        const box = await boxOf(tab)
        const name = (await tab.textContent()) ?? ''
        expect(box.x, name).toBeGreaterThanOrEqual(barBox.x - 1)
        expect(box.x + box.width, name).toBeLessThanOrEqual(barBox.x + barBox.width + 1)
        heights.add(Math.round(box.height))
      }
      expect(heights.size).toBe(1)
      // Opened on a tab at the far end, the bar shows that tab without scrolling.
      await page.goto(`/sites/${siteId}/alerts`)
      const alerts = bar.getByRole('link', { name: 'Alerts' })
      await page.getByRole('heading', { name: 'Add an alert rule' }).waitFor()
      expect(await alerts.getAttribute('aria-current')).toBe('page')
      const alertsBox = await boxOf(alerts)
      expect(alertsBox.x).toBeGreaterThanOrEqual(barBox.x - 1)
      expect(alertsBox.x + alertsBox.width).toBeLessThanOrEqual(barBox.x + barBox.width + 1)
      await page.screenshot({ path: '/tmp/dashboard-reports-390-alerts.png' })
    } finally {
      await page.setViewportSize(DASHBOARD_VIEWPORT)
    }
  })

  it('logged no script errors or CSP violations', () => {
    expect(pageErrors).toEqual([])
  })
})
