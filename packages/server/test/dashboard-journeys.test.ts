/**
 * The dashboard's Journeys page end to end: Debian's Chromium (playwright-core) drives the built app
 * served by the real server (SQLite + chDB, on loopback). Data imported with
 * `POST /api/sites/{siteId}/import`, one session per visitor on 2026-03-10 (UTC):
 *
 * | visitors   | pageviews                       | journey (4 steps)         |
 * |------------|---------------------------------|---------------------------|
 * | a1, a2, a3 | / /pricing /pricing /signup     | / /pricing /signup        |
 * | b1         | / /blog /pricing                | / /blog /pricing          |
 * | c1         | /docs                           | none (one page)           |
 *
 * A second site has no data. The dashboard is built first when `dist/` is stale.
 */
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, openSignedInPage } from '../src/testing/browser.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const NOW = Date.parse('2026-03-11T12:00:00.000Z')
const VIEW = 'period=custom&from=2026-03-10&to=2026-03-11&tz=UTC'

let t: TestInstance
let browser: Browser
let page: Page
let base: string
let siteId: number
let emptySiteId: number
const pageErrors: string[] = []

function visit(user: string, start: string, pages: string[]): string[] {
  return pages.map((pathname, i) =>
    JSON.stringify({
      timestamp: new Date(Date.parse(start) + i * 60_000).toISOString(),
      hostname: 'shop.example',
      pathname,
      user_id: user,
    }),
  )
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
  emptySiteId = (await t.createSite(seeded.cookie, seeded.organizationId, 'empty.example')).siteId
  const lines = [
    ...['a1', 'a2', 'a3'].flatMap((user, i) =>
      visit(user, `2026-03-10T0${i + 1}:00:00Z`, ['/', '/pricing', '/pricing', '/signup']),
    ),
    ...visit('b1', '2026-03-10T05:00:00Z', ['/', '/blog', '/pricing']),
    ...visit('c1', '2026-03-10T06:00:00Z', ['/docs']),
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

const journeysTable = () => page.locator('.journeys-table tbody tr')
/** The table's rows as [pages joined by spaces, sessions]. */
const rowTexts = () =>
  journeysTable().evaluateAll((rows) =>
    rows.map((row) => [
      [...row.querySelectorAll('.journey-path li')].map((li) => li.textContent).join(' '),
      row.querySelector('td.num')?.textContent,
    ]),
  )

describe('journeys page in Chromium', () => {
  it('is a report tab, and shows the journeys as a Sankey chart and a table', async () => {
    await page.goto(`/sites/${siteId}?${VIEW}`)
    await page.getByRole('link', { name: 'Journeys' }).click()
    await page.waitForURL((url) => url.pathname === `/sites/${siteId}/journeys`)
    expect(new URL(page.url()).searchParams.get('from')).toBe('2026-03-10')
    await page.locator('.sankey').waitFor()
    expect(await rowTexts()).toEqual([
      ['/ /pricing /signup', '3'],
      ['/ /blog /pricing', '1'],
    ])
    expect(await page.getByTestId('journeys-summary').textContent()).toBe('4 sessions followed 2 journeys:')
    // Nodes: step 1 /, step 2 /pricing and /blog, step 3 /signup and /pricing.
    const nodes = await page
      .locator('.sankey-node')
      .evaluateAll((list) =>
        list.map((n) => `${n.getAttribute('data-step')}:${n.getAttribute('data-pathname')}`),
      )
    expect(nodes).toEqual(['1:/', '2:/pricing', '2:/blog', '3:/signup', '3:/pricing'])
    expect(await page.locator('.sankey-bands path').count()).toBe(4)
    await page.screenshot({ path: '/tmp/dashboard-journeys.png', fullPage: true })
  })

  it('starts the journeys at a node chosen in the chart', async () => {
    await page.getByRole('button', { name: /^Step 2: \/pricing, 3 sessions/ }).click()
    await page.waitForURL((url) => url.searchParams.get('start') === '/pricing')
    await page.waitForFunction(() => document.querySelectorAll('.journeys-table tbody tr').length === 1)
    expect(await rowTexts()).toEqual([['/pricing /signup', '3']])
    expect(await page.getByLabel('Start page').inputValue()).toBe('/pricing')
    expect(new URL(page.url()).searchParams.get('period')).toBe('custom')
  })

  it('takes steps and an end page from the options, and clears them', async () => {
    await page.getByRole('button', { name: 'Clear pages' }).click()
    await page.waitForURL((url) => !url.searchParams.has('start'))
    await page.getByLabel('Steps').selectOption('2')
    await page.getByLabel('End page').fill('/pricing')
    await page.getByRole('button', { name: 'Show journeys' }).click()
    await page.waitForURL((url) => url.searchParams.get('end') === '/pricing')
    expect(new URL(page.url()).searchParams.get('steps')).toBe('2')
    // Polled: the table still shows the journeys from /pricing (two pages each, too) until the answer
    // for the end page is in.
    await expect.poll(rowTexts).toEqual([
      ['/ /pricing', '3'],
      ['/blog /pricing', '1'],
    ])
  })

  it('says so when there are no journeys', async () => {
    await page.goto(`/sites/${emptySiteId}/journeys?${VIEW}`)
    await page.getByText('No journeys in this period.').waitFor()
    expect(await page.locator('.sankey').count()).toBe(0)
    expect(await journeysTable().count()).toBe(0)
    expect(pageErrors).toEqual([])
  })
})
