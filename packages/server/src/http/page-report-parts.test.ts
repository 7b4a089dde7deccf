/**
 * The properties, crawlers and heatmap reports (`page-report-parts.ts`) through the real app on
 * SQLite + chDB, on one day of custom events with properties, heatmap clicks and an access log: each
 * registered report answers the same through its dashboard route, through its v1 twin where the
 * registry gives one, and called directly; a bad range is refused when a report is prepared, before
 * anything runs; v1's crawlers, not a twin, answer a page of agents of their own.
 */
import { readFileSync } from 'node:fs'
import { reportRegistry } from '@pathlight/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseParams } from '../query/params.js'
import { AppError } from '../shared/errors.js'
import type { Site } from '../sites/site.js'
import { CHROME_UA } from '../testing/browser.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { pageReportParts } from './page-report-parts.js'
import type { ReportPartDeps } from './report-part.js'

const NOW = Date.parse('2026-03-10T12:00:00.000Z')
const DAY = 'start_date=2026-03-10&end_date=2026-03-10'
/** The access log fixture, moved to the day of the other events. */
const LOG = readFileSync(new URL('../crawlers/access-log.fixture.txt', import.meta.url), 'utf8')
  .replaceAll('01/Mar/2025', '10/Mar/2026')
  .replaceAll('2025-03-01', '2026-03-10')

/** Each report of the group with the query string it is read with here. */
const READS = {
  properties: DAY,
  'property-breakdown': `${DAY}&property=plan`,
  crawlers: DAY,
  heatmap: `${DAY}&page=%2Fpricing`,
} as const satisfies Record<keyof typeof pageReportParts, string>

type GroupReport = keyof typeof READS
/** A prepared report: its answers differ in shape (`{data, meta}`, `{success, data}`). */
type Run = () => Promise<unknown>
const names = Object.keys(READS) as GroupReport[]

/** A group report called directly with its query string parsed by its registered contract. */
const prepare = (deps: ReportPartDeps, siteId: number, name: GroupReport, query: string): Run => {
  const parsed = parseParams(
    reportRegistry[name].endpoint.query,
    Object.fromEntries(new URLSearchParams(query)),
  )
  return (pageReportParts[name] as (d: ReportPartDeps, s: number, q: unknown) => Run)(deps, siteId, parsed)
}

