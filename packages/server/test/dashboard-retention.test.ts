/**
 * The dashboard's Retention page end to end: Debian's Chromium (playwright-core) drives the built app
 * served by the real server (SQLite + chDB, on loopback). Data imported with
 * `POST /api/sites/{siteId}/import`; weeks from Monday in Europe/Berlin, range 2026-03-16..04-05:
 *
 * | visitor | events (UTC)                                  | Berlin weeks        |
 * |---------|-----------------------------------------------|---------------------|
 * | a       | 03-16T09:00, 03-25T12:00, 03-29T22:30         | 03-16, 03-23, 03-30 |
 * | b       | 03-22T23:30, 04-05T21:00                      | 03-23, 03-30        |
 * | c       | 03-17T09:00                                   | 03-16               |
 * | d       | 03-24T12:00                                   | 03-23               |
 * | e       | 04-01T12:00                                   | 03-30               |
 *
 * Cohorts: 03-16 {a, c}: 2, 1, 1; 03-23 {b, d}: 2, 1; 03-30 {e}: 1. A second site has no data.
 * The dashboard is built first when `dist/` is stale.
 */
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, openSignedInPage } from '../src/testing/browser.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const NOW = Date.parse('2026-04-10T12:00:00.000Z')
const VIEW = 'period=custom&from=2026-03-16&to=2026-04-05&tz=Europe%2FBerlin'

let t: TestInstance
let browser: Browser
let page: Page
let base: string
let siteId: number
let emptySiteId: number
const pageErrors: string[] = []

const line = (user_id: string, timestamp: string) =>
  JSON.stringify({ timestamp, hostname: 'shop.example', pathname: '/', user_id })

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
  emptySiteId = (await t.createSite(seeded.cookie, seeded.organizationId, 'empty.example')).siteId
  const lines = [
    line('a', '2026-03-16T09:00:00.000Z'),
    line('a', '2026-03-25T12:00:00.000Z'),
    line('a', '2026-03-29T22:30:00.000Z'),
    line('b', '2026-03-22T23:30:00.000Z'),
    line('b', '2026-04-05T21:00:00.000Z'),
    line('c', '2026-03-17T09:00:00.000Z'),
    line('d', '2026-03-24T12:00:00.000Z'),
    line('e', '2026-04-01T12:00:00.000Z'),
  ]
  const imported = await t.app.inject({
    method: 'POST',
    url: `/api/sites/${siteId}/import`,
    headers: { cookie: seeded.cookie, 'content-type': 'application/x-ndjson' },
    payload: lines.join('\n'),
  })
  expect(imported.statusCode, imported.body).toBe(200)

  browser = await launchChromium()
  ;({ page } = await openSignedInPage(browser, {
    baseURL: base,
    cookie: seeded.cookie,
    errors: pageErrors,
    label: 'owner',
  }))
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await t?.close()
})

/** The table's rows as text: header cell, then each cell's percentage and count. */
const rowTexts = () =>
  page
    .locator('.retention-table tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) =>
        [...row.children].map((cell) =>
          cell.classList.contains('retention-cell')
            ? [...cell.querySelectorAll('.retention-share, .retention-count')]
                .map((part) => part.textContent)
                .join(' / ')
            : (cell.textContent ?? ''),
        ),
      ),
    )

describe('the Retention page in Chromium', () => {
  it('shows the weekly cohort triangle with percentages, counts and a heat background', async () => {
    await page.goto(`/sites/${siteId}?${VIEW}`)
    await page.getByRole('link', { name: 'Retention' }).click()
    await page.waitForURL(/\/retention\?/)
    const table = page.getByRole('table', { name: /Retention by week/ })
    await table.waitFor()
    expect(await table.locator('thead th').allTextContents()).toEqual([
      'Cohort',
      'Visitors',
      'Week 0',
      'Week 1',
      'Week 2',
    ])
    expect(await rowTexts()).toEqual([
      ['All cohorts', '5', '100%', '50%', '50%'],
      ['Week of Mar 16, 2026', '2', '100% / 2 visitors', '50% / 1 visitor', '50% / 1 visitor'],
      ['Week of Mar 23, 2026', '2', '100% / 2 visitors', '50% / 1 visitor', ''],
      ['Week of Mar 30, 2026', '1', '100% / 1 visitor', '', ''],
    ])
    // The colour repeats the figure: a full cohort is deeper than a half one.
    const backgrounds = await table
      .locator('tbody tr:nth-child(2) .retention-cell')
      .evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell).backgroundColor))
    expect(backgrounds[0]).not.toBe(backgrounds[1])
    expect(backgrounds[1]).toBe(backgrounds[2])
    expect(backgrounds[0]).not.toBe('rgba(0, 0, 0, 0)')
    await page.screenshot({ path: '/tmp/dashboard-retention.png', fullPage: true })
  })

  it('switches to months, kept in the URL across a reload', async () => {
    await page.getByRole('group', { name: 'Cohort period' }).getByRole('button', { name: 'Months' }).click()
    await page.waitForURL(/cohort=month/)
    await page.getByRole('table', { name: /Retention by month/ }).waitFor()
    // March: a, b, c, d (b's 04-05 event is in April); April: e.
    expect(await rowTexts()).toEqual([
      ['All cohorts', '5', '100%', '25%'],
      ['March 2026', '4', '100% / 4 visitors', '25% / 1 visitor'],
      ['April 2026', '1', '100% / 1 visitor', ''],
    ])
    await page.reload()
    await page.getByRole('table', { name: /Retention by month/ }).waitFor()
    expect(new URL(page.url()).searchParams.get('tz')).toBe('Europe/Berlin')
  })

  it('leaves out the weeks of the range before the first visitor', async () => {
    // Two weeks earlier: 03-02 and 03-09 have no visitors, and are not rows of zeros.
    await page.goto(`/sites/${siteId}/retention?${VIEW.replace('from=2026-03-16', 'from=2026-03-02')}`)
    await page.getByRole('table', { name: /Retention by week/ }).waitFor()
    expect(await rowTexts()).toEqual([
      ['All cohorts', '5', '100%', '50%', '50%'],
      ['Week of Mar 16, 2026', '2', '100% / 2 visitors', '50% / 1 visitor', '50% / 1 visitor'],
      ['Week of Mar 23, 2026', '2', '100% / 2 visitors', '50% / 1 visitor', ''],
      ['Week of Mar 30, 2026', '1', '100% / 1 visitor', '', ''],
    ])
    await page.screenshot({ path: '/tmp/dashboard-retention-leading.png', fullPage: true })
  })

  it('says so when the site has no visitors in the range', async () => {
    await page.goto(`/sites/${emptySiteId}/retention?${VIEW}`)
    await page.getByText('No visitors in this period.').waitFor()
    expect(await page.locator('.retention-table').count()).toBe(0)
    expect(pageErrors).toEqual([])
  })
})
