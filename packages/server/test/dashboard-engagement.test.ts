/**
 * The overview's Engagement card in Chromium (the built dashboard served by the real server, SQLite +
 * chDB): pageviews and engagement events imported for three pages; the card lists the two pages with
 * engagement, each with its engaged time per pageview, the median of its visitors' deepest scroll and
 * the share of them reading 75 %, as counted here from the imported lines; the page without
 * engagement is not listed. Above them the site-wide engaged time per visit; and a scroll-depth goal
 * made in the goal form counts the visits that read that far. The dashboard is built first when `dist/` is stale.
 */
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, openSignedInPage } from '../src/testing/browser.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const NOW = Date.parse('2026-03-12T12:00:00.000Z')
const VIEW = 'period=custom&from=2026-03-10&to=2026-03-10&tz=UTC'

/** [visitor, time, page, type, deepest scroll %, engaged ms]. */
const lines: [string, string, string, 'pageview' | 'engagement', number, number][] = [
  ['a', '09:00:00', '/guide', 'pageview', 0, 0],
  ['a', '09:00:40', '/guide', 'engagement', 50, 30_000],
  ['a', '09:01:20', '/guide', 'engagement', 80, 12_000],
  ['b', '10:00:00', '/guide', 'pageview', 0, 0],
  ['b', '10:00:20', '/guide', 'engagement', 40, 18_000],
  ['b', '10:01:00', '/short', 'pageview', 0, 0],
  ['b', '10:01:09', '/short', 'engagement', 100, 9000],
  ['c', '11:00:00', '/none', 'pageview', 0, 0],
]

/** The card's figures for `pathname`, counted from `lines`: engaged s per pageview, median, share. */
function expected(pathname: string) {
  const mine = lines.filter((line) => line[2] === pathname)
  const pageviews = mine.filter((line) => line[3] === 'pageview').length
  const deepest = new Map<string, number>()
  let ms = 0
  for (const [visitor, , , type, depth, time] of mine) {
    if (type !== 'engagement') continue
    deepest.set(visitor, Math.max(deepest.get(visitor) ?? 0, depth))
    ms += time
  }
  const depths = [...deepest.values()].sort((x, y) => x - y)
  const median =
    ((depths[Math.floor((depths.length - 1) / 2)] ?? 0) + (depths[Math.ceil((depths.length - 1) / 2)] ?? 0)) /
    2
  return {
    seconds: ms / 1000 / pageviews,
    median,
    read75: depths.filter((d) => d >= 75).length / depths.length,
  }
}

let t: TestInstance
let browser: Browser
let page: Page
let siteId: number
const pageErrors: string[] = []

beforeAll(async () => {
  const [build] = await Promise.all([
    ensureDashboardBuilt(),
    (async () => {
      t = await openTestInstance({ clock: () => NOW })
    })(),
  ])
  if (build.built) console.info(`built the dashboard in ${build.ms} ms`)
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' })
  const seeded = await t.seed()
  siteId = seeded.site.siteId
  const imported = await t.app.inject({
    method: 'POST',
    url: `/api/sites/${siteId}/import`,
    headers: { cookie: seeded.cookie, 'content-type': 'application/x-ndjson' },
    payload: lines
      .map(([user_id, time, pathname, type, scroll_depth, engagement_time]) =>
        JSON.stringify({
          timestamp: `2026-03-10T${time}.000Z`,
          hostname: 'shop.example',
          user_id,
          pathname,
          type,
          ...(type === 'engagement' ? { scroll_depth, engagement_time } : {}),
        }),
      )
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
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await t?.close()
})

describe('the Engagement card in Chromium', () => {
  it('shows engaged time per pageview, median scroll depth and the share reading 75 % per page', async () => {
    await page.goto(`/sites/${siteId}?${VIEW}`)
    const card = page.locator('section.report-card', {
      has: page.getByRole('heading', { name: 'Engagement' }),
    })
    // The first load after a build is slow on a loaded machine.
    await card.locator('tbody tr').first().waitFor({ timeout: 30_000 })
    const rows = await card
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')))
    const { formatPercent, formatSeconds } = await import('../../dashboard/src/lib/report-format.js')
    const want = (pathname: string) => {
      const figures = expected(pathname)
      return [
        pathname,
        formatSeconds(figures.seconds),
        `${Math.round(figures.median)} %`,
        formatPercent(figures.read75),
        'Heatmap',
      ]
    }
    // By pageviews (both 2 and 1), /none left out: it has no engagement.
    expect(rows).toEqual([want('/guide'), want('/short')])

    // A row's Heatmap action opens the site's page from a signed viewing link in a new tab.
    const context = page.context()
    const domain = (
      await t.services.metadata.db
        .selectFrom('site')
        .select('domain')
        .where('site_id', '=', siteId)
        .executeTakeFirstOrThrow()
    ).domain
    await context.route(`https://${domain}/**`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>The site</title>' }),
    )
    const opened = context.waitForEvent('page')
    await card.getByRole('button', { name: 'Heatmap of /guide' }).click()
    const tab = await opened
    await tab.waitForURL(/#pathlight-heatmap=/)
    const url = new URL(tab.url())
    expect(url.origin + url.pathname).toBe(`https://${domain}/guide`)
    const token = url.hash.replace('#pathlight-heatmap=', '')
    const view = await t.app.inject({ url: `/api/heatmap-view?token=${token}` })
    expect(view.statusCode, view.body).toBe(200)
    expect(view.json().data).toMatchObject({ page: '/guide' })
    await tab.close()
    expect(pageErrors).toEqual([])
  })

  it('shows the site-wide engaged time per visit above the pages', async () => {
    // Each visitor's lines are minutes apart: one visit each; c sent no engagement.
    const engaged = lines.filter((line) => line[3] === 'engagement')
    const visits = new Set(engaged.map((line) => line[0])).size
    const seconds = engaged.reduce((sum, line) => sum + line[5], 0) / 1000
    const { formatSeconds } = await import('../../dashboard/src/lib/report-format.js')
    const figure = page.locator('.engagement-per-visit')
    await figure.waitFor({ timeout: 30_000 })
    expect(await figure.textContent()).toBe(`${formatSeconds(seconds / visits)} engaged time per visit`)
    expect(await figure.getAttribute('data-engaged-visits')).toBe(String(visits))
  })

  it('creates a scroll-depth goal in the goal form and counts the visits that read that far', async () => {
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Goals' }).click()
    await page.getByLabel('Goal name').fill('Read the guide')
    await page.getByRole('radio', { name: 'Scrolling a page' }).check()
    await page.getByLabel('Page path').fill('/guide')
    await page.getByLabel('Scroll depth (%)').fill('75')
    await page.getByRole('button', { name: 'Create goal' }).click()
    const row = page.locator('tr[data-goal="Read the guide"]')
    await row.waitFor({ timeout: 30_000 })
    expect(await row.getByText('Scroll 75 % of /guide').count()).toBe(1)
    // Visits with an engagement event of /guide at 75 % or more, of all visits of the day.
    const converted = new Set(
      lines.filter((l) => l[2] === '/guide' && l[3] === 'engagement' && l[4] >= 75).map((l) => l[0]),
    )
    const all = new Set(lines.map((l) => l[0]))
    const { formatPercent } = await import('../../dashboard/src/lib/report-format.js')
    expect(await row.locator('td.num').allTextContents()).toEqual([
      String(converted.size),
      formatPercent(converted.size / all.size),
    ])
    expect(pageErrors).toEqual([])
  })
})
