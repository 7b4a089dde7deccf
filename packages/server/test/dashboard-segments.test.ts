/**
 * Saved segments on the dashboard end to end: Debian's Chromium (playwright-core) drives the built app
 * served by the real server (SQLite + chDB, on loopback). Pageviews imported with
 * `POST /api/sites/{siteId}/import` on 2026-03-10 (UTC):
 *
 * | visitor | pages              |
 * |---------|--------------------|
 * | a       | /docs/install, /   |
 * | b       | /docs/api          |
 * | c       | /docs/install      |
 * | d, e    | /                  |
 * | f       | /pricing           |
 *
 * Six visitors in all, three of them on a page under /docs, two on /docs/install. The owner filters by
 * /docs, saves the filters as a shared segment, finds it in the URL across a reload, switches it off
 * and on from the menu, reads its filters as read-only chips, edits it to /docs/install (and edits and
 * cancels), and deletes it. The dashboard is built first when `dist/` is stale.
 */
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, openSignedInPage } from '../src/testing/browser.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const NOW = Date.parse('2026-03-12T12:00:00.000Z')
const VIEW = 'period=custom&from=2026-03-10&to=2026-03-10&tz=UTC'
const docsFilter = { parameter: 'pathname', type: 'starts_with', value: ['/docs'] }
const visits = [
  ['a', '/docs/install'],
  ['a', '/'],
  ['b', '/docs/api'],
  ['c', '/docs/install'],
  ['d', '/'],
  ['e', '/'],
  ['f', '/pricing'],
] as const

let t: TestInstance
let browser: Browser
let page: Page
let base: string
let siteId: number
let cookie: string
const pageErrors: string[] = []

