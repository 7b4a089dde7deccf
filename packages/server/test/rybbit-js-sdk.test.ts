/**
 * Rybbit's web SDK, `@rybbit/js` 0.6.2 from npm, unchanged, in Chromium against a listening Pathlight at
 * `analyticsHost: <pathlight>/api`: the package's own module (and rrweb, its peer for replays) is served
 * from node_modules to a customer page on another origin (`rj.test`). Every event it sends is stored
 * with what it sent (sendBeacon with credentials passes CORS), the switches come from
 * `GET /api/site/tracking-config/{siteId}`, `identify()` links the visitor to the user (same session,
 * traits in the profile), and its replay batches become the session's recording.
 */

import fs from 'node:fs'
import http from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectPageErrors, launchChromium, newChromeContext } from '../src/testing/browser.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const require = createRequire(import.meta.url)
const SDK = path.join(path.dirname(require.resolve('@rybbit/js')), 'index.mjs')
const RRWEB = path.join(path.dirname(require.resolve('rrweb')), 'rrweb.js')
const POLL = { timeout: 20_000, interval: 200 }

interface Row {
  type: string
  event_name: string
  pathname: string
  user_id: string
  session_id: string
  properties: string
  browser: string
}

let t: TestInstance
let browser: Browser
let fixture: http.Server
let serverUrl: string
let pageOrigin: string
let siteId: number

/** The customer page: the SDK imported as a module (import map for its `rrweb` import), then init. */
const page = () => `<!doctype html><html><head><title>Shop</title>
<script type="importmap">{"imports":{"rrweb":"/rrweb.js"}}</script>
<script type="module">
  import rybbit from '/sdk/index.mjs'
  window.rybbit = rybbit
  await rybbit.init({ analyticsHost: '${serverUrl}/api', siteId: '${siteId}' })
  window.__ready = true
</script></head>
<body><p id="quote">Copy this sentence</p>
<button id="buy" data-rybbit-prop-plan="pro">Buy now</button>
<form id="signup" name="signup" action="/done" onsubmit="event.preventDefault()">
  <input name="email" type="email" /><input name="secret" type="password" /><button type="submit">Sign up</button>
</form></body></html>`

beforeAll(async () => {
  t = await openTestInstance()
  const { cookie, organizationId } = await t.seed()
  serverUrl = await t.app.listen({ port: 0, host: '127.0.0.1' })
  fixture = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x')
    if (url.pathname === '/sdk/index.mjs' || url.pathname === '/rrweb.js') {
      const file = url.pathname === '/rrweb.js' ? RRWEB : SDK
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(fs.readFileSync(file))
      return
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page())
  })
  await new Promise<void>((resolve) => fixture.listen(0, '127.0.0.1', resolve))
  const port = (fixture.address() as AddressInfo).port
  ;({ siteId } = await t.createSite(cookie, organizationId, 'rj.test'))
  pageOrigin = `http://shop.rj.test:${port}`
  const config = await t.app.inject({
    method: 'PUT',
    url: `/api/sites/${siteId}/config`,
    headers: { cookie },
    payload: {
      trackButtonClicks: true,
      trackCopy: true,
      trackFormInteractions: true,
      trackErrors: true,
      sessionReplay: true,
    },
  })
  expect(config.statusCode, config.body).toBe(200)
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await new Promise<void>((resolve) => (fixture ? fixture.close(() => resolve()) : resolve()))
  await t?.close()
})

const rows = async () => {
  await t.services.buffer.flush()
  return t.services.events.query<Row>(
    `SELECT type, event_name, pathname, user_id, session_id, properties, browser FROM events
     WHERE site_id = {site:UInt32} ORDER BY timestamp, event_id`,
    { site: siteId },
  )
}

