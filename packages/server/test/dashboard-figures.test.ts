/**
 * Figures with one definition wherever the dashboard shows them, end to end: Debian's Chromium
 * (playwright-core) drives the built app served by the real server (SQLite + chDB, on loopback).
 * Pageviews imported with `POST /api/sites/{siteId}/import` on 2026-03-10 (UTC):
 *
 * | visitor | time         | page     | query string                                       |
 * |---------|--------------|----------|----------------------------------------------------|
 * | a       | 09:00:00.000 | /        | utm_source=newsletter&utm_medium=email&utm_campaign=spring |
 * | a       | 09:00:11.600 | /pricing |                                                    |
 * | b       | 09:59:00.000 | /        |                                                    |
 * | b       | 10:00:00.000 | /        |                                                    |
 * | c       | 11:00:00.000 | /docs    |                                                    |
 *
 * A session's UTM tags are its landing page's (as its channel is): the UTM tabs of the sources card
 * add up to the visitors, a's untagged second page not counted under "(none)". a's session lasts
 * 11.6 s: the overview (filtered to it), the sessions list and the session's own page all say 11 s,
 * whole seconds rounded down. b buys (a custom event `purchase`, `plan` pro) at 09:59:30: filtered by
 * it, the overview says that its pageviews count matching pageviews only (0) while pages per session
 * are the buyers' sessions'. The dashboard is built first when `dist/` is stale.
 */
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, openSignedInPage } from '../src/testing/browser.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const NOW = Date.parse('2026-03-12T12:00:00.000Z')
const VIEW = 'period=custom&from=2026-03-10&to=2026-03-10&tz=UTC'
const TAGS = { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'spring' }
const visits = [
  {
    user_id: 'a',
    at: '2026-03-10T09:00:00.000Z',
    pathname: '/',
    querystring: new URLSearchParams(TAGS).toString(),
  },
  { user_id: 'a', at: '2026-03-10T09:00:11.600Z', pathname: '/pricing', querystring: '' },
  { user_id: 'b', at: '2026-03-10T09:59:00.000Z', pathname: '/', querystring: '' },
  { user_id: 'b', at: '2026-03-10T10:00:00.000Z', pathname: '/', querystring: '' },
  { user_id: 'c', at: '2026-03-10T11:00:00.000Z', pathname: '/docs', querystring: '' },
]

/** Custom events: b buys the pro plan during a session of two pageviews. */
const purchases = [
  {
    user_id: 'b',
    at: '2026-03-10T09:59:30.000Z',
    pathname: '/',
    event_name: 'purchase',
    properties: { plan: 'pro' },
  },
]

let t: TestInstance
let browser: Browser
let page: Page
let base: string
let siteId: number
const pageErrors: string[] = []

/** The sources card. */
const sources = () =>
  page.locator('section.report-card', { has: page.getByRole('heading', { name: 'Sources' }) })

