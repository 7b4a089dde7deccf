/**
 * Watching a session replay in the dashboard, end to end: Debian's Chromium (playwright-core) drives
 * the built app served by the real server (SQLite + chDB, on loopback, real clock: recordings expire
 * by the store's `now()`).
 *
 * The recording is real: a fixture page served from loopback (`http://127.0.0.1:PORT/`) loads rrweb's
 * browser build and records a visitor typing, scrolling down and back, and clicking (which adds text
 * to the page) for about two seconds. The events are then posted as `POST /api/replay` with the IP address and
 * user agent of a pageview tracked just before (`POST /api/track`), so both belong to one server
 * session, and a custom event is tracked mid-recording to be a marker on the player's timeline. A
 * second visitor's session has no recording.
 *
 * The owner then plays the replay on the session's page (the recorded text shows in the player's
 * iframe), filters the sessions list to replayed sessions, and deletes the recording; a plain member
 * sees the player but no Delete. No page errors, no CSP violations.
 */
import crypto from 'node:crypto'
import http from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  collectPageErrors,
  launchChromium,
  newChromeContext,
  openSignedInPage,
} from '../src/testing/browser.js'
import { DESKTOP_CHROME_UA, openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const FIXTURE_TEXT = 'Replay fixture: the quick brown fox'
const CLICKED_TEXT = 'The fox jumped over the lazy dog'
const VISITOR_IP = '198.51.100.80'
const OTHER_IP = '198.51.100.81'
const SCREENSHOT = path.join(os.tmpdir(), 'pathlight-dashboard-replay.png')
/** Chromium's console error for a script a sandboxed frame without `allow-scripts` does not run. */
const SANDBOX_REFUSED =
  /Blocked script execution in '[^']*' because the document's frame is sandboxed and the 'allow-scripts' permission is not set\./

/** A small page of a customer site, with inline styles (recorded pages have them; the player must show them). */
const FIXTURE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Replay fixture</title>
<style>body { font-family: sans-serif; margin: 2rem } .tall { height: 1600px } h1 { color: rgb(20, 90, 50) }</style>
</head><body>
<h1>${FIXTURE_TEXT}</h1>
<label>Name <input id="name" name="name"></label>
<button id="jump" type="button">Jump</button>
<p id="result"></p>
<div class="tall"></div>
<script>
  document.getElementById('jump').addEventListener('click', () => {
    document.getElementById('result').textContent = ${JSON.stringify(CLICKED_TEXT)}
  })
