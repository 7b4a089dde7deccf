/**
 * The overview's "Compare with" control end to end: Debian's Chromium (playwright-core) drives the
 * built app served by the real server (SQLite + chDB, on loopback). Pageviews imported with
 * `POST /api/sites/{siteId}/import`, one visitor each, at 09:00 + i minutes UTC:
 *
 * | range shown             | day        | visitors |   | compared        | day        | visitors |
 * |-------------------------|------------|----------|---|-----------------|------------|----------|
 * | 2025-02-27..03-01       | 2025-02-27 | 1        |   | previous period | 2025-02-24 | 1        |
 * |                         | 2025-02-28 | 2        |   |                 | 2025-02-25 | 2        |
 * |                         | 2025-03-01 | 3        |   | previous year   | 2024-02-27 | 2        |
 * |                         |            |          |   |                 | 2024-02-28 | 1        |
 * |                         |            |          |   |                 | 2024-02-29 | 4        |
 *
 * The owner goes through every choice of the control, in an order that changes each one into every
 * other (previous year, previous period, custom days applied, nothing, the default, and back), changes
 * the period and the weekday matching in between, and goes Back: after each step the select shows the
 * choice, the visitors card's headline names the compared days with their visitor count, and the URL
 * holds each parameter once. The dashboard is built first when `dist/` is stale.
 */
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, openSignedInPage } from '../src/testing/browser.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const NOW = Date.parse('2025-03-05T12:00:00.000Z')
const VIEW = 'period=custom&from=2025-02-27&to=2025-03-01&tz=UTC'
const visitorsOn: Record<string, number> = {
  '2025-02-24': 1,
  '2025-02-25': 2,
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
const pageErrors: string[] = []

/** Visitors of the days `from`..`to` (both included), counted from the imported table. */
const visitorsBetween = (from: string, to: string) =>
  Object.entries(visitorsOn)
    .filter(([day]) => day >= from && day <= to)
    .reduce((n, [, visitors]) => n + visitors, 0)

/** 'Feb 24, 2025' for '2025-02-24' (Chromium's locale here is en-US). */
const dayText = (day: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(
    Date.parse(`${day}T12:00:00Z`),
  )

/** Every parameter of the page's URL with how often it appears. */
const urlCounts = () => {
  const counts: Record<string, number> = {}
  for (const [name] of new URL(page.url()).searchParams) counts[name] = (counts[name] ?? 0) + 1
  return counts
}

/**
 * After a step: the select shows `label`, the URL holds each parameter once with the `compare*` and
 * `dow` ones of `params`, and the visitors card names the compared days `from`..`to` with their visitors
 * (none of either with `from` null: nothing compared).
 */
async function expectComparison(
  label: string,
  params: Record<string, string>,
  compared: { from: string; to: string } | null,
) {
  const picker = page.getByLabel('Compare with')
  await page.waitForFunction((text) => {
    const select = document.querySelector<HTMLSelectElement>(
      '.report-toolbar select:has(option[value="none"])',
    )
    return select?.selectedOptions[0]?.textContent === text
  }, label)
  const headline = compared
    ? `vs. ${dayText(compared.from)} – ${dayText(compared.to)}: ${visitorsBetween(compared.from, compared.to)}`
    : null
  const shownHeadline = () =>
    page.evaluate(
      () => document.querySelector('[data-kpi="visitors"] .kpi-change')?.getAttribute('title') ?? null,
    )
  await page
    .waitForFunction(
      (expected) =>
        document.querySelector('.kpis')?.getAttribute('aria-busy') === 'false' &&
        (document.querySelector('[data-kpi="visitors"] .kpi-change')?.getAttribute('title') ?? null) ===
          expected,
      headline,
    )
    .catch(() => undefined)
  expect(await shownHeadline()).toBe(headline)
  expect(await picker.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent)).toBe(label)
  const counts = urlCounts()
  expect(
    Object.values(counts).every((n) => n === 1),
    JSON.stringify(counts),
  ).toBe(true)
  const search = new URL(page.url()).searchParams
  const comparison = Object.fromEntries(
    ['compare', 'compare_from', 'compare_to', 'dow'].flatMap((name) => {
      const value = search.get(name)
      return value === null ? [] : [[name, value]]
    }),
  )
  expect(comparison).toEqual(params)
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
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await t?.close()
})