describe('the properties, crawlers and heatmap reports', () => {
  let t: TestInstance
  let owner: Awaited<ReturnType<TestInstance['seed']>>
  let site: Site
  let deps: ReportPartDeps

  const get = async (url: string, headers: Record<string, string>) => {
    const response = await t.app.inject({ method: 'GET', url, headers })
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200)
    return response.json() as unknown
  }

  beforeAll(async () => {
    t = await openTestInstance({ clock: () => NOW })
    owner = await t.seed()
    site = owner.site
    deps = { events: t.services.events, db: t.services.metadata.db, clock: () => NOW }
    const cookie = { cookie: owner.cookie }

    const config = await t.app.inject({
      method: 'PUT',
      url: `/api/sites/${site.siteId}/config`,
      headers: { ...cookie, origin: 'http://localhost' },
      payload: { heatmaps: true },
    })
    expect(config.statusCode, config.body).toBe(200)
    const track = (body: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/track',
        headers: {
          origin: 'https://example.com',
          'user-agent': CHROME_UA,
          'content-type': 'application/json',
        },
        payload: JSON.stringify({ site_id: String(site.siteId), pathname: '/pricing', ...body }),
      })
    expect((await track({})).statusCode).toBe(200)
    for (const [selector, clickX] of [
      ['#buy', 0.5],
      ['#buy', 0.1],
      ['nav > a', 0.9],
    ] as const) {
      const click = await track({
        type: 'heatmap_click',
        selector,
        click_x: clickX,
        click_y: 0.5,
        viewport: 'desktop',
        rage_click: false,
        dead_click: false,
      })
      expect(click.json(), click.body).toEqual({ success: true })
    }

    const lines = [{ plan: 'pro', seats: 3 }, { plan: 'free' }, { plan: 'pro', team: true }].map(
      (properties, i) =>
        JSON.stringify({
          timestamp: `2026-03-10T0${i + 1}:00:00.000Z`,
          hostname: 'example.com',
          pathname: '/app',
          user_id: `u${i}`,
          type: 'custom_event',
          event_name: 'signup',
          properties,
        }),
    )
    const imported = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/import`,
      headers: { ...cookie, 'content-type': 'application/x-ndjson' },
      payload: `${lines.join('\n')}\n`,
    })
    expect(imported.statusCode, imported.body).toBe(200)

    const log = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/logs`,
      headers: { ...cookie, 'content-type': 'text/plain' },
      payload: LOG,
    })
    expect(log.statusCode, log.body).toBe(200)
  }, 120_000)
  afterAll(() => t?.close())

  it('answers the same through the dashboard route, the v1 twin and the report function', async () => {
    for (const name of names) {
      const registration = reportRegistry[name] as { endpoint: { path: string }; v1?: { path: string } }
      const path = (template: string) => `${template.replace(':siteId', String(site.siteId))}?${READS[name]}`
      const dashboard = await get(path(registration.endpoint.path), { cookie: owner.cookie })
      expect(await prepare(deps, site.siteId, name, READS[name])(), name).toEqual(dashboard)
      if (registration.v1)
        expect(
          await get(path(registration.v1.path), { authorization: `Bearer ${owner.apiKey}` }),
          name,
        ).toEqual(dashboard)
    }
  })

  it('answers the figures of the day', async () => {
    const call = (name: GroupReport) => prepare(deps, site.siteId, name, READS[name])()
    expect(((await call('properties')) as { data: unknown }).data).toEqual([
      { key: 'plan', events: 3, visitors: 3 },
      { key: 'seats', events: 1, visitors: 1 },
      { key: 'team', events: 1, visitors: 1 },
    ])
    expect(await call('property-breakdown')).toEqual({
      data: [
        { value: 'pro', events: 2, visitors: 2 },
        { value: 'free', events: 1, visitors: 1 },
      ],
      meta: { total: 2, page: 1, pageSize: 50, totalPages: 1 },
    })
    const heatmap = (await call('heatmap')) as { success: true; data: { elements: { selector: string }[] } }
    expect(heatmap.success).toBe(true)
    expect(heatmap.data.elements.map((element) => element.selector)).toEqual(['#buy', 'nav > a'])
    const crawlers = (await call('crawlers')) as { success: true; data: { agents: { agent: string }[] } }
    expect(crawlers.data.agents.map((row) => row.agent)).toContain('Googlebot')
  })

  it('refuses a bad time zone when a report is prepared, before anything runs, naming the field', () => {
    for (const name of names) {
      const query = `${READS[name]}&time_zone=Mars%2FOlympus`
      let thrown: unknown
      try {
        prepare(deps, site.siteId, name, query)
      } catch (error) {
        thrown = error
      }
      expect(thrown, name).toBeInstanceOf(AppError)
      expect((thrown as AppError).status, name).toBe(400)
      expect(
        Object.keys((thrown as AppError & { details: { fieldErrors: object } }).details.fieldErrors),
        name,
      ).toContain('time_zone')
    }
  })

  it("answers v1's crawlers, which is no twin, with a page of the same agents", async () => {
    expect('v1' in reportRegistry.crawlers).toBe(false)
    const report = (await prepare(deps, site.siteId, 'crawlers', DAY)()) as {
      data: { agents: { agent: string; requests: number }[] }
    }
    const v1 = (await get(`/api/v1/sites/${site.siteId}/crawlers?${DAY}`, {
      authorization: `Bearer ${owner.apiKey}`,
    })) as { data: { agent: string; requests: number }[]; meta: { total: number } }
    expect(v1.data.map(({ agent, requests }) => ({ agent, requests }))).toEqual(
      report.data.agents.map(({ agent, requests }) => ({ agent, requests })),
    )
    expect(v1.meta.total).toBe(report.data.agents.length)
  })
})