</script>
</body></html>`

let t: TestInstance
let browser: Browser
let base: string
let fixture: http.Server
let fixtureUrl: string
let owner: { cookie: string; organizationId: string }
let siteId: number
let sessionId: string
let otherSessionId: string
let ownerPage: Page
const pageErrors: string[] = []

const origin = { origin: 'https://example.com' }

/** `POST /api/track` as the visitor's browser on example.com from `ip`. */
async function track(ip: string, body: Record<string, unknown>) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/track',
    remoteAddress: ip,
    headers: { 'content-type': 'application/json', 'user-agent': DESKTOP_CHROME_UA, ...origin },
    payload: { site_id: String(siteId), ...body },
  })
  expect(response.statusCode, response.body).toBe(200)
}

/** Record a visit of the fixture page in Chromium; a custom event is tracked for `VISITOR_IP` midway. */
async function recordVisit(): Promise<unknown[]> {
  const context = await newChromeContext(browser)
  const page = await context.newPage()
  const recorderErrors: string[] = []
  collectPageErrors(page, recorderErrors, 'fixture')
  await page.goto(fixtureUrl)
  // rrweb's browser build (beside its CommonJS entry; the package exports neither) defines the global `rrweb`.
  const umd = path.join(path.dirname(createRequire(import.meta.url).resolve('rrweb')), 'rrweb.umd.min.cjs')
  await page.addScriptTag({ path: umd })
  await page.evaluate(() => {
    const win = window as unknown as {
      __events: unknown[]
      __stop?: () => void
      rrweb: { record(options: { emit(event: unknown): void }): () => void }
    }
    win.__events = []
    win.__stop = win.rrweb.record({ emit: (event) => win.__events.push(event) })
  })
  await page.locator('#name').pressSequentially('Ada', { delay: 80 })
  await page.waitForTimeout(400)
  await track(VISITOR_IP, { type: 'custom_event', event_name: 'signup', pathname: '/' })
  await page.mouse.wheel(0, 600)
  await page.waitForTimeout(400)
  await page.mouse.wheel(0, -600)
  await page.waitForTimeout(400)
  await page.locator('#jump').click()
  await page.getByText(CLICKED_TEXT).waitFor()
  await page.waitForTimeout(400)
  await page.evaluate(() => {
    const heading = document.querySelector('h1')
    if (heading) heading.dataset.visited = 'yes'
  })
  await page.waitForTimeout(300)
  const events = await page.evaluate(() => {
    const win = window as unknown as { __events: unknown[]; __stop?: () => void }
    win.__stop?.()
    return win.__events
  })
  await context.close()
  expect(recorderErrors).toEqual([])
  return events
}

/** A signed-in dashboard page of `cookie`, its errors collected under `label`. */
async function dashboardPage(
  cookie: string,
  label: string,
): Promise<{ page: Page; context: BrowserContext }> {
  return openSignedInPage(browser, { baseURL: base, cookie, errors: pageErrors, label, timeoutMs: 15_000 })
}

const replayUrl = () => `/api/sites/${siteId}/sessions/${sessionId}/replay`

beforeAll(async () => {
  const [build] = await Promise.all([
    ensureDashboardBuilt(),
    (async () => {
      t = await openTestInstance()
      base = await t.app.listen({ port: 0, host: '127.0.0.1' })
    })(),
  ])
  if (build.built) console.info(`built the dashboard in ${build.ms} ms`)
  fixture = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(FIXTURE_PAGE)
  })
  await new Promise<void>((resolve) => fixture.listen(0, '127.0.0.1', resolve))
  fixtureUrl = `http://127.0.0.1:${(fixture.address() as AddressInfo).port}/`

  const seeded = await t.seed()
  owner = seeded
  siteId = seeded.site.siteId
  const config = await t.app.inject({
    method: 'PUT',
    url: `/api/sites/${siteId}/config`,
    headers: { cookie: owner.cookie },
    payload: { sessionReplay: true },
  })
  expect(config.statusCode, config.body).toBe(200)

  browser = await launchChromium()
  // The pageview that loaded the page (and would load the recorder), then the recorded visit.
  await track(VISITOR_IP, { pathname: '/' })
  await track(OTHER_IP, { pathname: '/pricing' })
  const events = await recordVisit()
  expect(events.length).toBeGreaterThan(5)
  const stored = await t.app.inject({
    method: 'POST',
    url: '/api/replay',
    remoteAddress: VISITOR_IP,
    headers: { 'content-type': 'text/plain', 'user-agent': DESKTOP_CHROME_UA, ...origin },
    payload: JSON.stringify({ site_id: siteId, sequence: 0, events }),
  })
  expect(stored.json()).toEqual({ success: true, recorded: true })
  await t.services.buffer.flush()
  const rows = await t.services.events.query<{ session_id: string; user_agent_ip: string; n: number }>(
    `SELECT session_id, count() AS n FROM events WHERE site_id = {site:UInt32}
     GROUP BY session_id ORDER BY n DESC`,
    { site: siteId },
  )
  expect(rows.map((row) => Number(row.n))).toEqual([2, 1])
  sessionId = rows[0]?.session_id ?? ''
  otherSessionId = rows[1]?.session_id ?? ''
  const [replayed] = await t.services.events.query<{ session_id: string }>(
    'SELECT DISTINCT session_id FROM replay WHERE site_id = {site:UInt32}',
    { site: siteId },
  )
  expect(replayed?.session_id).toBe(sessionId)

  ownerPage = (await dashboardPage(owner.cookie, 'owner')).page
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => fixture?.close(resolve))
  await t?.close()
})

