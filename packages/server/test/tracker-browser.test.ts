import path from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, newChromeContext } from '../src/testing/browser.js'
import { type FixtureSites, type SiteColumns, startFixtureSites } from '../src/testing/fixture-sites.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'tracker')
const POLL = { timeout: 10_000, interval: 100 }

interface StoredEvent {
  type: string
  pathname: string
  querystring: string
  hostname: string
  page_title: string
  referrer: string
  utm_source: string
  event_name: string
  properties: string
  screen_width: number
  screen_height: number
  language: string
  lcp: number | null
  cls: number | null
  inp: number | null
  fcp: number | null
  ttfb: number | null
  error_message: string
  error_stack: string
  error_file: string
  error_line: number
  error_column: number
}

let t: TestInstance
let cookie: string
let organizationId: string
let browser: Browser
let sites: FixtureSites
const contexts: BrowserContext[] = []

beforeAll(async () => {
  t = await openTestInstance()
  ;({ cookie, organizationId } = await t.seed())
  const serverUrl = await t.app.listen({ port: 0, host: '127.0.0.1' })
  const scriptUrl = `${serverUrl}/api/script.js`
  sites = await startFixtureSites({ t, cookie, organizationId, dir: FIXTURES, scriptUrl, prefix: 's' })
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  await sites?.close()
  await t?.close()
})

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close()
})

/** A new site on its own domain sN.test, with `columns` set in the metadata store. */
const newSite = (columns: SiteColumns = {}, attributes = '') => sites.add(columns, attributes)

/**
 * A page in a fresh context with a desktop Chrome user agent. `sent` collects the bodies of the page's
 * POST /api/track requests, `requested` every URL it requested, `fetched` every fetch() the page's
 * scripts made (recorded in the page, synchronously).
 */
async function openPage(initScript?: string) {
  const context = await newChromeContext(browser)
  contexts.push(context)
  await context.addInitScript(
    'window.__fetched = []; const f = window.fetch; window.fetch = (...a) => (window.__fetched.push(String(a[0])), f(...a))',
  )
  if (initScript) await context.addInitScript(initScript)
  const page = await context.newPage()
  const sent: Record<string, unknown>[] = []
  const requested: string[] = []
  page.on('request', (request) => {
    requested.push(request.url())
    if (request.url().endsWith('/api/track')) sent.push(JSON.parse(request.postData() ?? '{}'))
  })
  return { page, sent, requested }
}

/** Open `url` and wait until the page has the site's config (the script's parallel request). */
async function gotoAndWaitForConfig(page: Page, url: string) {
  const config = page.waitForResponse((response) => response.url().includes('/tracker-config'))
  await page.goto(url)
  expect((await config).status()).toBe(200)
}

async function stored(siteId: number): Promise<StoredEvent[]> {
  await t.services.buffer.flush()
  return t.services.events.query<StoredEvent>(
    'SELECT * FROM events WHERE site_id = {site:UInt32} ORDER BY timestamp',
    { site: siteId },
  )
}

const ofType = async (siteId: number, type: string) => (await stored(siteId)).filter((e) => e.type === type)

let sentinelCounter = 0
/** Send a custom event and wait for it: what the page sent before has been processed by then. */
async function settle(page: Page, siteId: number) {
  const name = `sentinel-${++sentinelCounter}`
  await page.evaluate(`pathlight.event(${JSON.stringify(name)})`)
  await expect.poll(async () => (await stored(siteId)).some((e) => e.event_name === name), POLL).toBe(true)
}

