/**
 * Comparisons and annotations on the overview end to end: Debian's Chromium (playwright-core) drives
 * the built app served by the real server (SQLite + chDB, on loopback). Pageviews imported with
 * `POST /api/sites/{siteId}/import`, one visitor each, at 09:00 + i minutes UTC:
 *
 * | day        | visitors |   | day        | visitors |
 * |------------|----------|---|------------|----------|
 * | 2025-02-27 | 1        |   | 2024-02-27 | 2        |
 * | 2025-02-28 | 2        |   | 2024-02-28 | 1        |
 * | 2025-03-01 | 3        |   | 2024-02-29 | 4        |
 *
 * The owner picks "Previous year" for 2025-02-27..03-01: the chart draws the compared series dashed, its
 * table column holding 2024-02-27..02-29 bucket by bucket (the leap day third). Then the owner writes
 * an annotation on 2025-02-28 from the form under the chart; its marker shows the text on hover, and
 * deleting it removes the marker. The dashboard is built first when `dist/` is stale.
 */
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, openSignedInPage } from '../src/testing/browser.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const NOW = Date.parse('2025-03-05T12:00:00.000Z')
const VIEW = 'period=custom&from=2025-02-27&to=2025-03-01&tz=UTC'
const visitorsOn: Record<string, number> = {
  '2025-02-27': 1,
  '2025-02-28': 2,
  '2025-03-01': 3,
  '2024-02-27': 2,
  '2024-02-28': 1,
  '2024-02-29': 4,
}

let t: TestInstance
let browser: Browser
let page: Page
let base: string
let siteId: number
let cookie: string
const pageErrors: string[] = []

/** The site's annotations as the API lists them for the owner. */
const listed = async () => {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/sites/${siteId}/annotations`,
    headers: { cookie },
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data as { id: number; date: string; text: string }[]
}

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
  const lines = Object.entries(visitorsOn).flatMap(([day, visitors]) =>
    Array.from({ length: visitors }, (_, i) =>
      JSON.stringify({
        timestamp: new Date(Date.parse(`${day}T09:00:00.000Z`) + i * 60_000).toISOString(),
        hostname: 'shop.example',
        pathname: '/',
        user_id: `${day}-${i}`,
      }),
    ),
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

describe('comparisons and annotations in Chromium', () => {
  it('draws the previous year dashed, bucket by bucket across the leap day', async () => {
    await page.goto(`/sites/${siteId}?${VIEW}`)
    await page.locator('.chart-point circle').first().waitFor()
    expect(await page.getByTestId('chart-previous').count()).toBe(0)

    await page.getByLabel('Compare with').selectOption({ label: 'Previous year' })
    await page.waitForURL(/[?&]compare=previous_year/)
    await page.getByTestId('chart-previous').waitFor()
    const dash = await page
      .getByTestId('chart-previous')
      .evaluate((path) => getComputedStyle(path).strokeDasharray)
    expect(dash).not.toBe('none')
    const rows = await page
      .locator('.chart-table tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent)),
      )
    const current = ['2025-02-27', '2025-02-28', '2025-03-01']
    const compared = ['2024-02-27', '2024-02-28', '2024-02-29']
    expect(rows).toEqual(
      current.map((day, i) => [String(visitorsOn[day]), String(visitorsOn[compared[i] as string])]),
    )
    // The pages card: every pageview was on '/', so its change is that of all pageviews.
    const sum = (days: string[]) => days.reduce((n, day) => n + (visitorsOn[day] ?? 0), 0)
    const change = (sum(current) - sum(compared)) / sum(compared)
    const pages = page.locator('section.report-card', { has: page.getByRole('heading', { name: 'Pages' }) })
    await pages.getByTestId('bar-change').first().waitFor()
    expect(await pages.getByTestId('bar-change').first().textContent()).toBe(
      `${change > 0 ? '+' : '−'}${(Math.round(Math.abs(change) * 1000) / 10).toFixed(1)}% against the compared days`,
    )
    await page.screenshot({ path: '/tmp/dashboard-compare.png', fullPage: true })
  })

  it('writes an annotation, marks its day and shows its text on hover, and deletes it', async () => {
    await page.goto(`/sites/${siteId}?${VIEW}`)
    await page.locator('.chart-point circle').first().waitFor()
    const form = page.getByRole('form', { name: 'Add an annotation' })
    await form.getByLabel('Day').fill('2025-02-28')
    await form.getByLabel('Note').fill('Spring sale started')
    await form.getByRole('button', { name: 'Add note' }).click()

    const marker = page.getByTestId('chart-annotation')
    await marker.waitFor()
    expect(await listed()).toMatchObject([{ date: '2025-02-28', text: 'Spring sale started' }])
    const text = marker.locator('.chart-annotation-text')
    expect(await text.isVisible()).toBe(false)
    await marker.locator('circle').hover()
    await text.waitFor({ state: 'visible' })
    expect(await text.textContent()).toBe('Spring sale started')
    // The marker sits on the day's point (the second of three).
    const [markerX, pointX] = await Promise.all([
      marker.locator('line').getAttribute('x1'),
      page.locator('.chart-point circle').nth(1).getAttribute('cx'),
    ])
    expect(markerX).toBe(pointX)
    await page.screenshot({ path: '/tmp/dashboard-annotation.png', fullPage: true })

    await page.reload()
    await page.getByTestId('chart-annotation').waitFor()
    const list = page.getByRole('list', { name: 'Annotations' })
    await list.getByRole('button', { name: 'Delete' }).click()
    await list.getByRole('button', { name: 'Delete' }).click()
    await page.getByTestId('chart-annotation').waitFor({ state: 'detached' })
    expect(await listed()).toEqual([])
  })

  it('logged no script errors or CSP violations', () => {
    expect(pageErrors).toEqual([])
  })
})
