/**
 * Imported days in the dashboard end to end: Debian's Chromium (playwright-core) drives the built app
 * served by the real server (SQLite + chDB, on loopback). The site imports the Plausible CSV export
 * fixture (`transfer/plausible-export.fixture/`, February 2024) and one own visit on 2024-02-20.
 * The overview's daily chart shows every imported day's visitors as the CSV has them (own events from
 * the 20th); the hourly chart says it leaves imported days out; funnels, journeys, retention, the
 * sessions list and a session's page say the imported days are left out; a range after the imported
 * days, and a site without imports, say nothing. The dashboard is built first when `dist/` is stale.
 */
import fs from 'node:fs'
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import { strToU8, zipSync } from 'fflate'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../src/sites/site.js'
import { launchChromium, openSignedInPage } from '../src/testing/browser.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const NOW = Date.parse('2024-04-15T12:00:00.000Z')
const FEBRUARY = 'period=custom&from=2024-02-01&to=2024-02-29&tz=UTC'
const FOLDER = new URL('../src/transfer/plausible-export.fixture/', import.meta.url)
const FILES = Object.fromEntries(
  fs.readdirSync(FOLDER).map((name) => [name, fs.readFileSync(new URL(name, FOLDER), 'utf8')]),
)
/** The own visit: two pageviews of one visitor. */
const OWN = [
  { timestamp: '2024-02-20T10:00:00.000Z', pathname: '/', user_id: 'own-1' },
  { timestamp: '2024-02-20T10:05:00.000Z', pathname: '/pricing', user_id: 'own-1' },
]

/** Visitors per day of `imported_visitors` (the CSV has no quoted fields in its day rows). */
function csvVisitors(): Map<string, number> {
  const text = Object.entries(FILES).find(([name]) => name.startsWith('imported_visitors_'))?.[1] ?? ''
  const [header = '', ...lines] = text.split('\n').filter(Boolean)
  const columns = header.split(',')
  const date = columns.indexOf('date')
  const visitors = columns.indexOf('visitors')
  return new Map(lines.map((line) => line.split(',')).map((f) => [f[date] ?? '', Number(f[visitors])]))
}

let t: TestInstance
let browser: Browser
let page: Page
let base: string
let site: Site
let cookie: string
let organizationId: string
const pageErrors: string[] = []

beforeAll(async () => {
  const [build] = await Promise.all([
    ensureDashboardBuilt(),
    (async () => {
      t = await openTestInstance({ clock: () => NOW })
      base = await t.app.listen({ port: 0, host: '127.0.0.1' })
    })(),
  ])
  if (build.built) console.info(`built the dashboard in ${build.ms} ms`)
  ;({ site, cookie, organizationId } = await t.seed())
  const zip = Buffer.from(
    zipSync(Object.fromEntries(Object.entries(FILES).map(([name, text]) => [name, strToU8(text)]))),
  )
  const imported = await t.app.inject({
    method: 'POST',
    url: `/api/sites/${site.siteId}/import?format=plausible`,
    headers: { cookie, 'content-type': 'application/zip' },
    payload: zip,
  })
  expect(imported.statusCode, imported.body).toBe(200)
  const own = await t.app.inject({
    method: 'POST',
    url: `/api/sites/${site.siteId}/import`,
    headers: { cookie, 'content-type': 'application/x-ndjson' },
    payload: OWN.map((line) => JSON.stringify({ hostname: site.domain, ...line })).join('\n'),
  })
  expect(own.statusCode, own.body).toBe(200)

  browser = await launchChromium()
  ;({ page } = await openSignedInPage(browser, { baseURL: base, cookie, errors: pageErrors, label: 'owner' }))
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await t?.close()
})

describe('imported days in the dashboard (Chromium)', () => {
  it("draws every imported day's visitors in the daily chart, own events from the first own day", async () => {
    await page.goto(`/sites/${site.siteId}?${FEBRUARY}&bucket=day`)
    await page.locator('.chart-point circle').first().waitFor()
    const values = await page
      .locator('.chart-table tbody tr')
      .evaluateAll((rows) => rows.map((row) => row.querySelectorAll('td')[1]?.textContent ?? ''))
    const imported = csvVisitors()
    const expected = Array.from({ length: 29 }, (_, i) => {
      const day = `2024-02-${String(i + 1).padStart(2, '0')}`
      if (day < '2024-02-20') return String(imported.get(day) ?? 0)
      return String(new Set(OWN.filter((e) => e.timestamp.startsWith(day)).map((e) => e.user_id)).size)
    })
    expect(values).toEqual(expected)
    expect(await page.getByTestId('imported-hours-note').count()).toBe(0)
  })

  it('says under the hourly chart that imported days show at days and above', async () => {
    await page.goto(`/sites/${site.siteId}?period=custom&from=2024-02-13&to=2024-02-13&tz=UTC&bucket=hour`)
    const note = page.getByTestId('imported-hours-note')
    await note.waitFor()
    expect(await note.textContent()).toContain('the hourly chart leaves them out')
  })

  it('says funnels, journeys, retention, sessions and a session leave imported days out', async () => {
    for (const tab of ['funnels', 'journeys', 'retention', 'sessions']) {
      await page.goto(`/sites/${site.siteId}/${tab}?${FEBRUARY}`)
      const note = page.getByTestId('imported-days-note')
      await note.waitFor()
      expect(await note.textContent(), tab).toContain('are left out of this report')
    }
    // The sessions list holds the own visit; its page says the same.
    await page.getByRole('link', { name: /2024/ }).first().click()
    await page.getByRole('heading', { name: `Events (${OWN.length})` }).waitFor()
    expect(await page.getByTestId('imported-days-note').count()).toBe(1)
  })

  it('says nothing for a range after the imported days, nor on a site without imports', async () => {
    const other = await t.createSite(cookie, organizationId, 'other.example')
    for (const path of [
      `/sites/${site.siteId}/sessions?period=custom&from=2024-03-01&to=2024-03-31&tz=UTC`,
      `/sites/${other.siteId}/sessions?${FEBRUARY}`,
    ]) {
      await page.goto(path)
      await page.getByText('No sessions in this period.').waitFor()
      // The summary, asked with the list, has answered once the network is quiet.
      await page.waitForLoadState('networkidle')
      expect(await page.getByTestId('imported-days-note').count(), path).toBe(0)
    }
  })

  it('logged no script errors or CSP violations', () => {
    expect(pageErrors).toEqual([])
  })
})
