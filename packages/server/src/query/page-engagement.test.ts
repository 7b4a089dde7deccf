/**
 * Engagement figures of the pages report over imported engagement events (the import route, real
 * SQLite + chDB), checked against an independent count in plain code over the generated lines, one
 * day in four time zones: per path the median and the 25/50/75/100 % shares of visitors' deepest
 * scroll, engaged seconds per pageview and per visitor (the last page of each visit carries figures
 * too), site-wide engaged time per visit. The same visits imported without their engagement events
 * into a second site give the same pageviews, visitors, sessions and bounce rate: engagement events
 * are not pageviews and open no sessions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { queryOverview } from './overview.js'
import { queryEngagementSummary } from './page-engagement.js'
import { queryPageStats } from './page-stats.js'
import { parseQueryParams } from './params.js'

const NOW = Date.parse('2026-06-01T12:00:00.000Z')
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const PAGES = ['/', '/pricing', '/blog/long-read', '/docs']
const ZONES = ['UTC', 'America/New_York', 'Asia/Tokyo', 'Asia/Kolkata']
const DAY = '2026-05-10'

/** mulberry32: the same lines on every run. */
function random(seed: number) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface Line {
  timestamp: string
  type: 'pageview' | 'engagement'
  pathname: string
  user_id: string
  scroll_depth?: number
  engagement_time?: number
}

/**
 * Visits over 2026-05-08 .. 05-12 UTC: 1-4 pageviews a minute or two apart, each followed by 1-2
 * engagement events (hidden and shown again, then left) with a depth that only grows.
 */
function generate(): Line[] {
  const next = random(7)
  const lines: Line[] = []
  const start = Date.parse('2026-05-08T00:00:00.000Z')
  for (let visit = 0; visit < 160; visit++) {
    const visitor = `v${Math.floor(next() * 40)}`
    let at = start + Math.floor(next() * 4 * 86_400_000)
    const pages = 1 + Math.floor(next() * 4)
    for (let i = 0; i < pages; i++) {
      const pathname = PAGES[Math.floor(next() * PAGES.length)] as string
      lines.push({ timestamp: new Date(at).toISOString(), type: 'pageview', pathname, user_id: visitor })
      let depth = Math.floor(next() * 60)
      for (let e = 0, n = 1 + Math.floor(next() * 2); e < n; e++) {
        at += 5000 + Math.floor(next() * 40_000)
        depth = Math.min(100, depth + Math.floor(next() * 60))
        const engagement_time = 1000 + Math.floor(next() * 30_000)
        lines.push({
          timestamp: new Date(at).toISOString(),
          type: 'engagement',
          pathname,
          user_id: visitor,
          scroll_depth: depth,
          engagement_time,
        })
      }
      at += 20_000 + Math.floor(next() * 60_000)
    }
  }
  return lines
}

const localDate = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(iso),
  )

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = (sorted.length - 1) / 2
  return ((sorted[Math.floor(middle)] as number) + (sorted[Math.ceil(middle)] as number)) / 2
}

/** The figures of `lines` on `DAY` in `timeZone`, counted in plain code. */
function expectedFigures(lines: Line[], timeZone: string) {
  const day = lines.filter((line) => localDate(line.timestamp, timeZone) === DAY)
  const pages = new Map<string, { pageviews: number; visitors: Map<string, { depth: number; ms: number }> }>()
  for (const line of day) {
    const page = pages.get(line.pathname) ?? { pageviews: 0, visitors: new Map() }
    pages.set(line.pathname, page)
    if (line.type === 'pageview') {
      page.pageviews++
      continue
    }
    const visitor = page.visitors.get(line.user_id) ?? { depth: 0, ms: 0 }
    visitor.depth = Math.max(visitor.depth, line.scroll_depth ?? 0)
    visitor.ms += line.engagement_time ?? 0
    page.visitors.set(line.user_id, visitor)
  }
  const byPath = new Map<string, Record<string, number | null>>()
  for (const [pathname, page] of pages) {
    const visitors = [...page.visitors.values()]
    if (page.pageviews === 0) continue
    const share = (at: number) =>
      visitors.length === 0 ? null : visitors.filter((v) => v.depth >= at).length / visitors.length
    const seconds = visitors.reduce((sum, v) => sum + v.ms, 0) / 1000
    byPath.set(pathname, {
      pageviews: page.pageviews,
      scroll_depth: visitors.length === 0 ? null : median(visitors.map((v) => v.depth)),
      scroll_25: share(25),
      scroll_50: share(50),
      scroll_75: share(75),
      scroll_100: share(100),
      engaged_time: visitors.length === 0 ? null : seconds / page.pageviews,
      engaged_time_on_page: visitors.length === 0 ? null : seconds / visitors.length,
    })
  }
  return byPath
}

