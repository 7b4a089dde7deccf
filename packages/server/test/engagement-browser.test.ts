/**
 * The engagement chunk in Chromium on fixture pages: scrolling to set depths and staying set times
 * gives those figures in the stored `engagement` events (time within a second), a background tab's
 * time is not counted, an SPA navigation sends the page left's figures under its path, and nothing is
 * sent again when nothing changed. Pageview counts are not touched.
 */
import path from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, newChromeContext } from '../src/testing/browser.js'
import { type FixtureSites, startFixtureSites } from '../src/testing/fixture-sites.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'engagement')
const POLL = { timeout: 10_000, interval: 100 }

interface Stored {
  type: string
  pathname: string
  scroll_depth: number
  engagement_time: number
}

let t: TestInstance
let browser: Browser
let sites: FixtureSites
const contexts: BrowserContext[] = []

beforeAll(async () => {
  t = await openTestInstance()
  const { cookie, organizationId } = await t.seed()
  const serverUrl = await t.app.listen({ port: 0, host: '127.0.0.1' })
  const scriptUrl = `${serverUrl}/api/script.js`
  sites = await startFixtureSites({ t, cookie, organizationId, dir: FIXTURES, scriptUrl, prefix: 'g' })
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

async function stored(siteId: number): Promise<Stored[]> {
  await t.services.buffer.flush()
  return t.services.events.query<Stored>(
    `SELECT type, pathname, scroll_depth, engagement_time FROM events
     WHERE site_id = {site:UInt32} ORDER BY timestamp, toUInt128(event_id)`,
    { site: siteId },
  )
}

const engagements = async (siteId: number) => (await stored(siteId)).filter((e) => e.type === 'engagement')

/** Open the article with the engagement chunk running; resolves with the time the chunk arrived. */
async function openArticle(origin: string): Promise<{ page: Page; startedAt: number }> {
  const context = await newChromeContext(browser)
  contexts.push(context)
  const page = await context.newPage()
  const chunk = page.waitForResponse((response) => response.url().includes('/api/script-engagement.js'))
  await page.goto(`${origin}/article.html`)
  expect((await chunk).status()).toBe(200)
  const startedAt = Date.now()
  await page.waitForFunction('window.pathlight && typeof window.pathlight._e === "function"')
  return { page, startedAt }
}

const stay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('engagement in Chromium', () => {
  it('records the deepest scroll and the engaged time when the page is left', async () => {
    const { siteId, origin } = await sites.add()
    const { page, startedAt } = await openArticle(origin)
    await page.evaluate('scrollToDepth(50)')
    await stay(1500)
    await page.evaluate('scrollToDepth(80)')
    await stay(500)
    // Scrolling back up keeps the deepest point.
    await page.evaluate('scrollToDepth(30)')
    await stay(1000)
    const leftAt = Date.now()
    await page.goto('about:blank')

    await expect.poll(async () => (await engagements(siteId)).length, POLL).toBe(1)
    const [event] = await engagements(siteId)
    expect(event).toMatchObject({ pathname: '/article.html', scroll_depth: 80 })
    expect(Math.abs((event?.engagement_time ?? 0) - (leftAt - startedAt))).toBeLessThan(1000)
    const pageviews = (await stored(siteId)).filter((e) => e.type === 'pageview')
    expect(pageviews).toHaveLength(1)
  })

  it('stops the clock in a background tab, sends on hiding, and sends nothing when nothing changed', async () => {
    const { siteId, origin } = await sites.add()
    const { page, startedAt } = await openArticle(origin)
    await page.evaluate('scrollToDepth(60)')
    await stay(1500)
    const hiddenAt = Date.now()
    await page.evaluate('setVisible(false)')
    await expect.poll(async () => (await engagements(siteId)).length, POLL).toBe(1)
    await stay(3000)
    const shownAt = Date.now()
    await page.evaluate('setVisible(true)')
    await stay(1000)
    const hiddenAgainAt = Date.now()
    await page.evaluate('setVisible(false)')
    await expect.poll(async () => (await engagements(siteId)).length, POLL).toBe(2)
    // Left while hidden: nothing changed since the last event, so no third one.
    await page.goto('about:blank')
    await stay(1000)
    const events = await engagements(siteId)
    expect(events).toHaveLength(2)
    expect(events.map((e) => e.scroll_depth)).toEqual([60, 60])
    expect(Math.abs((events[0]?.engagement_time ?? 0) - (hiddenAt - startedAt))).toBeLessThan(1000)
    expect(Math.abs((events[1]?.engagement_time ?? 0) - (hiddenAgainAt - shownAt))).toBeLessThan(1000)
    const total = events.reduce((sum, e) => sum + e.engagement_time, 0)
    expect(total).toBeLessThan(hiddenAgainAt - startedAt - 2000)
  })

  it('sends the page left on an SPA navigation under its path, then counts the new page from 0', async () => {
    const { siteId, origin } = await sites.add()
    const { page, startedAt } = await openArticle(origin)
    await page.evaluate('scrollToDepth(75)')
    await stay(1000)
    const navigatedAt = Date.now()
    await page.evaluate('go("/pricing", "Pricing")')
    await expect.poll(async () => (await engagements(siteId)).length, POLL).toBe(1)
    await stay(1500)
    const leftAt = Date.now()
    await page.goto('about:blank')
    await expect.poll(async () => (await engagements(siteId)).length, POLL).toBe(2)
    await stay(1000)
    expect(await engagements(siteId)).toHaveLength(2)
    const [article, pricing] = await engagements(siteId)
    expect(article).toMatchObject({ pathname: '/article.html', scroll_depth: 75 })
    expect(Math.abs((article?.engagement_time ?? 0) - (navigatedAt - startedAt))).toBeLessThan(1000)
    // The new route is 300 px high in a 720 px viewport: all of it is seen.
    expect(pricing).toMatchObject({ pathname: '/pricing', scroll_depth: 100 })
    expect(Math.abs((pricing?.engagement_time ?? 0) - (leftAt - navigatedAt))).toBeLessThan(1000)
    const pageviews = (await stored(siteId)).filter((e) => e.type === 'pageview').map((e) => e.pathname)
    expect(pageviews).toEqual(['/article.html', '/pricing'])
  })
})
