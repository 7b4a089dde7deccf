/**
 * The Users page end to end: Debian's Chromium (playwright-core) drives the built app served by the
 * real server (SQLite + chDB, on loopback). Two visitors (told apart by their user agents) are
 * identified through the real `POST /api/identify` over HTTP, then browse keyless, so their events
 * carry their user ids; alice's session has a replay recording; a third visitor stays anonymous.
 *
 * | visitor   | identify traits                          | events                                   |
 * |-----------|------------------------------------------|------------------------------------------|
 * | alice     | plan pro, company Acme; later plan team  | pageview /, /pricing, custom signup; replay |
 * | bob       | plan free                                | pageview /                               |
 * | anonymous | (none)                                   | pageview /, /about                       |
 *
 * The owner opens the Users tab (two users, the anonymous visitor absent), searches a trait value and
 * an id, sorts by pageviews both ways, opens alice (traits with their values, figures, the timeline
 * of her session and its events, the replay link) and follows the session link to the session page.
 * Expected figures come from the list of what was sent, not from the server. A site without users
 * shows the empty state that names `identify`. The dashboard is built first when `dist/` is stale.
 */
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../src/sites/site.js'
import { launchChromium, openSignedInPage } from '../src/testing/browser.js'
import { DESKTOP_CHROME_UA, openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:124.0) Gecko/20100101 Firefox/124.0'
const SAFARI_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'

interface Sent {
  user: string | null
  type: 'pageview' | 'custom_event'
  pathname: string
}

/** What the test sends, in order: the independent count reads this. */
const sent: Sent[] = []
const agents: Record<string, string> = { alice: DESKTOP_CHROME_UA, bob: FIREFOX_LINUX, anonymous: SAFARI_MAC }

let t: TestInstance
let browser: Browser
let page: Page
let base: string
let site: Site
let cookie: string
let organizationId: string
const pageErrors: string[] = []

/** POST `path` keyless over loopback, as the visitor `who`'s browser on the site would. */
async function post(path: string, who: string, body: Record<string, unknown>) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: `https://${site.domain}`,
      'user-agent': agents[who] ?? '',
    },
    body: JSON.stringify({ site_id: String(site.siteId), ...body }),
  })
  expect(response.status, await response.text()).toBe(200)
}

async function track(who: string, type: Sent['type'], pathname: string) {
  await post('/api/track', who, {
    type,
    hostname: site.domain,
    pathname,
    ...(type === 'custom_event' ? { event_name: 'signup' } : {}),
  })
  sent.push({ user: who === 'anonymous' ? null : who, type, pathname })
}

/** The independent figures of `user` from `sent`. */
function expectedOf(user: string) {
  const mine = sent.filter((event) => event.user === user)
  return { events: mine.length, pageviews: mine.filter((event) => event.type === 'pageview').length }
}

/** The user ids of the Users table, top to bottom. */
const listedUsers = (p: Page) =>
  p
    .locator('table[aria-label="Users"] tbody tr')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-user')))

beforeAll(async () => {
  const [build] = await Promise.all([
    ensureDashboardBuilt(),
    (async () => {
      t = await openTestInstance()
      base = await t.app.listen({ port: 0, host: '127.0.0.1' })
    })(),
  ])
  if (build.built) console.info(`built the dashboard in ${build.ms} ms`)
  const seeded = await t.seed()
  ;({ site, cookie, organizationId } = seeded)
  const configured = await t.app.inject({
    method: 'PUT',
    url: `/api/sites/${site.siteId}/config`,
    headers: { cookie },
    payload: { sessionReplay: true },
  })
  expect(configured.statusCode, configured.body).toBe(200)

  await post('/api/identify', 'alice', { user_id: 'alice', traits: { plan: 'pro', company: 'Acme' } })
  await track('alice', 'pageview', '/')
  await track('alice', 'pageview', '/pricing')
  await track('alice', 'custom_event', '/pricing')
  const start = Date.now()
  await post('/api/replay', 'alice', {
    sequence: 0,
    events: [
      { type: 4, timestamp: start, data: { href: `https://${site.domain}/`, width: 1280, height: 800 } },
      { type: 3, timestamp: start + 500, data: { source: 1, positions: [] } },
    ],
  })
  await post('/api/identify', 'bob', { user_id: 'bob', traits: { plan: 'free' } })
  await track('bob', 'pageview', '/')
  await track('anonymous', 'pageview', '/')
  await track('anonymous', 'pageview', '/about')
  // A later identify changes one trait and keeps the other.
  await post('/api/identify', 'alice', { user_id: 'alice', traits: { plan: 'team' }, is_new_identify: false })
  await t.services.buffer.flush()

  browser = await launchChromium()
  ;({ page } = await openSignedInPage(browser, { baseURL: base, cookie, errors: pageErrors, label: 'owner' }))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await t?.close()
})

