/**
 * The Crawlers tab in Debian's Chromium (playwright-core) against the real server (SQLite + chDB,
 * loopback), after the real access log of secrepo.com for 2022-12-22 went in over
 * `POST /api/sites/{siteId}/logs`: for the agents the log names by token, the page's requests,
 * category, verified or claimed, most crawled pages and status codes equal a count over the file in
 * plain code (substring search for the token, the path and status split out of the line, the
 * published IPv4 ranges matched by hand). Then the Alerts form sets the two crawler alerts and lists
 * them in words. The dashboard is built first when `dist/` is stale.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../src/sites/site.js'
import { launchChromium, openSignedInPage } from '../src/testing/browser.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const LOG = readFileSync(path.resolve(here, '../test-data/access-logs/secrepo-access-2022-12-22.txt'), 'utf8')
const LINES = LOG.split('\n').filter((line) => line.trim() !== '')
const RANGES = JSON.parse(
  readFileSync(path.resolve(here, '../src/crawlers/crawler-ranges.json'), 'utf8'),
) as {
  agents: Record<string, { prefixes: string[] }>
}
/** The log's lines run from 22 Dec 2022 00:00 to 23:59 at -0800: both UTC days. */
const VIEW = 'period=custom&from=2022-12-22&to=2022-12-23&tz=UTC'

/** Agents of the log, the token their user agent carries and the category their operator documents. */
const AGENTS = [
  ['bingbot', 'bingbot', 'Search engine'],
  ['PetalBot', 'PetalBot', 'Search engine'],
  ['SemrushBot', 'SemrushBot', 'SEO tool'],
  ['AhrefsBot', 'AhrefsBot', 'SEO tool'],
  ['Googlebot', 'Googlebot', 'Search engine'],
  ['YandexBot', 'YandexBot', 'Search engine'],
] as const

/** The lines whose user agent (the last quoted field) holds `token`. */
const linesOf = (token: string) => LINES.filter((line) => lastQuoted(line).includes(token))
const lastQuoted = (line: string) => {
  const end = line.lastIndexOf('"')
  return line.slice(line.lastIndexOf('"', end - 1) + 1, end)
}
/** `"GET /a?b HTTP/1.1" 200 512`: the path without the query, the status. */
const requestOf = (line: string) => {
  const [, request = '', after = ''] = line.split('"')
  const target = request.split(' ')[1] ?? ''
  return { path: target.split('?')[0] ?? '', status: after.trim().split(' ')[0] ?? '' }
}
const ipv4 = (text: string) => text.split('.').reduce((n, part) => n * 256 + Number(part), 0)
/** Whether the line's address is in one of `agent`'s published IPv4 prefixes. */
const inRanges = (agent: string, line: string) => {
  const ip = line.split(' ')[0] ?? ''
  return (RANGES.agents[agent]?.prefixes ?? [])
    .filter((prefix) => !prefix.includes(':'))
    .some((prefix) => {
      const [network = '', bits = '32'] = prefix.split('/')
      const size = 2 ** (32 - Number(bits))
      return Math.floor(ipv4(ip) / size) === Math.floor(ipv4(network) / size)
    })
}
const tally = (values: string[]) => {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return counts
}

let t: TestInstance
let browser: Browser
let page: Page
let site: Site
const pageErrors: string[] = []

beforeAll(async () => {
  const [build] = await Promise.all([
    ensureDashboardBuilt(),
    (async () => {
      t = await openTestInstance({ workers: false })
    })(),
  ])
  if (build.built) console.info(`built the dashboard in ${build.ms} ms`)
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' })
  const seeded = await t.seed()
  site = seeded.site
  const ingested = await t.app.inject({
    method: 'POST',
    url: `/api/sites/${site.siteId}/logs`,
    headers: { cookie: seeded.cookie, 'content-type': 'text/plain' },
    payload: LOG,
  })
  expect(ingested.statusCode, ingested.body).toBe(200)
  expect(ingested.json().rejectedCount).toBe(0)
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

/** The cells of each body row of the table labelled `name`. */
const rowsOf = async (name: string) => {
  const table = page.getByRole('table', { name })
  await table.locator('tbody tr').first().waitFor()
  return table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent?.trim() ?? '')),
    )
}
const number = (text: string) => Number(text.replace(/,/g, ''))

