/**
 * Heatmaps in Chromium on a fixture page whose layout changes with the width (the call to action on the
 * right of a row at 1280 px, first and full width at 390 px): clicks recorded at both widths are stored
 * against the clicked element with rage and dead clicks marked and nothing of the private block; then
 * the signed viewing link opens the page at either width and every mark drawn for the button lies inside
 * the button's box there, rage and dead marks included, and an element no longer on the page is listed
 * in the panel with its count, not drawn. The viewer's own clicks are not recorded.
 */
import path from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CHROME_UA, launchChromium, newChromeContext } from '../src/testing/browser.js'
import { type FixtureSites, startFixtureSites } from '../src/testing/fixture-sites.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'heatmap')
const POLL = { timeout: 15_000, interval: 200 }
const WIDE = { width: 1280, height: 800 }
const NARROW = { width: 390, height: 844 }

interface StoredClick {
  click_selector: string
  click_x: number
  click_y: number
  click_viewport: string
  click_flags: number
}

let t: TestInstance
let browser: Browser
let sites: FixtureSites
let cookie: string
const contexts: BrowserContext[] = []

beforeAll(async () => {
  t = await openTestInstance()
  const seeded = await t.seed()
  cookie = seeded.cookie
  const serverUrl = await t.app.listen({ port: 0, host: '127.0.0.1' })
  sites = await startFixtureSites({
    t,
    cookie,
    organizationId: seeded.organizationId,
    dir: FIXTURES,
    scriptUrl: `${serverUrl}/api/script.js`,
    prefix: 'hm',
  })
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

async function clicks(siteId: number): Promise<StoredClick[]> {
  await t.services.buffer.flush()
  return t.services.events.query<StoredClick>(
    `SELECT click_selector, click_x, click_y, click_viewport, click_flags FROM events
     WHERE site_id = {site:UInt32} AND type = 'heatmap_click' ORDER BY timestamp, toUInt128(event_id)`,
    { site: siteId },
  )
}

async function open(url: string, viewport: { width: number; height: number }, chunk = true): Promise<Page> {
  const context = await newChromeContext(browser, { viewport })
  contexts.push(context)
  const page = await context.newPage()
  const loaded = chunk ? page.waitForResponse((r) => r.url().includes('/api/script-heatmap.js')) : null
  await page.goto(url)
  if (loaded) expect((await loaded).status()).toBe(200)
  return page
}

const stay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Click `selector` at the fractions `fx`, `fy` of its box. */
async function clickAt(page: Page, selector: string, fx: number, fy: number): Promise<void> {
  const box = await page.locator(selector).boundingBox()
  if (!box) throw new Error(`${selector} has no box`)
  await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy)
}

/** Record the visit of one width: two button clicks, a dead click, a rage burst, a private click. */
async function visit(origin: string, viewport: { width: number; height: number }): Promise<void> {
  const page = await open(`${origin}/landing.html`, viewport)
  await page.waitForFunction('window.pathlight && typeof window.pathlight._h === "function"')
  await stay(300)
  await clickAt(page, '#buy', 0.25, 0.5)
  await stay(1200)
  await clickAt(page, '[data-testid="tagline"]', 0.5, 0.5)
  await stay(1200)
  for (let i = 0; i < 3; i++) await clickAt(page, '#buy', 0.75, 0.5)
  await clickAt(page, '#secret', 0.5, 0.5)
  await clickAt(page, '#card', 0.5, 0.5)
  await stay(1200)
  await page.goto('about:blank')
}

describe('heatmaps in Chromium', () => {
  it('records clicks against the element at two widths and draws them on that element at either width', async () => {
    const { siteId, origin } = await sites.add({ heatmaps: 1 })
    await visit(origin, WIDE)
    await expect.poll(async () => (await clicks(siteId)).length, POLL).toBe(5)
    await visit(origin, NARROW)
    await expect.poll(async () => (await clicks(siteId)).length, POLL).toBe(10)
    const stored = await clicks(siteId)

    // Nothing of the private block; the same selectors at both widths.
    expect(new Set(stored.map((c) => c.click_selector))).toEqual(
      new Set(['#buy', '#intro > span[data-testid="tagline"]']),
    )
    for (const viewport of ['desktop', 'mobile']) {
      const at = stored.filter((c) => c.click_viewport === viewport)
      const buy = at.filter((c) => c.click_selector === '#buy')
      expect(buy).toHaveLength(4)
      // The first at a quarter of the width, the burst at three quarters; the third of the burst is rage.
      expect(Math.abs((buy[0]?.click_x ?? 0) - 250)).toBeLessThanOrEqual(10)
      expect(buy.slice(1).every((c) => Math.abs(c.click_x - 750) <= 10)).toBe(true)
      expect(buy.map((c) => c.click_flags & 1)).toEqual([0, 0, 0, 1])
      // The button changes the page: none is dead. The tagline does nothing: dead.
      expect(buy.every((c) => (c.click_flags & 2) === 0)).toBe(true)
      const tagline = at.filter((c) => c.click_selector !== '#buy')
      expect(tagline.map((c) => c.click_flags)).toEqual([2])
    }

    // An element of an older layout, no longer on the page: listed, not drawn.
    const old = await t.app.inject({
      method: 'POST',
      url: '/api/track',
      headers: { origin, 'user-agent': CHROME_UA, 'content-type': 'application/json' },
      payload: JSON.stringify({
        site_id: String(siteId),
        pathname: '/landing.html',
        type: 'heatmap_click',
        selector: '#old-banner',
        click_x: 0.5,
        click_y: 0.5,
        viewport: 'desktop',
      }),
    })
    expect(old.json()).toMatchObject({ success: true })
    await expect.poll(async () => (await clicks(siteId)).length, POLL).toBe(11)

    const link = await t.app.inject({
      url: `/api/sites/${siteId}/heatmap-link?page=%2Flanding.html`,
      headers: { cookie },
    })
    expect(link.statusCode, link.body).toBe(200)
    const { url } = link.json().data as { url: string }
    const viewUrl = `${origin}${new URL(url).pathname}${new URL(url).hash}`

    for (const viewport of [WIDE, NARROW]) {
      const page = await open(viewUrl, viewport)
      await page.waitForSelector('[data-pathlight-heatmap-mark]', { state: 'attached', timeout: 15_000 })
      const drawn = (await page.evaluate(`(() => {
        const box = (el) => { const r = el.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom } }
        const marks = [...document.querySelectorAll('[data-pathlight-heatmap-mark]')].map((m) => {
          const r = m.getBoundingClientRect()
          return { kind: m.getAttribute('data-pathlight-heatmap-mark'), selector: m.getAttribute('data-selector'), x: r.left + r.width / 2, y: r.top + r.height / 2 }
        })
        const missing = [...document.querySelectorAll('[data-pathlight-heatmap-missing]')].map((li) => li.textContent)
        return { marks, missing, buy: box(document.getElementById('buy')), tagline: box(document.querySelector('[data-testid="tagline"]')) }
      })()`)) as {
        marks: { kind: string; selector: string; x: number; y: number }[]
        missing: string[]
        buy: { left: number; top: number; right: number; bottom: number }
        tagline: { left: number; top: number; right: number; bottom: number }
      }
      const inside = (p: { x: number; y: number }, b: typeof drawn.buy) =>
        p.x >= b.left && p.x <= b.right && p.y >= b.top && p.y <= b.bottom
      const onBuy = drawn.marks.filter((m) => m.selector === '#buy')
      const onTagline = drawn.marks.filter((m) => m.selector !== '#buy')
      expect(onBuy.length, JSON.stringify(drawn)).toBeGreaterThan(0)
      expect(
        onBuy.every((m) => inside(m, drawn.buy)),
        JSON.stringify(drawn),
      ).toBe(true)
      expect(onBuy.some((m) => m.kind === 'rage')).toBe(true)
      expect(onTagline.length).toBeGreaterThan(0)
      expect(
        onTagline.every((m) => inside(m, drawn.tagline) && m.kind === 'dead'),
        JSON.stringify(drawn),
      ).toBe(true)
      expect(drawn.missing).toEqual(['#old-banner: 1 clicks'])
      // The viewer's clicks are not recorded.
      await clickAt(page, '#buy', 0.5, 0.5)
      await stay(1200)
      await page.goto('about:blank')
    }
    await stay(1000)
    expect(await clicks(siteId)).toHaveLength(11)
  })

  it('loads no heatmap chunk and records nothing on a site with heatmaps off', async () => {
    const { siteId, origin } = await sites.add()
    const page = await open(`${origin}/landing.html`, WIDE, false)
    const requested: string[] = []
    page.on('request', (r) => requested.push(r.url()))
    await page.waitForFunction('window.pathlight && typeof window.pathlight._h === "function"')
    await stay(1000)
    await clickAt(page, '#buy', 0.5, 0.5)
    await stay(1200)
    await page.goto('about:blank')
    await stay(1000)
    expect(requested.some((u) => u.includes('script-heatmap.js'))).toBe(false)
    expect(await clicks(siteId)).toHaveLength(0)
  })
})
