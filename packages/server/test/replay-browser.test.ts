import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, newChromeContext, openSignedInPage } from '../src/testing/browser.js'
import { type FixtureSites, type SiteColumns, startFixtureSites } from '../src/testing/fixture-sites.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'replay')
const POLL = { timeout: 15_000, interval: 100 }

interface StoredBatch {
  session_id: string
  sequence: number
  encoding: 'gzip' | 'json'
  payload: string
}

interface RecordedEvent {
  type: number
  timestamp: number
  data: { href?: string; source?: number; text?: string }
}

let t: TestInstance
let cookie: string
let organizationId: string
let browser: Browser
let sites: FixtureSites
let serverUrl: string
const contexts: BrowserContext[] = []

beforeAll(async () => {
  await ensureDashboardBuilt()
  t = await openTestInstance()
  ;({ cookie, organizationId } = await t.seed())
  serverUrl = await t.app.listen({ port: 0, host: '127.0.0.1' })
  const scriptUrl = `${serverUrl}/api/script.js`
  sites = await startFixtureSites({ t, cookie, organizationId, dir: FIXTURES, scriptUrl, prefix: 'r' })
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

/** A new site on its own domain rN.test, with `columns` set in the metadata store. */
const newSite = (columns: SiteColumns = {}, attributes = '') => sites.add(columns, attributes)

/**
 * A page in a fresh context with a desktop Chrome user agent; `requested` collects every URL it requested
 * and `answers` the bodies of the server's answers to `POST /api/replay` (fetch; beacons are not read).
 */
async function openPage(initScript?: string) {
  const context = await newChromeContext(browser)
  contexts.push(context)
  await context.addInitScript(WATCH_CHUNK)
  if (initScript) await context.addInitScript(initScript)
  const page = await context.newPage()
  const requested: string[] = []
  page.on('request', (request) => requested.push(request.url()))
  return { page, requested }
}

/** Marks `window.__replayLoaded` once the replay chunk has run (its script element's load event). */
const WATCH_CHUNK = `new MutationObserver(() => {
  const chunk = document.querySelector('script[src*="script-replay.js"]')
  if (chunk) chunk.onload = () => { window.__replayLoaded = true }
}).observe(document, { childList: true, subtree: true })`

/** Resolves once the page has run the replay chunk. */
const chunkLoaded = (page: Page) => page.waitForFunction('window.__replayLoaded === true')

async function storedBatches(siteId: number): Promise<StoredBatch[]> {
  return t.services.events.query<StoredBatch>(
    `SELECT session_id, sequence, encoding, base64Encode(payload) AS payload
     FROM replay WHERE site_id = {site:UInt32} ORDER BY sequence`,
    { site: siteId },
  )
}

/** A stored batch body as text (gunzipped when sent gzipped). */
const textOf = (batch: StoredBatch) => {
  const bytes = Buffer.from(batch.payload, 'base64')
  return (batch.encoding === 'gzip' ? zlib.gunzipSync(bytes) : bytes).toString('utf8')
}

async function sessionsOfPageviews(siteId: number): Promise<string[]> {
  await t.services.buffer.flush()
  const rows = await t.services.events.query<{ session_id: string }>(
    "SELECT DISTINCT session_id FROM events WHERE site_id = {site:UInt32} AND type = 'pageview'",
    { site: siteId },
  )
  return rows.map((row) => row.session_id)
}

/** Send a custom event and wait for it: what the page sent before has been processed by then. */
async function settle(page: Page, siteId: number) {
  const name = `sentinel-${crypto.randomUUID()}`
  await page.evaluate(`pathlight.event(${JSON.stringify(name)})`)
  await expect
    .poll(async () => {
      await t.services.buffer.flush()
      const rows = await t.services.events.query<{ n: number }>(
        'SELECT count() AS n FROM events WHERE site_id = {site:UInt32} AND event_name = {name:String}',
        { site: siteId, name },
      )
      return Number(rows[0]?.n)
    }, POLL)
    .toBe(1)
}

const TYPED = 'typed-visible-4711'
const PASSWORD = 'hunter2-secret-9'

describe('recording a visit', () => {
  it('stores a masked recording of the visit in the session of its pageviews', async () => {
    const { siteId, origin } = await newSite({ session_replay: 1, track_url_params: 0 })
    const { page, requested } = await openPage()
    const firstAnswer = page.waitForResponse(
      (response) => response.url().endsWith('/api/replay') && response.request().method() === 'POST',
    )
    await page.goto(`${origin}/record.html?token=secret-query-77#access_token=secret-fragment-88`)
    await chunkLoaded(page)
    expect(requested.filter((url) => url.includes('/api/script-replay.js?v='))).toHaveLength(1)

    await page.type('#name', TYPED)
    await page.type('#password', PASSWORD)
    await page.mouse.wheel(0, 600)
    // The first batch leaves after 5 s, gzipped with fetch; its answer is read.
    expect(await (await firstAnswer).json()).toEqual({ success: true, recorded: true })
    await page.click('#place')
    await page.waitForFunction('location.pathname === "/done"')
    // Leaving the page sends the rest as a JSON beacon.
    await page.goto(`${origin}/landing.html`)

    await expect.poll(async () => (await storedBatches(siteId)).length, POLL).toBeGreaterThanOrEqual(2)
    const batches = await storedBatches(siteId)
    expect(batches.map((batch) => batch.sequence)).toEqual(batches.map((_, i) => i))
    expect(new Set(batches.map((batch) => batch.encoding))).toEqual(new Set(['gzip', 'json']))
    const text = batches.map(textOf).join('\n')
    expect(text).toContain('Public product description')
    expect(text).toContain('Order placed')
    for (const secret of [
      TYPED,
      PASSWORD,
      'BLOCKED-SECRET',
      'MASKED-SECRET',
      'secret-query-77',
      'secret-fragment-88',
    ]) {
      expect(text, secret).not.toContain(secret)
    }

    // The recording belongs to the session of the page's pageviews.
    const sessions = await sessionsOfPageviews(siteId)
    expect(sessions).toHaveLength(1)
    expect(new Set(batches.map((batch) => batch.session_id))).toEqual(new Set(sessions))

    const answer = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${siteId}/sessions/${sessions[0]}/replay`,
      headers: { cookie },
    })
    expect(answer.statusCode, answer.body).toBe(200)
    const { events } = (answer.json() as { data: { events: RecordedEvent[] } }).data
    expect(events.slice(0, 2).map((event) => event.type)).toEqual([4, 2])
    expect(events[0]?.data.href).toBe(`${origin}/record.html`)
    expect(events.slice(2).some((event) => event.type === 3)).toBe(true)
    const timestamps = events.map((event) => event.timestamp)
    expect(timestamps).toEqual([...timestamps].sort((a, b) => a - b))
    // Typing was recorded, as asterisks (IncrementalSnapshot, source Input).
    const inputs = events.filter((event) => event.type === 3 && event.data.source === 5)
    expect(inputs.map((event) => event.data.text)).toContain('*'.repeat(TYPED.length))

    // And the owner watches it in the dashboard: the player shows the recorded page, never the secrets.
    const errors: string[] = []
    const { context: dashboard, page: owner } = await openSignedInPage(browser, {
      baseURL: serverUrl,
      cookie,
      errors,
      label: 'session page',
      timeoutMs: 15_000,
    })
    contexts.push(dashboard)
    await owner.goto(`/sites/${siteId}/sessions/${sessions[0]}`)
    const card = owner.locator('section', { has: owner.getByRole('heading', { name: 'Replay' }) })
    await card.locator('.rr-controller__btns button').first().click({ timeout: 15_000 })
    const replayed = owner.frameLocator('.replayer-wrapper iframe')
    await replayed.getByText('Public product description').waitFor({ state: 'visible', timeout: 15_000 })
    await owner.screenshot({ path: path.join(os.tmpdir(), 'pathlight-replay-of-tracked-visit.png') })
    const shown = await replayed.locator('body').innerText()
    for (const secret of [TYPED, PASSWORD, 'BLOCKED-SECRET', 'MASKED-SECRET']) {
      expect(shown, secret).not.toContain(secret)
    }
    expect(errors).toEqual([])
  }, 90_000)

  it('sends a batch again when the server could not take it, and the recording stays whole', async () => {
    const { siteId, origin } = await newSite({ session_replay: 1 })
    const { page } = await openPage()
    // The server's first answer to a batch is lost to a failure (as when a store query failed).
    let refused = 0
    await page.route('**/api/replay', async (route) => {
      if (route.request().method() !== 'POST' || refused > 0) return route.continue()
      refused++
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        headers: { 'access-control-allow-origin': '*' },
        body: JSON.stringify({ success: false, error: 'Service unavailable' }),
      })
    })
    const stored = page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/replay') &&
        response.request().method() === 'POST' &&
        response.status() === 200,
    )
    await page.goto(`${origin}/record.html`)
    await chunkLoaded(page)
    await page.mouse.wheel(0, 600)
    expect(await (await stored).json()).toEqual({ success: true, recorded: true })
    expect(refused).toBe(1)
    const batches = await storedBatches(siteId)
    expect(batches.map((batch) => batch.sequence)).toEqual([0])
    expect(textOf(batches[0] as StoredBatch)).toContain('Public product description')
  }, 60_000)

  it('keeps the query string of recorded URLs when the site tracks URL parameters', async () => {
    const { siteId, origin } = await newSite({ session_replay: 1, track_url_params: 1 })
    const { page } = await openPage()
    await page.goto(`${origin}/record.html?plan=pro`)
    await chunkLoaded(page)
    await page.type('#name', 'a')
    await page.goto(`${origin}/landing.html`)
    await expect.poll(async () => (await storedBatches(siteId)).length, POLL).toBeGreaterThanOrEqual(1)
    const [first] = await storedBatches(siteId)
    const [meta] = (JSON.parse(textOf(first as StoredBatch)) as { events: RecordedEvent[] }).events
    expect(meta).toMatchObject({ type: 4, data: { href: `${origin}/record.html?plan=pro` } })
  })
})

describe('when not to record', () => {
  it('never loads the recorder on sites without replay, at sample rate 0, or for opted-out visitors', async () => {
    const cases = [
      { label: 'replay off', site: await newSite({}), init: undefined },
      { label: 'rate 0', site: await newSite({ session_replay: 1, replay_sample_rate: 0 }), init: undefined },
      {
        label: 'opted out',
        site: await newSite({ session_replay: 1 }),
        init: "localStorage.setItem('pathlight_ignore', 'true')",
      },
    ]
    for (const { label, site, init } of cases) {
      const { page, requested } = await openPage(init)
      const config =
        init === undefined && page.waitForResponse((response) => response.url().includes('/tracker-config'))
      await page.goto(`${site.origin}/record.html`)
      if (config) {
        await config
        await page.type('#name', TYPED)
        await settle(page, site.siteId)
      }
      await page.goto(`${site.origin}/landing.html`)
      expect(
        requested.filter((url) => url.includes('script-replay') || url.endsWith('/api/replay')),
        label,
      ).toEqual([])
      expect(await storedBatches(site.siteId), label).toEqual([])
    }
  })

  it('stops for the rest of the session once the server answers "not sampled"', async () => {
    const { siteId, origin } = await newSite({ session_replay: 1, replay_sample_rate: 1e-9 })
    const { page, requested } = await openPage()
    const answer = page.waitForResponse((response) => response.url().endsWith('/api/replay'))
    await page.goto(`${origin}/record.html`)
    await chunkLoaded(page)
    await page.type('#name', 'a')
    expect(await (await answer).json()).toEqual({ success: true, recorded: false, reason: 'not sampled' })
    const key = `pathlight:replay:${siteId}`
    const state = () =>
      page.evaluate(`JSON.parse(localStorage.getItem(${JSON.stringify(key)}))`) as Promise<{
        stopped: boolean
        lastSentAt: number
      }>
    await expect.poll(async () => (await state()).stopped, POLL).toBe(true)
    const before = (await state()).lastSentAt

    // The next page loads the recorder, which notes the visit and does not record.
    await page.reload()
    await chunkLoaded(page)
    expect((await state()).lastSentAt).toBeGreaterThan(before)
    expect((await state()).stopped).toBe(true)
    await page.type('#name', 'b')
    const sends = requested.filter((url) => url.endsWith('/api/replay')).length
    await page.goto(`${origin}/landing.html`)
    expect(requested.filter((url) => url.endsWith('/api/replay'))).toHaveLength(sends)
    expect(sends).toBe(1)
    expect(await storedBatches(siteId)).toEqual([])
  }, 30_000)

  it('stops once the recording is longer than data-replay-max-minutes', async () => {
    // 0.02 minutes: 1.2 s.
    const { siteId, origin } = await newSite({ session_replay: 1 }, 'data-replay-max-minutes="0.02"')
    const { page } = await openPage()
    const key = `pathlight:replay:${siteId}`
    await page.goto(`${origin}/record.html`)
    await chunkLoaded(page)
    await page.type('#name', 'a')
    // Every interaction past 1.2 s finds the recording over its length: the first one stops it.
    await expect
      .poll(async () => {
        await page.mouse.move(Math.random() * 500, Math.random() * 500)
        return page.evaluate(`(JSON.parse(localStorage.getItem(${JSON.stringify(key)})) || {}).stopped`)
      }, POLL)
      .toBe(true)
    await page.goto(`${origin}/landing.html`)
    await expect.poll(async () => (await storedBatches(siteId)).length, POLL).toBeGreaterThanOrEqual(1)
    const events = (await storedBatches(siteId)).flatMap(
      (batch) => (JSON.parse(textOf(batch)) as { events: RecordedEvent[] }).events,
    )
    const first = events[0]?.timestamp ?? 0
    expect(Math.max(...events.map((event) => event.timestamp)) - first).toBeLessThan(1200 + 100)
  })
})