describe('the Users page in Chromium', () => {
  it('lists the identified users only, with their figures', async () => {
    await page.goto(`/sites/${site.siteId}`)
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Users' }).click()
    await page.getByRole('heading', { name: 'Users (2)' }).waitFor()
    expect(new URL(page.url()).pathname).toBe(`/sites/${site.siteId}/users`)
    expect((await listedUsers(page)).sort()).toEqual(['alice', 'bob'])
    for (const user of ['alice', 'bob']) {
      const cells = await page
        .locator(`tr[data-user="${user}"] td.num`)
        .evaluateAll((tds) => tds.map((td) => td.textContent))
      const expected = expectedOf(user)
      expect(cells, user).toEqual(['1', String(expected.pageviews), String(expected.events)])
    }
    expect(await page.locator('tr[data-user="alice"]').textContent()).toContain('plan: team')
  })

  it('searches a trait value and an id', async () => {
    const search = page.getByRole('form', { name: 'Search users' })
    await search.getByRole('searchbox').fill('acme')
    await search.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('heading', { name: 'Users (1)' }).waitFor()
    expect(await listedUsers(page)).toEqual(['alice'])
    expect(new URL(page.url()).searchParams.get('search')).toBe('acme')
    await search.getByRole('searchbox').fill('bob')
    await search.getByRole('button', { name: 'Search' }).click()
    await page.waitForURL(/search=bob/)
    await page.locator('tr[data-user="bob"]').waitFor()
    expect(await listedUsers(page)).toEqual(['bob'])
    await search.getByRole('searchbox').fill('nobody-here')
    await search.getByRole('button', { name: 'Search' }).click()
    await page.getByText('No users match “nobody-here”.').waitFor()
    await search.getByRole('searchbox').fill('')
    await search.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('heading', { name: 'Users (2)' }).waitFor()
  })

  it('sorts by pageviews, both ways', async () => {
    const byPageviews = ['alice', 'bob'].sort((a, b) => expectedOf(b).pageviews - expectedOf(a).pageviews)
    await page.getByLabel('Sort by').selectOption('pageviews')
    await page.waitForURL(/sort=pageviews/)
    await page.waitForFunction(
      (first) =>
        document.querySelector('table[aria-label="Users"] tbody tr')?.getAttribute('data-user') === first,
      byPageviews[0],
    )
    expect(await listedUsers(page)).toEqual(byPageviews)
    await page.getByLabel('Order').selectOption('asc')
    await page.waitForURL(/order=asc/)
    await page.waitForFunction(
      (first) =>
        document.querySelector('table[aria-label="Users"] tbody tr')?.getAttribute('data-user') === first,
      byPageviews[1],
    )
    expect(await listedUsers(page)).toEqual([...byPageviews].reverse())
    // The sort survives a reload: it lives in the URL.
    await page.reload()
    await page.locator('tr[data-user="bob"]').waitFor()
    expect(await listedUsers(page)).toEqual([...byPageviews].reverse())
  })

  it('opens a user: traits, figures and the timeline of their session, with the replay link', async () => {
    await page.getByRole('link', { name: 'alice', exact: true }).click()
    await page.getByRole('heading', { name: 'User alice' }).waitFor()
    expect(new URL(page.url()).pathname).toBe(`/sites/${site.siteId}/users/alice`)
    const traits = await page
      .locator('table[aria-label="Traits"] tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => [row.querySelector('th')?.textContent, row.querySelector('td')?.textContent]),
      )
    expect(traits).toEqual([
      ['company', 'Acme'],
      ['plan', 'team'],
    ])
    const expected = expectedOf('alice')
    expect(await page.locator('[data-figure="sessions"]').textContent()).toBe('1')
    expect(await page.locator('[data-figure="pageviews"]').textContent()).toBe(String(expected.pageviews))
    expect(await page.locator('[data-figure="events"]').textContent()).toBe(String(expected.events))
    expect(await page.locator('.user-sessions > li').count()).toBe(1)
    const events = await page
      .locator('.user-sessions .timeline-what')
      .evaluateAll((items) => items.map((item) => item.textContent))
    // Newest first: the reverse of what alice sent.
    const mine = sent.filter((event) => event.user === 'alice').reverse()
    expect(events).toEqual(
      mine.map((event) => (event.type === 'custom_event' ? `signup on ${event.pathname}` : event.pathname)),
    )
    expect(await page.getByRole('link', { name: /^Watch the replay of the session of/ }).count()).toBe(1)
  })

  it('follows the session link to the session page', async () => {
    await page.getByRole('link', { name: /^Session of/ }).click()
    await page.getByRole('heading', { name: `Events (${expectedOf('alice').events})` }).waitFor()
    expect(new URL(page.url()).pathname).toMatch(new RegExp(`^/sites/${site.siteId}/sessions/`))
    expect(await page.locator('.session-facts code').textContent()).toBe('alice')
  })

  it('shows the empty state, naming identify, on a site without users', async () => {
    const empty = await t.createSite(cookie, organizationId, 'empty.example')
    await page.goto(`/sites/${empty.siteId}/users`)
    const notice = page.getByTestId('users-empty')
    await notice.waitFor()
    expect(await notice.textContent()).toContain('identify')
    expect(await page.getByRole('heading', { name: 'Users (0)' }).count()).toBe(1)
  })

  it('logged no script errors or CSP violations', () => {
    expect(pageErrors).toEqual([])
  })
})