describe('the compare control in Chromium', () => {
  it('takes every choice after every other, and each parameter stays in the URL once', async () => {
    const previousPeriod = { from: '2025-02-24', to: '2025-02-26' }
    // The same calendar days a year before: 2025-03-01 is 2024-03-01, so the leap day falls inside.
    const previousYear = { from: '2024-02-27', to: '2024-03-01' }
    const picker = page.getByLabel('Compare with')
    await page.goto(`/sites/${siteId}?${VIEW}`)
    await expectComparison('Previous period', {}, previousPeriod)

    await picker.selectOption({ label: 'Previous year' })
    await expectComparison('Previous year', { compare: 'previous_year' }, previousYear)

    await picker.selectOption({ label: 'Previous period (on the chart)' })
    await expectComparison('Previous period (on the chart)', { compare: 'previous_period' }, previousPeriod)

    // Custom days start on the days before the range; Apply takes the days typed in.
    await picker.selectOption({ label: 'Custom days' })
    await expectComparison(
      'Custom days',
      { compare: 'custom', compare_from: previousPeriod.from, compare_to: previousPeriod.to },
      previousPeriod,
    )
    const days = page.getByRole('form', { name: 'Compared days' })
    await days.getByLabel('Compare from').fill('2024-02-27')
    await days.getByLabel('to', { exact: true }).fill('2024-02-28')
    await days.getByRole('button', { name: 'Apply' }).click()
    await expectComparison(
      'Custom days',
      { compare: 'custom', compare_from: '2024-02-27', compare_to: '2024-02-28' },
      { from: '2024-02-27', to: '2024-02-28' },
    )
    await days.getByLabel('Compare from').fill('2024-02-28')
    await days.getByLabel('to', { exact: true }).fill('2024-02-29')
    await days.getByRole('button', { name: 'Apply' }).click()
    await expectComparison(
      'Custom days',
      { compare: 'custom', compare_from: '2024-02-28', compare_to: '2024-02-29' },
      { from: '2024-02-28', to: '2024-02-29' },
    )

    await picker.selectOption({ label: 'Nothing' })
    await expectComparison('Nothing', { compare: 'none' }, null)

    await picker.selectOption({ label: 'Previous year' })
    await expectComparison('Previous year', { compare: 'previous_year' }, previousYear)
    await page.getByLabel('Match weekdays').check()
    await page.waitForURL(/[?&]dow=1/)
    expect(urlCounts()).toMatchObject({ compare: 1, dow: 1 })
    await page.getByLabel('Match weekdays').uncheck()
    await expectComparison('Previous year', { compare: 'previous_year' }, previousYear)

    await picker.selectOption({ label: 'Previous period' })
    await expectComparison('Previous period', {}, previousPeriod)

    await picker.selectOption({ label: 'Custom days' })
    await picker.selectOption({ label: 'Previous year' })
    await expectComparison('Previous year', { compare: 'previous_year' }, previousYear)

    // Another period keeps the choice, still once; Back returns to each earlier choice.
    await page.getByLabel('From', { exact: true }).fill('2025-02-28')
    await page.locator('form.custom-range').first().getByRole('button', { name: 'Apply' }).click()
    await page.waitForURL(/[?&]from=2025-02-28/)
    await expectComparison(
      'Previous year',
      { compare: 'previous_year' },
      {
        from: '2024-02-28',
        to: '2024-03-01',
      },
    )
    await page.goBack()
    await expectComparison('Previous year', { compare: 'previous_year' }, previousYear)
    await page.goBack()
    await expectComparison(
      'Custom days',
      { compare: 'custom', compare_from: previousPeriod.from, compare_to: previousPeriod.to },
      previousPeriod,
    )
    await page.goBack()
    await expectComparison('Previous period', {}, previousPeriod)
    await page.screenshot({ path: '/tmp/dashboard-compare-control.png', fullPage: true })
  })

  it('logged no script errors or CSP violations', () => {
    expect(pageErrors).toEqual([])
  })
})
