/**
 * The dashboard's Funnels page end to end: Debian's Chromium (playwright-core) drives the built app
 * served by the real server (SQLite + chDB, on loopback). Data imported with
 * `POST /api/sites/{siteId}/import` on 2026-03-10 (UTC), one session per visitor:
 *
 * | visitor | events (seconds after 10:00:00)           | reaches (/ -> /pricing* -> signup) |
 * |---------|-------------------------------------------|------------------------------------|
 * | a       | / 0, /pricing 10, signup 70               | step 3                             |
 * | b       | /pricing 0, / 5 (out of order)            | step 1                             |
 * | c       | / 0, /pricing/team 40                     | step 2                             |
 * | d       | /about 0                                  | -                                  |
 *
 * Steps: 3, 2 (1 dropped: b), 1 (1 dropped: c). A second site has no data. The dashboard is built
 * first when `dist/` is stale. The saved funnel is then renamed and its steps updated from the builder.
 */
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, openSignedInPage } from '../src/testing/browser.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const NOW = Date.parse('2026-03-20T12:00:00.000Z')
const T0 = Date.parse('2026-03-10T10:00:00.000Z')
const VIEW = 'period=custom&from=2026-03-10&to=2026-03-10&tz=UTC'

let t: TestInstance
let browser: Browser
let page: Page
let base: string
let siteId: number
let emptySiteId: number
let cookie: string
const pageErrors: string[] = []