describe('@rybbit/js in Chromium against Pathlight', () => {
  it('reads the switches under its names from tracking-config', async () => {
    const response = await fetch(`${serverUrl}/api/site/tracking-config/${siteId}`)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(await response.json()).toEqual({
      trackInitialPageView: true,
      trackSpaNavigation: true,
      trackUrlParams: true,
      trackOutbound: true,
      webVitals: false,
      trackErrors: true,
      sessionReplay: true,
      trackButtonClicks: true,
      trackCopy: true,
      trackFormInteractions: true,
    })
    expect((await fetch(`${serverUrl}/api/site/tracking-config/999999`)).status).toBe(404)
  })

  it('stores every event it sends, links the visitor on identify and records the replay', async () => {
    const context = await newChromeContext(browser)
    const tab = await context.newPage()
    const errors: string[] = []
    collectPageErrors(tab, errors, 'shop')
    const refused: string[] = []
    tab.on('requestfailed', (request) => refused.push(`${request.url()}: ${request.failure()?.errorText}`))
    await tab.goto(`${pageOrigin}/`)
    await tab.waitForFunction('window.__ready === true')
    await expect.poll(async () => (await rows()).length, POLL).toBe(1)

    await tab.click('#buy')
    await tab.evaluate(() => {
      const range = document.createRange()
      range.selectNodeContents(document.getElementById('quote') as HTMLElement)
      const selection = window.getSelection() as Selection
      selection.removeAllRanges()
      selection.addRange(range)
      document.dispatchEvent(new ClipboardEvent('copy'))
    })
    await tab.fill('input[name=email]', 'ann@example.com')
    await tab.locator('input[name=email]').blur()
    // The submit button's click is a button click too: pageview, 2 clicks, copy, input change, submit.
    await tab.click('#signup button[type=submit]')
    await expect.poll(async () => (await rows()).length, POLL).toBe(6)

    await tab.evaluate(() => {
      const w = window as unknown as { rybbit: { identify(id: string, traits: object): void } }
      w.rybbit.identify('user-7', { plan: 'pro', seats: 3 })
    })
    await expect
      .poll(
        async () => (await t.services.metadata.db.selectFrom('visitor_link').selectAll().execute()).length,
        POLL,
      )
      .toBe(1)
    await tab.evaluate(() => {
      const w = window as unknown as { rybbit: { event(name: string, p: object): void } }
      w.rybbit.event('signup', { plan: 'pro' })
      history.pushState({}, '', '/thanks')
    })
    await expect.poll(async () => (await rows()).length, POLL).toBe(8)

    const stored = await rows()
    const first = stored[0] as Row
    expect(first).toMatchObject({ type: 'pageview', pathname: '/', browser: 'Chrome' })
    expect(first.user_id).toMatch(/^[0-9a-f]{16}$/)
    const named = (name: string) => stored.find((r) => r.event_name === name) as Row
    expect(named('button_click')).toMatchObject({ type: 'custom_event', user_id: first.user_id })
    expect(JSON.parse(named('button_click').properties)).toEqual({ plan: 'pro', text: 'Buy now' })
    expect(JSON.parse(named('copy').properties)).toMatchObject({
      text: 'Copy this sentence',
      sourceElement: 'p',
    })
    expect(JSON.parse(named('input_change').properties)).toMatchObject({
      element: 'input',
      inputName: 'email',
      inputType: 'email',
      formId: 'signup',
    })
    expect(JSON.parse(named('form_submit').properties)).toMatchObject({ formId: 'signup', method: 'GET' })
    // After identify: the user id, in the same session as the anonymous events before it.
    expect(named('signup')).toMatchObject({
      type: 'custom_event',
      user_id: 'user-7',
      session_id: first.session_id,
    })
    expect(stored.at(-1)).toMatchObject({
      type: 'pageview',
      pathname: '/thanks',
      user_id: 'user-7',
      session_id: first.session_id,
    })
    expect(new Set(stored.map((r) => r.session_id)).size).toBe(1)

    const profile = await t.services.metadata.db
      .selectFrom('user_profile')
      .selectAll()
      .where('site_id', '=', siteId)
      .executeTakeFirstOrThrow()
    expect(profile.user_id).toBe('user-7')
    const traits = JSON.parse(profile.traits) as Record<string, { value: unknown }>
    expect({ plan: traits.plan?.value, seats: traits.seats?.value }).toEqual({ plan: 'pro', seats: 3 })

    // Replay: rrweb batches every 5 s (or 250 events) become the session's recording, inputs masked.
    await expect
      .poll(async () => {
        const batches = await t.services.events.query<{ session_id: string; payload: string }>(
          'SELECT session_id, payload FROM replay WHERE site_id = {site:UInt32}',
          { site: siteId },
        )
        return batches.map((b) => b.session_id)
      }, POLL)
      .toContain(first.session_id)
    const payloads = await t.services.events.query<{ payload: string }>(
      'SELECT payload FROM replay WHERE site_id = {site:UInt32}',
      { site: siteId },
    )
    expect(payloads.map((p) => p.payload).join('')).not.toContain('ann@example.com')
    expect(refused).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  }, 60_000)
})