/** The rows of the sources card's open tab once loaded, as [label, visitors]. */
async function sourceRows(): Promise<[string, number][]> {
  await sources().locator('.bar-row').first().waitFor()
  await page.waitForFunction(() =>
    [...document.querySelectorAll('section.report-card')].every(
      (card) => card.getAttribute('aria-busy') !== 'true',
    ),
  )
  return sources()
    .locator('.bar-row')
    .evaluateAll((rows) =>
      rows.map((row): [string, number] => [
        row.querySelector('.bar-label')?.textContent ?? '',
        Number.parseInt(row.querySelector('.bar-count')?.textContent ?? '', 10),
      ]),
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
  const imported = await t.app.inject({
    method: 'POST',
    url: `/api/sites/${siteId}/import`,
    headers: { cookie: seeded.cookie, 'content-type': 'application/x-ndjson' },
    payload: [
      ...visits.map(({ at, ...visit }) => ({ timestamp: at, hostname: 'shop.example', ...visit })),
      ...purchases.map(({ at, ...event }) => ({
        timestamp: at,
        hostname: 'shop.example',
        type: 'custom_event',
        ...event,
        properties: JSON.stringify(event.properties),
      })),
    ]
      .map((line) => JSON.stringify(line))
      .join('\n'),
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

describe('figures with one definition in Chromium', () => {
  it('counts each visitor once in the UTM tabs, under the landing page’s tags', async () => {
    const visitors = new Set(visits.map((v) => v.user_id)).size
    // Each visitor's landing page is its first pageview; count its tags.
    const landing = new Map<string, URLSearchParams>()
    for (const visit of visits) {
      if (!landing.has(visit.user_id)) landing.set(visit.user_id, new URLSearchParams(visit.querystring))
    }
    await page.goto(`/sites/${siteId}?${VIEW}`)
    for (const [tab, name] of [
      ['Source', 'utm_source'],
      ['Medium', 'utm_medium'],
      ['Campaign', 'utm_campaign'],
    ] as const) {
      await sources().getByRole('button', { name: tab, exact: true }).click()
      const expected = new Map<string, number>()
      for (const tags of landing.values()) {
        const value = tags.get(name) || '(none)'
        expected.set(value, (expected.get(value) ?? 0) + 1)
      }
      const rows = await sourceRows()
      expect(new Map(rows), tab).toEqual(expected)
      expect(rows.reduce((n, [, count]) => n + count, 0)).toBe(visitors)
    }
  })

  it('shows the same session duration on the overview, the sessions list and the session’s page', async () => {
    const [first, last] = visits.filter((v) => v.user_id === 'a')
    const seconds = Math.floor((Date.parse(last?.at ?? '') - Date.parse(first?.at ?? '')) / 1000)
    expect(seconds).toBe(11)
    const shown = `${seconds}s`

    const filters = encodeURIComponent(
      JSON.stringify([{ parameter: 'utm_source', type: 'equals', value: [TAGS.utm_source] }]),
    )
    await page.goto(`/sites/${siteId}?${VIEW}&filters=${filters}`)
    await page.waitForFunction(
      () =>
        document.querySelector('.kpis')?.getAttribute('aria-busy') === 'false' &&
        document.querySelector('[data-kpi="sessions"] .kpi-value')?.textContent === '1',
    )
    expect(await page.locator('[data-kpi="session_duration"] .kpi-value').textContent()).toBe(shown)

    await page.goto(`/sites/${siteId}/sessions?${VIEW}`)
    const row = page.locator('.report-table tbody tr', { hasText: '/pricing' })
    await row.waitFor()
    expect(await row.locator('td').nth(3).textContent()).toBe(shown)

    await row.getByRole('link').first().click()
    await page.getByRole('heading', { name: /^Session of/ }).waitFor()
    const duration = page.locator('.session-facts dt', { hasText: 'Duration' }).locator('+ dd')
    expect(await duration.textContent()).toBe(shown)
    await page.screenshot({ path: '/tmp/dashboard-figures-session.png', fullPage: true })
  })

  it('says what a custom event filter selects, so its figures do not read as contradictions', async () => {
    const filters = [
      { parameter: 'event_name', type: 'equals', value: ['purchase'] },
      { parameter: 'properties.plan', type: 'equals', value: ['pro'] },
    ]
    // The buyers' sessions and their pageviews, counted from what was imported (b's visits of the day
    // are one session: 09:59 and 10:00).
    const buyers = new Set(purchases.map((p) => p.user_id))
    const sessionPageviews = visits.filter((v) => buyers.has(v.user_id)).length
    expect([buyers.size, sessionPageviews]).toEqual([1, 2])

    await page.goto(`/sites/${siteId}?${VIEW}&filters=${encodeURIComponent(JSON.stringify(filters))}`)
    await page.waitForFunction(
      (n) =>
        document.querySelector('.kpis')?.getAttribute('aria-busy') === 'false' &&
        document.querySelector('[data-kpi="visitors"] .kpi-value')?.textContent === n,
      String(buyers.size),
    )
    const kpi = (key: string) => page.locator(`[data-kpi="${key}"] .kpi-value`).textContent()
    expect(await kpi('pageviews')).toBe('0')
    expect(await kpi('pages_per_session')).toBe(String(sessionPageviews / buyers.size))
    const note = page.getByTestId('custom-event-filter-note')
    expect(await note.textContent()).toContain('select custom events, which are not pageviews')
    const pages = page.locator('section.report-card', { has: page.getByRole('heading', { name: 'Pages' }) })
    await pages.locator('.empty-rows').waitFor()
    expect(await pages.locator('.empty-rows').textContent()).toBe(
      'No pageviews pass these filters: they select custom events.',
    )
    await page.screenshot({ path: '/tmp/dashboard-figures-event-filter.png', fullPage: true })

    // A page filter shows no such note.
    const byPage = encodeURIComponent(
      JSON.stringify([{ parameter: 'pathname', type: 'equals', value: ['/'] }]),
    )
    await page.goto(`/sites/${siteId}?${VIEW}&filters=${byPage}`)
    await page.waitForFunction(() => document.querySelector('.kpis')?.getAttribute('aria-busy') === 'false')
    expect(await note.count()).toBe(0)
  })

  it('logged no script errors or CSP violations', () => {
    expect(pageErrors).toEqual([])
  })
})