/** The segments of the site as the API lists them for the owner. */
const listed = async () => {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/sites/${siteId}/segments`,
    headers: { cookie },
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data as { segmentId: number; name: string; filters: unknown; visibility: string }[]
}

/** Wait until the visitors card shows `visitors` and is done loading. */
const visitorsShow = (visitors: string) =>
  page.waitForFunction(
    (v) =>
      document.querySelector('[data-kpi="visitors"] .kpi-value')?.textContent === v &&
      document.querySelector('.kpis')?.getAttribute('aria-busy') === 'false',
    visitors,
  )

beforeAll(async () => {
  const [build] = await Promise.all([
    ensureDashboardBuilt(),
    (async () => {
      t = await openTestInstance({ clock: () => NOW })
      base = await t.app.listen({ port: 0, host: '127.0.0.1' })
    })(),
  ])
  if (build.built) console.info(`built the dashboard in ${build.ms} ms`)
  const seeded = await t.seed()
  siteId = seeded.site.siteId
  cookie = seeded.cookie
  const lines = visits.map(([user_id, pathname], i) =>
    JSON.stringify({
      timestamp: new Date(Date.parse('2026-03-10T09:00:00.000Z') + i * 60_000).toISOString(),
      hostname: 'shop.example',
      pathname,
      user_id,
    }),
  )
  const imported = await t.app.inject({
    method: 'POST',
    url: `/api/sites/${siteId}/import`,
    headers: { cookie, 'content-type': 'application/x-ndjson' },
    payload: lines.join('\n'),
  })
  expect(imported.statusCode, imported.body).toBe(200)

  browser = await launchChromium()
  ;({ page } = await openSignedInPage(browser, { baseURL: base, cookie, errors: pageErrors, label: 'owner' }))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await t?.close()
})

describe('saved segments in Chromium', () => {
  it('saves the filters as a segment kept in the URL, picks it from the menu, and deletes it', async () => {
    const all = new Set(visits.map(([visitor]) => visitor)).size
    const docs = new Set(visits.filter(([, path]) => path.startsWith('/docs')).map(([visitor]) => visitor))
      .size
    expect([all, docs]).toEqual([6, 3])

    await page.goto(`/sites/${siteId}?${VIEW}&filters=${encodeURIComponent(JSON.stringify([docsFilter]))}`)
    await visitorsShow(String(docs))

    await page.getByRole('button', { name: 'Save as segment' }).click()
    const form = page.getByRole('form', { name: 'Save as segment' })
    await form.getByLabel('Name').fill('Docs readers')
    await form.getByLabel('Seen by').selectOption({ label: 'Site readers' })
    await page.screenshot({ path: '/tmp/dashboard-segments-form.png' })
    await form.getByRole('button', { name: 'Save' }).click()
    await page.waitForURL(/[?&]segment=\d+/)

    const [saved] = await listed()
    expect(saved).toMatchObject({ name: 'Docs readers', filters: [docsFilter], visibility: 'site' })
    const url = new URL(page.url())
    expect(url.searchParams.get('segment')).toBe(String(saved?.segmentId))
    expect(url.searchParams.get('filters')).toBeNull()
    expect(await page.getByRole('list', { name: 'Filters', exact: true }).count()).toBe(0)
    const menu = page.getByLabel('Segment')
    expect(await menu.inputValue()).toBe(String(saved?.segmentId))
    await visitorsShow(String(docs))
    await page.screenshot({ path: '/tmp/dashboard-segments.png' })

    await page.reload()
    await visitorsShow(String(docs))
    expect(await page.getByLabel('Segment').inputValue()).toBe(String(saved?.segmentId))

    await page.getByLabel('Segment').selectOption({ label: 'All visitors' })
    await visitorsShow(String(all))
    expect(new URL(page.url()).searchParams.get('segment')).toBeNull()
    await page.getByLabel('Segment').selectOption({ label: 'Docs readers' })
    await visitorsShow(String(docs))

    // The segment's filters show as read-only chips beside the menu.
    const segmentChips = page.getByRole('list', { name: 'Conditions of Docs readers' })
    expect(await segmentChips.locator('li').allTextContents()).toEqual(['Page starts with /docs'])
    expect(await segmentChips.getByRole('button').count()).toBe(0)
    await page.screenshot({ path: '/tmp/dashboard-segment-chips.png' })

    // Editing makes them the view's own filters; the changed filters are saved as the segment's.
    await page.getByRole('button', { name: 'Edit segment' }).click()
    await page.waitForURL((url) => url.searchParams.get('segment') === null)
    expect(JSON.parse(new URL(page.url()).searchParams.get('filters') ?? '')).toEqual([docsFilter])
    await visitorsShow(String(docs))
    await page.getByRole('button', { name: 'Remove filter: Page starts with /docs' }).click()
    await visitorsShow(String(all))
    const pages = page.locator('section.report-card', { has: page.getByRole('heading', { name: 'Pages' }) })
    await pages.locator('.bar-row', { hasText: '/docs/install' }).click()
    const install = new Set(visits.filter(([, path]) => path === '/docs/install').map(([visitor]) => visitor))
      .size
    expect(install).toBe(2)
    await visitorsShow(String(install))
    await page.getByRole('button', { name: 'Update segment' }).click()
    await page.waitForURL(/[?&]segment=\d+/)
    expect(new URL(page.url()).searchParams.get('filters')).toBeNull()
    const installFilter = { parameter: 'pathname', type: 'equals', value: ['/docs/install'] }
    expect(await listed()).toMatchObject([{ name: 'Docs readers', filters: [installFilter] }])
    await visitorsShow(String(install))
    expect(await segmentChips.locator('li').allTextContents()).toEqual(['Page is /docs/install'])

    // Editing and cancelling leaves the segment as it was.
    await page.getByRole('button', { name: 'Edit segment' }).click()
    await page.waitForURL((url) => url.searchParams.get('segment') === null)
    await page.getByRole('button', { name: 'Remove filter: Page is /docs/install' }).click()
    await visitorsShow(String(all))
    await page.getByRole('button', { name: 'Cancel' }).click()
    await page.waitForURL(/[?&]segment=\d+/)
    await visitorsShow(String(install))
    expect(await listed()).toMatchObject([{ filters: [installFilter] }])

    await page.getByRole('button', { name: 'Delete segment' }).click()
    await visitorsShow(String(all))
    expect(new URL(page.url()).searchParams.get('segment')).toBeNull()
    expect(await listed()).toEqual([])
  })

  it('logged no script errors or CSP violations', () => {
    expect(pageErrors).toEqual([])
  })
})