describe('pageviews', () => {
  it('counts a load, two SPA navigations and a back navigation as exactly four pageviews', async () => {
    const { siteId, origin } = await newSite()
    const { page } = await openPage()
    const pageviews = async () => (await ofType(siteId, 'pageview')).map((e) => e.pathname)

    await page.goto(`${origin}/spa.html?utm_source=newsletter&ref=1`)
    await expect.poll(pageviews, POLL).toEqual(['/spa.html'])
    await page.evaluate('go("/pricing", "Pricing")')
    await expect.poll(pageviews, POLL).toEqual(['/spa.html', '/pricing'])
    // Same path: a query-only replaceState and a hash change (no hash mode) are not new pages.
    await page.evaluate('history.replaceState({}, "", "/pricing?tab=2"); location.hash = "#plans"')
    await page.evaluate('go("/docs", "Docs")')
    await expect.poll(pageviews, POLL).toEqual(['/spa.html', '/pricing', '/docs'])
    await page.goBack()
    await expect.poll(pageviews, POLL).toEqual(['/spa.html', '/pricing', '/docs', '/pricing'])

    await settle(page, siteId)
    const events = await ofType(siteId, 'pageview')
    expect(events.map((e) => e.pathname)).toEqual(['/spa.html', '/pricing', '/docs', '/pricing'])
    expect(events.map((e) => e.page_title)).toEqual(['SPA Home', 'Pricing', 'Docs', 'Docs'])
    expect(events.map((e) => e.referrer)).toEqual([
      '',
      `${origin}/spa.html`,
      `${origin}/pricing`,
      `${origin}/docs`,
    ])
    expect(events.map((e) => e.querystring)).toEqual(['utm_source=newsletter&ref=1', '', '', 'tab=2'])
    expect(events[0]).toMatchObject({
      hostname: new URL(origin).hostname,
      utm_source: 'newsletter',
      screen_width: 1280,
      screen_height: 720,
      language: 'en-US',
    })
  })

  it('counts hash routes in hash mode (data-hash-mode)', async () => {
    const { siteId, origin } = await newSite({}, 'data-hash-mode')
    const { page } = await openPage()
    const pageviews = async () => (await ofType(siteId, 'pageview')).map((e) => e.pathname)

    await page.goto(`${origin}/spa.html#/home`)
    await expect.poll(pageviews, POLL).toEqual(['/spa.html#/home'])
    await page.evaluate('location.hash = "#/settings"')
    await expect.poll(pageviews, POLL).toEqual(['/spa.html#/home', '/spa.html#/settings'])
    await page.goBack()
    await expect.poll(pageviews, POLL).toEqual(['/spa.html#/home', '/spa.html#/settings', '/spa.html#/home'])
    await settle(page, siteId)
    expect(await pageviews()).toHaveLength(3)
  })
})

describe('custom events', () => {
  it('records calls queued by the stub, API calls and data-attribute clicks, with properties', async () => {
    const { siteId, origin } = await newSite()
    const { page } = await openPage()
    await page.goto(`${origin}/events.html`)
    await page.click('#signup span')
    await page.evaluate('pathlight.event("purchase", { amount: 49.5, currency: "EUR" })')

    const customEvents = async () =>
      (await ofType(siteId, 'custom_event')).map((e) => [e.event_name, JSON.parse(e.properties || '{}')])
    await expect
      .poll(async () => (await customEvents()).sort(), POLL)
      .toEqual([
        ['early', { source: 'stub' }],
        ['purchase', { amount: 49.5, currency: 'EUR' }],
        ['signup', { plan: 'pro', 'billing-cycle': 'yearly' }],
      ])
    const [early] = await ofType(siteId, 'custom_event')
    expect(early).toMatchObject({ pathname: '/events.html', page_title: 'Events' })
  })
})

describe('outbound links', () => {
  it('records a click on a link that navigates away, sent as the page unloads', async () => {
    const { siteId, origin } = await newSite()
    const { page } = await openPage()
    await gotoAndWaitForConfig(page, `${origin}/events.html`)
    await Promise.all([page.waitForURL(/elsewhere\.test/), page.click('#docs')])
    expect(await page.title()).toBe('Landing')

    await expect.poll(async () => (await ofType(siteId, 'outbound')).length, POLL).toBe(1)
    const [outbound] = await ofType(siteId, 'outbound')
    expect(outbound?.pathname).toBe('/events.html')
    expect(JSON.parse(outbound?.properties ?? '')).toEqual({
      url: `http://elsewhere.test:${sites.port}/landing.html`,
      text: 'Read the docs',
      target: '',
    })
  })
})