let t: TestInstance
let cookie: string
let site: Site
let bare: Site
const lines = generate()

beforeAll(async () => {
  t = await openTestInstance({ clock: () => NOW })
  const owner = await t.seed()
  cookie = owner.cookie
  site = owner.site
  bare = await t.createSite(cookie, owner.organizationId, 'bare.example.com')
  const body = (only: Line[]) =>
    only
      .map((line) =>
        JSON.stringify({ ...line, hostname: 'example.com', user_agent: CHROME, ip_address: '8.8.8.8' }),
      )
      .join('\n')
  for (const [target, only] of [
    [site, lines],
    [bare, lines.filter((line) => line.type === 'pageview')],
  ] as const) {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${target.siteId}/import`,
      headers: { cookie, 'content-type': 'application/x-ndjson' },
      payload: body(only),
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json().imported).toBe(only.length)
  }
}, 120_000)

afterAll(() => t?.close())

const scopeOf = (siteId: number, timeZone: string) => ({
  siteId,
  params: parseQueryParams({ start_date: DAY, end_date: DAY, time_zone: timeZone, limit: '100' }, NOW),
})

describe('engagement in the pages report, over imported events', () => {
  it.each(ZONES)('gives the independently counted figures per page on %s', async (zone) => {
    const expected = expectedFigures(lines, zone)
    expect(expected.size).toBeGreaterThan(2)
    const { data } = await queryPageStats(t.services.events, scopeOf(site.siteId, zone))
    expect(data.map((row) => row.pathname).sort()).toEqual([...expected.keys()].sort())
    for (const row of data) {
      const want = expected.get(row.pathname) ?? {}
      expect(row.pageviews, row.pathname).toBe(want.pageviews)
      for (const field of ['scroll_depth', 'scroll_25', 'scroll_50', 'scroll_75', 'scroll_100'] as const) {
        expect(row[field], `${row.pathname} ${field}`).toBe(want[field])
      }
      expect(row.engaged_time, row.pathname).toBeCloseTo(want.engaged_time as number, 6)
      expect(row.engaged_time_on_page, row.pathname).toBeCloseTo(want.engaged_time_on_page as number, 6)
    }
  })

  it.each(ZONES)('gives the engaged time per visit on %s', async (zone) => {
    const day = lines.filter((line) => line.type === 'engagement' && localDate(line.timestamp, zone) === DAY)
    const summary = await queryEngagementSummary(t.services.events, scopeOf(site.siteId, zone))
    // Visits as the import sessionizes them: more than 30 minutes apart starts a new one.
    const sessions = new Set<string>()
    const lastSeen = new Map<string, { at: number; session: number }>()
    let counter = 0
    for (const line of [...lines].sort((a, b) => a.timestamp.localeCompare(b.timestamp))) {
      const at = Date.parse(line.timestamp)
      const last = lastSeen.get(line.user_id)
      const session = last && at - last.at <= 30 * 60_000 ? last.session : ++counter
      lastSeen.set(line.user_id, { at, session })
      if (line.type === 'engagement' && localDate(line.timestamp, zone) === DAY) sessions.add(String(session))
    }
    const seconds = day.reduce((sum, line) => sum + (line.engagement_time ?? 0), 0) / 1000
    expect(summary.engaged_visits).toBe(sessions.size)
    expect(summary.engaged_time_per_visit).toBeCloseTo(seconds / sessions.size, 6)
  })

  it.each(ZONES)(
    'leaves pageviews, visitors, sessions and bounce rate as without engagement on %s',
    async (zone) => {
      const [withEngagement, without] = await Promise.all([
        queryOverview(t.services.events, scopeOf(site.siteId, zone)),
        queryOverview(t.services.events, scopeOf(bare.siteId, zone)),
      ])
      for (const metric of ['pageviews', 'visitors', 'sessions', 'bounce_rate'] as const) {
        expect(withEngagement[metric], metric).toBe(without[metric])
      }
      const pageviews = lines.filter(
        (l) => l.type === 'pageview' && localDate(l.timestamp, zone) === DAY,
      ).length
      expect(withEngagement.pageviews).toBe(pageviews)
    },
  )

  it('answers the same rows to the dashboard (GET .../page-stats)', async () => {
    const zone = 'Asia/Tokyo'
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${site.siteId}/page-stats?start_date=${DAY}&end_date=${DAY}&time_zone=${zone}&limit=100`,
      headers: { cookie },
    })
    expect(response.statusCode, response.body).toBe(200)
    const { data } = await queryPageStats(t.services.events, scopeOf(site.siteId, zone))
    expect(response.json().data).toEqual(data)
    expect(data.every((row) => row.scroll_depth !== null)).toBe(true)
    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${site.siteId}/page-stats?sort=colour`,
      headers: { cookie },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().details.fieldErrors.sort).toBeDefined()
  })
})
