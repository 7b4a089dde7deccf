/**
 * A recording whose CSS and attributes name URLs of the dashboard's own origin, played in the dashboard
 * in Debian's Chromium (playwright-core; the built app served by the real server on loopback, SQLite +
 * chDB). The batch is forged, as anyone can post one for a public site: a full snapshot whose `<style>`,
 * captured stylesheet (`_cssText`), `style` attributes, images and SVG reference
 * `/api/replay-css-marker-*` in every spelling CSS allows (relative and absolute, `url()` quoted and
 * escaped, `@import`, `image-set()`, `@font-face`), then rules, declarations and attributes added while
 * it plays. The replayed page shows (its text, its inline `data:` image); neither the server (every
 * request its HTTP server receives) nor the browser (every request of the page and its frames) sees a
 * marker request.
 */
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, openSignedInPage } from '../src/testing/browser.js'
import { DESKTOP_CHROME_UA, openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const VISITOR_IP = '198.51.100.90'
const SHOWN_TEXT = 'Replayed page with hostile CSS'
const LATER_TEXT = 'Added while playing'
const MARKER = 'replay-css-marker'
/** A 1x1 PNG: inline images must still show. */
const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

let t: TestInstance
let browser: Browser
let base: string
let page: Page
let siteId: number
let sessionId: string
const serverSaw: string[] = []
const browserRequested: string[] = []
const pageErrors: string[] = []

/** The forged recording: every way CSS and markup can name a URL, each a marker of its own. */
function forgedEvents(origin: string): unknown[] {
  let n = 0
  const marker = () => `/api/${MARKER}-${++n}`
  const absolute = () => `${origin}${marker()}`
  const css = [
    `@import "${marker()}";`,
    `@import url(${absolute()});`,
    `@font-face { font-family: hostile; src: url("${marker()}") format("woff2"); }`,
    `body { background: url(${marker()}) no-repeat; font-family: hostile, sans-serif; }`,
    `h1 { background-image: image-set("${marker()}" 1x, url('${absolute()}') 2x); }`,
    `p { background: \\75 rl(${marker()}); cursor: url(${marker()}), auto; }`,
    `.mask { -webkit-mask-image: url(${marker()}); list-style-image: URL( "${marker()}" ); }`,
  ].join('\n')
  const element = (
    id: number,
    tagName: string,
    attributes: Record<string, string>,
    childNodes: unknown[] = [],
  ) => ({
    type: 2,
    id,
    tagName,
    attributes,
    childNodes,
  })
  const text = (id: number, textContent: string) => ({ type: 3, id, textContent })
  const start = Date.now() - 60_000
  return [
    { type: 4, timestamp: start, data: { href: 'https://example.com/', width: 1000, height: 700 } },
    {
      type: 2,
      timestamp: start + 10,
      data: {
        node: {
          type: 0,
          id: 1,
          childNodes: [
            { type: 1, id: 2, name: 'html', publicId: '', systemId: '' },
            element(3, 'html', { lang: 'en' }, [
              element(4, 'head', {}, [
                element(5, 'style', {}, [text(6, css)]),
                element(7, 'link', {
                  rel: 'stylesheet',
                  href: marker(),
                  _cssText: `div { background: url(${marker()}) }`,
                }),
              ]),
              element(8, 'body', { style: `border-image: url(${marker()}) 30` }, [
                element(9, 'h1', {}, [text(10, SHOWN_TEXT)]),
                element(11, 'p', { class: 'mask', style: `background-image: url("${absolute()}")` }, [
                  text(12, 'Styled paragraph'),
                ]),
                element(13, 'img', { src: marker(), alt: 'hostile image' }),
                element(14, 'img', { src: PIXEL, alt: 'inline pixel', id: 'pixel' }),
                element(15, 'div', { id: 'target' }),
              ]),
            ]),
          ],
        },
        initialOffset: { left: 0, top: 0 },
      },
    },
    // While playing: an inserted rule, a declaration, a changed style attribute and image, a new node.
    {
      type: 3,
      timestamp: start + 300,
      data: {
        source: 8,
        id: 5,
        adds: [{ rule: `h1 { outline-color: red; background: url(${marker()}) }`, index: 0 }],
      },
    },
    {
      type: 3,
      timestamp: start + 400,
      data: { source: 13, id: 5, index: [0], set: { property: 'background', value: `url(${marker()})` } },
    },
    {
      type: 3,
      timestamp: start + 500,
      data: {
        source: 0,
        texts: [],
        removes: [],
        attributes: [
          { id: 15, attributes: { style: `background: url(${marker()})` } },
          { id: 13, attributes: { src: absolute() } },
        ],
        adds: [
          {
            parentId: 15,
            nextId: null,
            node: element(20, 'span', { style: `background: url(${marker()})` }),
          },
          // Added nodes come one by one, children after their parent.
          { parentId: 20, nextId: null, node: text(21, LATER_TEXT) },
        ],
      },
    },
    {
      type: 3,
      timestamp: start + 2000,
      data: { source: 1, positions: [{ x: 10, y: 10, id: 9, timeOffset: 0 }] },
    },
  ]
}

beforeAll(async () => {
  const [build] = await Promise.all([
    ensureDashboardBuilt(),
    (async () => {
      t = await openTestInstance()
      base = await t.app.listen({ port: 0, host: '127.0.0.1' })
    })(),
  ])
  if (build.built) console.info(`built the dashboard in ${build.ms} ms`)
  // Every request the server receives, whatever route (or none) answers it.
  t.app.server.on('request', (request: { url?: string }) => {
    if (request.url?.includes(MARKER)) serverSaw.push(request.url)
  })

  const owner = await t.seed()
  siteId = owner.site.siteId
  const config = await t.app.inject({
    method: 'PUT',
    url: `/api/sites/${siteId}/config`,
    headers: { cookie: owner.cookie },
    payload: { sessionReplay: true },
  })
  expect(config.statusCode, config.body).toBe(200)
  const visitor = {
    remoteAddress: VISITOR_IP,
    headers: { 'user-agent': DESKTOP_CHROME_UA, origin: 'https://example.com' },
  }
  const pageview = await t.app.inject({
    method: 'POST',
    url: '/api/track',
    ...visitor,
    headers: { ...visitor.headers, 'content-type': 'application/json' },
    payload: { site_id: String(siteId), pathname: '/' },
  })
  expect(pageview.statusCode, pageview.body).toBe(200)
  const stored = await t.app.inject({
    method: 'POST',
    url: '/api/replay',
    ...visitor,
    headers: { ...visitor.headers, 'content-type': 'text/plain' },
    payload: JSON.stringify({ site_id: siteId, sequence: 0, events: forgedEvents(base) }),
  })
  expect(stored.json()).toEqual({ success: true, recorded: true })
  await t.services.buffer.flush()
  const [row] = await t.services.events.query<{ session_id: string }>(
    'SELECT DISTINCT session_id FROM replay WHERE site_id = {site:UInt32}',
    { site: siteId },
  )
  sessionId = row?.session_id ?? ''

  browser = await launchChromium()
  page = (
    await openSignedInPage(browser, {
      baseURL: base,
      cookie: owner.cookie,
      errors: pageErrors,
      label: 'owner',
      timeoutMs: 15_000,
    })
  ).page
  page.on('request', (request) => {
    if (request.url().includes(MARKER)) browserRequested.push(request.url())
  })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await t?.close()
})

describe('replayed CSS in the dashboard, in Chromium', () => {
  it('plays a recording full of same-origin URLs without requesting one', async () => {
    await page.goto(`/sites/${siteId}/sessions/${sessionId}`)
    const frame = page.locator('.replayer-wrapper iframe')
    await frame.waitFor()
    const card = page.locator('section', { has: page.getByRole('heading', { name: 'Replay' }) })
    await card.locator('.rr-controller__btns button').first().click()
    const replayed = page.frameLocator('.replayer-wrapper iframe')
    await replayed.getByText(SHOWN_TEXT).waitFor({ state: 'visible' })
    await replayed
      .getByText(LATER_TEXT)
      .waitFor({ state: 'visible', timeout: 15_000 })
      .catch(async (error) => {
        console.error(await replayed.locator('html').evaluate((html) => html.outerHTML.slice(0, 3000)))
        throw error
      })
    // The inline image still loads and shows.
    await expect
      .poll(() => replayed.locator('#pixel').evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBe(1)
    // Every styled element's style resolved (which is when a browser fetches its images), then a moment
    // for any request that would follow.
    await replayed
      .locator('body *')
      .evaluateAll((elements) =>
        elements.map((el) => getComputedStyle(el).backgroundImage + getComputedStyle(el).cursor),
      )
    await page.waitForTimeout(1000)
    expect(browserRequested).toEqual([])
    expect(serverSaw).toEqual([])
  })

  it('logged no script errors', () => {
    // Refused loads of the emptied URLs are not errors a user sees; script errors would be.
    expect(
      pageErrors.filter((error) => !/Failed to load resource|Content Security Policy/.test(error)),
    ).toEqual([])
  })
})