describe('errors', () => {
  it('records a thrown error and an unhandled rejection with message, stack and location', async () => {
    const { siteId, origin } = await newSite({ track_errors: 1 })
    const { page } = await openPage()
    await gotoAndWaitForConfig(page, `${origin}/errors.html`)
    await page.evaluate('crash(); rejectLater()')

    await expect.poll(async () => (await ofType(siteId, 'error')).length, POLL).toBe(2)
    const errors = await ofType(siteId, 'error')
    const thrown = errors.find((e) => e.event_name === 'TypeError')
    expect(thrown).toMatchObject({ error_message: 'boom', error_file: `${origin}/errors.html` })
    expect(thrown?.error_stack).toContain('explode')
    expect(thrown?.error_line).toBeGreaterThan(0)
    expect(thrown?.error_column).toBeGreaterThan(0)
    const rejected = errors.find((e) => e.event_name === 'RangeError')
    expect(rejected).toMatchObject({ error_message: 'nope', error_file: `${origin}/errors.html` })
    expect(rejected?.error_stack).toContain('rejectLater')
    expect(rejected?.error_line).toBeGreaterThan(0)
  })

  it('sends a repeated error once and at most 10 distinct errors per page', async () => {
    const { siteId, origin } = await newSite({ track_errors: 1 })
    const { page, sent } = await openPage()
    await gotoAndWaitForConfig(page, `${origin}/errors.html`)
    await page.evaluate('repeat(30); loop(50)')

    await expect.poll(async () => (await ofType(siteId, 'error')).length, POLL).toBe(10)
    await settle(page, siteId)
    const errors = await ofType(siteId, 'error')
    expect(errors).toHaveLength(10)
    expect(errors.filter((e) => e.error_message === 'same error')).toHaveLength(1)
    expect(sent.filter((body) => body.type === 'error')).toHaveLength(10)
  })
})

describe('web vitals', () => {
  it('loads the vitals chunk and records LCP, CLS, INP, FCP and TTFB when webVitals is on', async () => {
    const { siteId, origin } = await newSite({ web_vitals: 1 })
    // The chunk's load event fires once it ran: its observers are in place before the click.
    const { page, requested } = await openPage(
      `new MutationObserver(() => {
        const chunk = document.querySelector('script[src*="script-vitals.js"]')
        if (chunk) chunk.onload = () => { window.__vitalsLoaded = true }
      }).observe(document, { childList: true, subtree: true })`,
    )
    await page.goto(`${origin}/vitals.html`)
    await page.waitForFunction('window.__vitalsLoaded')

    expect(requested.filter((url) => url.includes('/api/script-vitals.js?v='))).toHaveLength(1)
    await page.click('#slow')
    // The interaction's timing entry exists only after the next frame; wait until the page sees it.
    await page.evaluate(`new Promise((resolve) => new PerformanceObserver((list) => {
      if (list.getEntries().some((entry) => entry.interactionId > 0)) resolve()
    }).observe({ type: 'event', buffered: true, durationThreshold: 16 }))`)
    await page.goto(`${origin}/landing.html`) // hides the page: the vitals are sent

    await expect.poll(async () => (await ofType(siteId, 'performance')).length, POLL).toBe(1)
    const [vitals] = await ofType(siteId, 'performance')
    expect(vitals?.pathname).toBe('/vitals.html')
    for (const metric of ['lcp', 'fcp', 'ttfb', 'cls', 'inp'] as const) {
      expect(typeof vitals?.[metric], metric).toBe('number')
    }
    expect(vitals?.lcp).toBeGreaterThan(0)
    expect(vitals?.fcp).toBeGreaterThan(0)
    expect(vitals?.inp).toBeGreaterThanOrEqual(120)
  })
})