const line = (user_id: string, seconds: number, event: { path?: string; name?: string }) =>
  JSON.stringify({
    timestamp: new Date(T0 + seconds * 1000).toISOString(),
    hostname: 'shop.example',
    pathname: event.path ?? '/pricing',
    user_id,
    ...(event.name ? { type: 'custom_event', event_name: event.name } : {}),
  })

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
  emptySiteId = (await t.createSite(seeded.cookie, seeded.organizationId, 'empty.example')).siteId
  const lines = [
    line('a', 0, { path: '/' }),
    line('a', 10, { path: '/pricing' }),
    line('a', 70, { name: 'signup' }),
    line('b', 0, { path: '/pricing' }),
    line('b', 5, { path: '/' }),
    line('c', 0, { path: '/' }),
    line('c', 40, { path: '/pricing/team' }),
    line('d', 0, { path: '/about' }),
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

const stepText = async (n: number) =>
  ((await page.getByTestId(`funnel-step-${n}`).textContent()) ?? '').replace(/\s+/g, ' ')
const sessionRows = () => page.locator('[aria-labelledby="funnel-sessions-title"] tbody tr')

describe('the Funnels page in Chromium', () => {
  it('builds a funnel from pages and an event and shows its steps as bars', async () => {
    await page.goto(`/sites/${siteId}?${VIEW}`)
    await page.getByRole('link', { name: 'Funnels' }).click()
    await page.waitForURL(/\/funnels\?/)
    await page.getByText('Choose the steps above and show the funnel.').waitFor()
    await page.getByLabel('Step 1 page').fill('/')
    await page.getByLabel('Step 2 page').fill('/pricing*')
    await page.getByRole('button', { name: 'Add step' }).click()
    await page.getByLabel('Step 3 kind').selectOption('event')
    await page.getByLabel('Step 3 event name').fill('signup')
    await page.getByRole('button', { name: 'Show funnel' }).click()
    await page.waitForURL(/steps=/)
    await page.getByTestId('funnel-step-3').waitFor()
    expect(await stepText(1)).toMatch(/^1\. \/3 sessions100% of the start/)
    expect(await stepText(2)).toMatch(
      /^2\. \/pricing\*2 sessions66.7% of the start · 66.7% of the previous step/,
    )
    expect(await stepText(2)).toContain('1 dropped')
    expect(await stepText(3)).toMatch(/^3\. signup1 session33.3% of the start · 50% of the previous step/)
    const widths = await page
      .locator('.funnel-bar-fill')
      .evaluateAll((bars) => bars.map((bar) => (bar as HTMLElement).style.width))
    expect(widths).toEqual(['100%', '66.6667%', '33.3333%'])
    await page.screenshot({ path: '/tmp/dashboard-funnels.png', fullPage: true })
  })

  it('lists the sessions behind a step and the dropped ones', async () => {
    await page.getByTestId('funnel-step-2').getByRole('link', { name: '2 sessions' }).click()
    await page.waitForURL(/show=2(&|$)/)
    await page.getByRole('heading', { name: 'Sessions that reached step 2' }).waitFor()
    await expect.poll(() => sessionRows().count()).toBe(2)
    await page.getByTestId('funnel-step-2').getByRole('link', { name: '1 dropped' }).click()
    await page.waitForURL(/show=1-dropped/)
    await page.getByRole('heading', { name: 'Sessions that reached step 1 but not step 2' }).waitFor()
    await expect.poll(() => sessionRows().count()).toBe(1)
    // Each row opens its session's timeline.
    await sessionRows().first().getByRole('link').first().click()
    await page.waitForURL(/\/sessions\//)
    await page.goBack()
    await page.getByTestId('funnel-step-3').waitFor()
  })

  it('breaks the funnel down and saves it', async () => {
    await page.getByLabel('Break down by').selectOption('entry_page')
    await page.waitForURL(/by=entry_page/)
    const table = page.getByTestId('funnel-breakdown')
    await table.waitFor()
    // Entry pages: a and c entered on '/' (both reach step 2, a step 3), b on '/pricing'.
    expect(
      await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => (r.textContent ?? '').trim())),
    ).toEqual(['/221 1 dropped50%', '/pricing10 1 dropped00%'])
    // Each figure of a value lists that value's sessions behind it.
    await table.locator('tbody tr').nth(0).getByRole('cell').nth(2).getByRole('link').click()
    await page.waitForURL(/show=2%3A%2F(&|$)/)
    await page.getByRole('heading', { name: 'Sessions with Entry page / that reached step 2' }).waitFor()
    await expect.poll(() => sessionRows().count()).toBe(2)
    await table.locator('tbody tr').nth(1).getByRole('link', { name: '1 dropped' }).click()
    await page.waitForURL(/show=1-dropped%3A%2Fpricing(&|$)/)
    await page
      .getByRole('heading', { name: 'Sessions with Entry page /pricing that reached step 1 but not step 2' })
      .waitFor()
    await expect.poll(() => sessionRows().count()).toBe(1)
    // Before saving, only saving a new funnel is offered.
    expect(await page.getByRole('button', { name: 'Update funnel' }).count()).toBe(0)
    await page.getByLabel('Funnel name').fill('Signup funnel')
    await page.getByRole('button', { name: 'Save funnel' }).click()
    await page.getByRole('button', { name: 'Signup funnel', exact: true }).waitFor()
    // Saved, the funnel is the open one: the builder updates it, and saving anew is not offered.
    await page.getByRole('button', { name: 'Update funnel' }).waitFor()
    await expect.poll(() => page.getByRole('button', { name: 'Save funnel' }).count()).toBe(0)
    expect(await page.getByLabel('Funnel name').count()).toBe(0)
    await page.reload()
    await page.getByRole('button', { name: 'Signup funnel', exact: true }).waitFor()
    // After a reload no saved funnel is open: saving a new one is offered again, updating is not.
    await page.getByRole('button', { name: 'Save funnel' }).waitFor()
    expect(await page.getByRole('button', { name: 'Update funnel' }).count()).toBe(0)
  })

  it("renames the saved funnel and updates its steps, showing the server's messages at the fields", async () => {
    await page.getByRole('button', { name: 'Signup funnel', exact: true }).click()
    await page.getByRole('button', { name: 'Rename Signup funnel' }).click()
    await page.getByLabel('New name').fill('   ')
    await page.getByRole('button', { name: 'Save name' }).click()
    await page.locator('.field-errors', { hasText: 'name must not be empty' }).waitFor()
    expect(await page.getByLabel('New name').getAttribute('aria-invalid')).toBe('true')
    await page.getByLabel('New name').fill('Checkout funnel')
    await page.getByRole('button', { name: 'Save name' }).click()
    await page.getByRole('button', { name: 'Checkout funnel', exact: true }).waitFor()

    await page.getByLabel('Step 2 page').fill('pricing')
    await page.getByRole('button', { name: 'Update funnel' }).click()
    await page.locator('.field-errors', { hasText: "pathPattern must start with '/'" }).waitFor()
    expect(await page.getByLabel('Step 2 page').getAttribute('aria-invalid')).toBe('true')
    await page.getByLabel('Step 2 page').fill('/pricing')
    await page.getByRole('button', { name: 'Update funnel' }).click()
    await page.waitForURL(/steps=[^&]*%22%2Fpricing%22/)
    // Only a reaches /pricing exactly (c saw /pricing/team; b saw it before /).
    await expect.poll(() => stepText(2)).toMatch(/^2\. \/pricing1 session/)
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${siteId}/funnels`,
      headers: { cookie },
    })
    expect(listed.json().data).toMatchObject([
      {
        name: 'Checkout funnel',
        steps: [
          { type: 'path', pathPattern: '/' },
          { type: 'path', pathPattern: '/pricing' },
          { type: 'event', eventName: 'signup' },
        ],
      },
    ])
  })

  it('says so when no session reached the first step', async () => {
    const steps = encodeURIComponent(
      JSON.stringify([
        { type: 'path', pathPattern: '/' },
        { type: 'event', eventName: 'signup' },
      ]),
    )
    await page.goto(`/sites/${emptySiteId}/funnels?${VIEW}&steps=${steps}`)
    await page.getByTestId('funnel-empty').waitFor()
    expect(await stepText(1)).toMatch(/^1\. \/0 sessions0% of the start/)
    // The saved funnels come from their own request, which may answer after the report's.
    await page.getByText('No saved funnels yet.').waitFor()
    expect(pageErrors).toEqual([])
  })
})