describe('session replay in the dashboard, in Chromium', () => {
  it('plays the recording on the session page, with the session events on the timeline', async () => {
    const page = ownerPage
    await page.goto(`/sites/${siteId}/sessions/${sessionId}`)
    const card = page.locator('section', { has: page.getByRole('heading', { name: 'Replay' }) })
    await card.waitFor()
    await expect.poll(() => card.locator('p.muted').first().textContent()).toMatch(/recorded · .+ stored$/)
    const frame = page.locator('.replayer-wrapper iframe')
    await frame.waitFor()
    // The replayed page may never run its scripts: its frame is sandboxed without allow-scripts.
    const sandbox = ((await frame.getAttribute('sandbox')) ?? '').split(/\s+/)
    expect(sandbox).toContain('allow-same-origin')
    expect(sandbox).not.toContain('allow-scripts')

    // Markers: the pageview (at the start) and the custom event, with their colours' legend.
    const markers = card.locator('.rr-progress [title]')
    await expect
      .poll(() => markers.evaluateAll((list) => list.map((m) => m.getAttribute('title'))))
      .toEqual(['Viewed /', 'Event: signup'])
    expect(await card.locator('.replay-legend li').allTextContents()).toEqual(['Pageview', 'Custom event'])

    await card.locator('.rr-controller__btns button').first().click()
    const replayed = page.frameLocator('.replayer-wrapper iframe')
    await replayed.getByText(FIXTURE_TEXT).waitFor({ state: 'visible' })
    // Playing on: the click's text appears in the replayed page, styled as recorded.
    await replayed.getByText(CLICKED_TEXT).waitFor({ state: 'visible', timeout: 15_000 })
    // Paused once the click has played, for the screenshot.
    await card.locator('.rr-controller__btns button').first().click()
    // Polled: the replayer may still be applying the recorded styles to its rebuilt document.
    await expect
      .poll(() => replayed.locator('h1').evaluate((h1) => getComputedStyle(h1).color))
      .toBe('rgb(20, 90, 50)')
    expect(await frame.isVisible()).toBe(true)
    const box = await frame.boundingBox()
    expect(box?.width).toBeGreaterThan(300)
    await page.screenshot({ path: SCREENSHOT, fullPage: true })
  })

  it('marks replayed sessions in the list and filters to them, in the URL', async () => {
    const page = ownerPage
    await page.goto(`/sites/${siteId}/sessions`)
    const rows = page.locator('.report-table tbody tr')
    await expect.poll(() => rows.count()).toBe(2)
    const badges = page.getByRole('link', { name: /Watch the replay/ })
    expect(await badges.count()).toBe(1)
    expect(await badges.getAttribute('href')).toContain(`/sessions/${sessionId}`)

    await page.getByLabel('Only sessions with a replay').check()
    await page.waitForURL((url) => url.searchParams.get('replay') === '1')
    await expect.poll(() => rows.count()).toBe(1)
    expect(await page.getByRole('heading', { name: 'Sessions (1)' }).count()).toBe(1)
    expect(await rows.first().getByRole('link').first().getAttribute('href')).toContain(sessionId)
    expect(await rows.first().textContent()).not.toContain(otherSessionId)

    await page.reload()
    expect(await page.getByLabel('Only sessions with a replay').isChecked()).toBe(true)
    await expect.poll(() => rows.count()).toBe(1)
    await page.getByLabel('Only sessions with a replay').uncheck()
    await expect.poll(() => rows.count()).toBe(2)
  })

  it('edits the replay settings in the site settings, with the server’s errors at the field', async () => {
    const page = ownerPage
    await page.goto(`/sites/${siteId}/settings`)
    const share = page.getByLabel('Share of sessions recorded (%)')
    const days = page.getByLabel('Keep recordings for (days)')
    expect(await share.inputValue()).toBe('100')
    expect(await days.inputValue()).toBe('30')
    // Out-of-range numbers are stopped by the browser (min/max); empty fields reach the server.
    await share.fill('')
    await days.fill('')
    await page.getByRole('button', { name: 'Save changes' }).click()
    const errorsOf = (input: typeof days) =>
      page.locator('.field-invalid', { has: input }).locator('.field-errors')
    await errorsOf(share).waitFor()
    expect(await errorsOf(share).textContent()).toBe('Enter a percentage from 0 to 100.')
    expect(await errorsOf(days).textContent()).toContain('whole number of days')
    expect(await days.getAttribute('aria-invalid')).toBe('true')
    await share.fill('25')
    await days.fill('14')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('Saved: Share of sessions recorded and Keep recordings for.').waitFor()
    const site = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${siteId}`,
      headers: { cookie: owner.cookie },
    })
    expect(site.json()).toMatchObject({
      sessionReplay: true,
      replaySampleRate: 0.25,
      replayRetentionDays: 14,
    })
    // The fields go with the switch.
    await page.getByLabel('Session replay').uncheck()
    expect(await share.count()).toBe(0)
  })

  it('shows a member the player without Delete', async () => {
    const member = await t.signUp(`member-${crypto.randomUUID()}@example.com`)
    await t.services.metadata.db
      .insertInto('member')
      .values({
        id: crypto.randomUUID(),
        organization_id: owner.organizationId,
        user_id: member.userId,
        role: 'member',
        created_at: new Date().toISOString(),
      })
      .execute()
    const { page, context } = await dashboardPage(member.cookie, 'member')
    await page.goto(`/sites/${siteId}/sessions/${sessionId}`)
    await page.locator('.replayer-wrapper iframe').waitFor()
    expect(await page.getByRole('button', { name: 'Delete replay' }).count()).toBe(0)
    await context.close()
  })

  it('lets the owner delete the recording, after confirming', async () => {
    const page = ownerPage
    await page.goto(`/sites/${siteId}/sessions/${sessionId}`)
    await page.locator('.replayer-wrapper iframe').waitFor()
    await page.getByRole('button', { name: 'Delete replay' }).click()
    await page.getByRole('button', { name: 'Delete', exact: true }).click()
    await page.getByText('The replay of this session was deleted.').waitFor()
    const gone = await t.app.inject({ method: 'GET', url: replayUrl(), headers: { cookie: owner.cookie } })
    expect(gone.statusCode).toBe(404)

    // Without a recording the page shows no Replay card, and no error.
    await page.reload()
    await page.getByRole('heading', { name: 'Events (2)' }).waitFor()
    expect(await page.getByRole('heading', { name: 'Replay' }).count()).toBe(0)
  })

  it('logged no script errors or CSP violations', () => {
    // Chromium reports each script of the recorded page the sandbox refuses to run (whether one reaches
    // the frame depends on how far the replay got): the sandbox asserted above doing its job.
    expect(pageErrors.filter((error) => !SANDBOX_REFUSED.test(error))).toEqual([])
  })
})