describe('web vitals off', () => {
  it('never requests the vitals chunk and sends no performance event', async () => {
    const { siteId, origin } = await newSite() // webVitals is off for new sites
    const { page, requested, sent } = await openPage()
    await gotoAndWaitForConfig(page, `${origin}/vitals.html`)
    await page.click('#slow')
    await page.goto(`${origin}/landing.html`)
    await page.goto(`${origin}/vitals.html`)
    await settle(page, siteId)
    expect(requested.filter((url) => url.includes('script-vitals'))).toEqual([])
    expect(sent.filter((body) => body.type === 'performance')).toEqual([])
    expect(await ofType(siteId, 'performance')).toEqual([])
  })
})

describe('site switches', () => {
  it('sends no outbound, error or vitals events and no querystring when those switches are off', async () => {
    const { siteId, origin } = await newSite({ track_outbound: 0, track_url_params: 0 }) // errors, vitals: off
    const { page, sent, requested } = await openPage()
    await gotoAndWaitForConfig(page, `${origin}/events.html?utm_source=ads&secret=1`)
    const popup = page.waitForEvent('popup')
    await page.click('#docs-tab')
    await (await popup).waitForLoadState()
    await page.evaluate(
      'history.pushState({}, "", "/next?token=abc"); setTimeout(() => { throw new Error("x") })',
    )
    await expect.poll(async () => (await ofType(siteId, 'pageview')).length, POLL).toBe(2)
    await settle(page, siteId)

    // Engagement (scroll depth, engaged time) has no switch: it is on for every site.
    const governed = (type: unknown) => type !== 'engagement'
    const types = new Set((await stored(siteId)).map((e) => e.type).filter(governed))
    expect([...types].sort()).toEqual(['custom_event', 'pageview'])
    expect(
      sent
        .map((body) => body.type)
        .filter((type) => type !== 'pageview' && type !== 'custom_event' && governed(type)),
    ).toEqual([])
    expect(requested.filter((url) => url.includes('script-vitals'))).toEqual([])
    // The first pageview leaves before the config is known: the server drops its querystring (and keeps
    // the UTM tags); later events carry none.
    const pageviews = await ofType(siteId, 'pageview')
    expect(pageviews.map((e) => [e.pathname, e.querystring, e.utm_source])).toEqual([
      ['/events.html', '', 'ads'],
      ['/next', '', ''],
    ])
    expect(sent.filter((body) => body.type === 'pageview').map((body) => body.querystring)).toEqual([
      'utm_source=ads&secret=1',
      '',
    ])
  })
})

describe('privacy', () => {
  const fetchedBy = (page: Page) => page.evaluate('window.__fetched') as Promise<string[]>
  const waitForScript = (page: Page) => page.waitForFunction('window.pathlight && !window.pathlight.q')

  it('sends nothing when the opt-out flag is set in localStorage', async () => {
    const { origin } = await newSite()
    const { page } = await openPage("localStorage.setItem('pathlight_ignore', 'true')")
    await page.goto(`${origin}/events.html`)
    await waitForScript(page)
    await page.evaluate('pathlight.event("ignored")')
    await page.click('#signup')
    expect(await fetchedBy(page)).toEqual([])
  })

  it('honours Do Not Track and Global Privacy Control only with data-respect-dnt', async () => {
    const respecting = await newSite({}, 'data-respect-dnt')
    const ignoring = await newSite()
    const dnt = "Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' })"
    const gpc = "Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true })"
    for (const signal of [dnt, gpc]) {
      const { page } = await openPage(signal)
      await page.goto(`${respecting.origin}/events.html`)
      await waitForScript(page)
      expect(await fetchedBy(page)).toEqual([])

      const other = await openPage(signal)
      await other.page.goto(`${ignoring.origin}/events.html`)
      await waitForScript(other.page)
      expect((await fetchedBy(other.page)).some((url) => url.endsWith('/api/track'))).toBe(true)
    }
  })
})