describe('the Crawlers tab', () => {
  it('shows the agents, categories, verification, pages and statuses the log file holds', async () => {
    await page.goto(`/sites/${site.siteId}/crawlers?${VIEW}`)
    const agents = await rowsOf('Agents')
    const pages = await rowsOf('Pages most crawled per agent')
    const statuses = await rowsOf('Status codes and bytes per agent')
    await page.screenshot({ path: '/tmp/crawlers-browser.png', fullPage: true })

    for (const [agent, token, category] of AGENTS) {
      const lines = linesOf(token)
      expect(lines.length, agent).toBeGreaterThan(0)
      const row = agents.find((cells) => cells[0] === agent)
      expect(row, agent).toBeDefined()
      const [, , shownCategory = '', verified = '', requests = ''] = row ?? []
      expect(number(requests), agent).toBe(lines.length)
      expect(shownCategory, agent).toBe(category)
      const inside = lines.filter((line) => inRanges(agent, line)).length
      expect(verified, agent).toBe(
        inside === lines.length && inside > 0 ? 'Verified' : inside > 0 ? `Partly (${inside})` : 'Claimed',
      )

      // Most crawled pages: each row's count is the file's; the first is the agent's most requested.
      const byPath = tally(lines.map((line) => requestOf(line).path))
      const shownPages = pages.filter((cells) => cells[0] === agent)
      expect(shownPages.length, agent).toBe(Math.min(10, byPath.size))
      for (const [, pathname = '', count = ''] of shownPages)
        expect(number(count), `${agent} ${pathname}`).toBe(byPath.get(pathname))
      expect(number(shownPages[0]?.[2] ?? ''), agent).toBe(Math.max(...byPath.values()))

      // Statuses: every status of the agent, with its count.
      const byStatus = tally(lines.map((line) => requestOf(line).status))
      const shownStatuses = statuses.filter((cells) => cells[0] === agent)
      expect(
        new Map(shownStatuses.map(([, status = '', count = '']) => [status, number(count)])),
        agent,
      ).toEqual(byStatus)
    }
    expect(pageErrors).toEqual([])
  })

  it('sets a crawler alert in the Alerts form and lists it in words', async () => {
    await page.goto(`/sites/${site.siteId}/alerts`)
    const form = page.getByRole('region', { name: 'Add an alert rule' })
    await form.getByLabel('Name').fill('New AI crawler')
    await form.getByLabel('Metric').selectOption('crawler_new_agents')
    await form.getByLabel('Crawler category').selectOption('ai')
    expect(await form.getByLabel('New crawlers (at least)').inputValue()).toBe('1')
    await form.getByRole('button', { name: 'Create rule' }).click()
    await page.getByText('At least 1 new crawler (AI crawlers and agents)').waitFor()

    await form.getByLabel('Name').fill('Bing doubled')
    await form.getByLabel('Metric').selectOption('crawler_requests')
    await form.getByLabel('Agent (optional)').fill('bingbot')
    await form.getByLabel('Threshold').fill('100')
    await form.getByLabel('Compare with the previous window').check()
    await form.getByRole('button', { name: 'Create rule' }).click()
    await page.getByText('Crawler requests of bingbot change at least 100% vs. the previous 1 hour').waitFor()

    const rules = await t.services.alerts.rules.list(site.siteId)
    expect(
      rules.map((r) => [r.name, r.metric, r.crawlerCategory, r.crawlerAgent, r.threshold, r.relative]),
    ).toEqual([
      ['New AI crawler', 'crawler_new_agents', 'ai', null, 1, false],
      ['Bing doubled', 'crawler_requests', null, 'bingbot', 100, true],
    ])
    expect(pageErrors).toEqual([])
  })
})
