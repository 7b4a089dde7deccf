/**
 * Scroll-depth goals and funnel steps, and the site-wide engaged time per visit, over imported
 * pageviews and engagement events (the import route, real SQLite + chDB, every read through its HTTP
 * route), checked against independent counts in plain code over the generated lines, one day in three
 * time zones:
 * - goals "scrolled 50 / 75 / 100 % of /pricing" and "50 % of /blog/*": sessions with an engagement
 *   event of a matching page at or past the depth (depths 49/50, 74/75, 99/100 are drawn often, so the
 *   boundary is crossed both ways), conversion rate over the sessions of the day, the sessions listed;
 * - the pageview goal on /pricing gives the same conversions as on a site with the same pageviews and
 *   no engagement events;
 * - a funnel "/ -> scrolled 75 % of /pricing -> /blog/*" ordered by time, its sessions drill-down, and
 *   the same funnel with a pageview step in place of the scroll step against the site without
 *   engagement events;
 * - `GET .../engagement` and `GET /api/v1/sites/{siteId}/engagement`: engaged seconds over the visits
 *   with engagement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const NOW = Date.parse('2026-06-01T12:00:00.000Z')
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const PAGES = ['/', '/pricing', '/blog/a', '/blog/b', '/docs']
const DEPTHS = [0, 10, 49, 50, 51, 74, 75, 76, 99, 100]
const ZONES = ['UTC', 'America/New_York', 'Asia/Kolkata']
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
 * Visits over 2026-05-09 .. 05-11 UTC: 1-5 pageviews a minute or so apart, each followed by 0-2
 * engagement events whose depth is drawn from `DEPTHS` (boundaries on both sides).
 */
function generate(): Line[] {
  const next = random(50)
  const lines: Line[] = []
  const start = Date.parse('2026-05-09T00:00:00.000Z')
  for (let visit = 0; visit < 320; visit++) {
    const visitor = `v${Math.floor(next() * 80)}`
    let at = start + Math.floor(next() * 3 * 86_400_000)
    const pages = 1 + Math.floor(next() * 5)
    for (let i = 0; i < pages; i++) {
      const pathname = PAGES[Math.floor(next() * PAGES.length)] as string
      lines.push({ timestamp: new Date(at).toISOString(), type: 'pageview', pathname, user_id: visitor })
      for (let e = 0, n = Math.floor(next() * 3); e < n; e++) {
        at += 3000 + Math.floor(next() * 30_000)
        lines.push({
          timestamp: new Date(at).toISOString(),
          type: 'engagement',
          pathname,
          user_id: visitor,
          scroll_depth: DEPTHS[Math.floor(next() * DEPTHS.length)] as number,
          engagement_time: 500 + Math.floor(next() * 40_000),
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

const lines = generate()

/** Each line's visit as the import sessionizes them: more than 30 minutes apart starts a new one. */
const visitOf = (() => {
  const visits = new Map<Line, number>()
  const lastSeen = new Map<string, { at: number; visit: number }>()
  let counter = 0
  for (const line of [...lines].sort((a, b) => a.timestamp.localeCompare(b.timestamp))) {
    const at = Date.parse(line.timestamp)
    const last = lastSeen.get(line.user_id)
    const visit = last && at - last.at <= 30 * 60_000 ? last.visit : ++counter
    lastSeen.set(line.user_id, { at, visit })
    visits.set(line, visit)
  }
  return (line: Line) => visits.get(line) as number
})()

/** A step or goal condition on one line, in plain code. */
type Condition = (line: Line) => boolean
const matches =
  (pattern: string, depth?: number): Condition =>
  (line) => {
    const path = pattern.endsWith('*')
      ? line.pathname.startsWith(pattern.slice(0, -1))
      : line.pathname === pattern
    if (!path) return false
    if (depth === undefined) return line.type === 'pageview'
    return line.type === 'engagement' && (line.scroll_depth ?? 0) >= depth
  }

/** The lines of `DAY` in `zone`, of the site with engagement or of the one without. */
const dayLines = (zone: string, withEngagement = true) =>
  lines.filter(
    (line) => localDate(line.timestamp, zone) === DAY && (withEngagement || line.type === 'pageview'),
  )

/** Visits (with their users) with a line of `DAY` meeting `condition`. */
function convertedVisits(zone: string, condition: Condition, withEngagement = true) {
  const visits = new Map<number, string>()
  for (const line of dayLines(zone, withEngagement))
    if (condition(line)) visits.set(visitOf(line), line.user_id)
  return visits
}

/** Per step, the visits that matched steps 1..k in order (each at or after the previous), counted here. */
function funnelCounts(zone: string, steps: Condition[], withEngagement = true) {
  const byVisit = new Map<number, Line[]>()
  for (const line of dayLines(zone, withEngagement)) {
    const visit = byVisit.get(visitOf(line)) ?? []
    visit.push(line)
    byVisit.set(visitOf(line), visit)
  }
  const reached = steps.map(() => new Map<number, string>())
  for (const [visit, visitLines] of byVisit) {
    const sorted = [...visitLines].sort((a, b) => a.timestamp.localeCompare(b.timestamp))
    let after = ''
    for (const [k, step] of steps.entries()) {
      const hit = sorted.find((line) => line.timestamp >= after && step(line))
      if (!hit) break
      after = hit.timestamp
      reached[k]?.set(visit, hit.user_id)
    }
  }
  return reached
}

const GOALS = [
  { name: 'Read half of pricing', config: { pathPattern: '/pricing', scrollDepth: 50 } },
  { name: 'Read pricing', config: { pathPattern: '/pricing', scrollDepth: 75 } },
  { name: 'Finished pricing', config: { pathPattern: '/pricing', scrollDepth: 100 } },
  { name: 'Read half of a post', config: { pathPattern: '/blog/*', scrollDepth: 50 } },
  { name: 'Saw pricing', config: { pathPattern: '/pricing' } },
] as const

let t: TestInstance
let cookie: string
let apiKey: string
let site: Site
let bare: Site
const goalIds = new Map<string, number>()
const bareGoalIds = new Map<string, number>()

beforeAll(async () => {
  t = await openTestInstance({ clock: () => NOW })
  const owner = await t.seed()
  cookie = owner.cookie
  apiKey = owner.apiKey
  site = owner.site
  bare = await t.createSite(cookie, owner.organizationId, 'bare.example.com')
  const body = (only: Line[]) =>
    only
      .map((line) =>
        JSON.stringify({ ...line, hostname: 'example.com', user_agent: CHROME, ip_address: '8.8.8.8' }),
      )
      .join('\n')
  for (const [target, only, ids] of [
    [site, lines, goalIds],
    [bare, lines.filter((line) => line.type === 'pageview'), bareGoalIds],
  ] as const) {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${target.siteId}/import`,
      headers: { cookie, 'content-type': 'application/x-ndjson' },
      payload: body(only),
    })
    expect(response.statusCode, response.body).toBe(200)
    for (const goal of GOALS) {
      const created = await t.app.inject({
        method: 'POST',
        url: `/api/sites/${target.siteId}/goals`,
        headers: { cookie },
        payload: { name: goal.name, goalType: 'path', config: goal.config },
      })
      expect(created.statusCode, created.body).toBe(201)
      ids.set(goal.name, created.json().goalId)
    }
  }
}, 120_000)

afterAll(() => t?.close())

const range = (zone: string) => `start_date=${DAY}&end_date=${DAY}&time_zone=${encodeURIComponent(zone)}`

async function get(url: string, headers: Record<string, string> = { cookie }) {
  const response = await t.app.inject({ method: 'GET', url, headers })
  expect(response.statusCode, response.body).toBe(200)
  return response.json()
}

async function post(url: string, payload: Record<string, unknown>) {
  const response = await t.app.inject({ method: 'POST', url, headers: { cookie }, payload })
  expect(response.statusCode, response.body).toBe(200)
  return response.json()
}

describe('scroll-depth goals', () => {
  it('refuses a depth outside 1..100 or not whole, naming config.scrollDepth', async () => {
    for (const scrollDepth of [0, 101, 74.5, '75', null]) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/sites/${site.siteId}/goals`,
        headers: { cookie },
        payload: { name: 'x', goalType: 'path', config: { pathPattern: '/pricing', scrollDepth } },
      })
      expect(response.statusCode, JSON.stringify(scrollDepth)).toBe(400)
      expect(response.json().details.fieldErrors['config.scrollDepth']?.join(' ')).toContain('1 to 100')
    }
  })

  it('keeps the depth in the stored goal; a pageview goal has none', async () => {
    const { data } = await get(`/api/sites/${site.siteId}/goals?${range('UTC')}`)
    const read = data.find((goal: { name: string }) => goal.name === 'Read pricing')
    expect(read).toMatchObject({ goalType: 'path', config: { pathPattern: '/pricing', scrollDepth: 75 } })
    const saw = data.find((goal: { name: string }) => goal.name === 'Saw pricing')
    expect(saw.config).toEqual({ pathPattern: '/pricing' })
  })

  it.each(ZONES)('converts the independently counted sessions on %s', async (zone) => {
    const { data } = await get(`/api/sites/${site.siteId}/goals?${range(zone)}&limit=100`)
    const sessions = new Set(dayLines(zone).map(visitOf)).size
    for (const goal of GOALS) {
      const depth = 'scrollDepth' in goal.config ? goal.config.scrollDepth : undefined
      const expected = convertedVisits(zone, matches(goal.config.pathPattern, depth)).size
      const row = data.find((g: { name: string }) => g.name === goal.name)
      expect(row.total_conversions, `${goal.name} on ${zone}`).toBe(expected)
      expect(row.total_sessions, zone).toBe(sessions)
      expect(row.conversion_rate).toBeCloseTo(expected / sessions, 10)
    }
    // The boundary: 74 does not reach 75, 75 does; 99 does not reach 100.
    const at = (depth: number) =>
      convertedVisits(
        zone,
        (l) => l.pathname === '/pricing' && l.type === 'engagement' && l.scroll_depth === depth,
      )
    expect(at(74).size + at(99).size).toBeGreaterThan(0)
    expect(at(75).size + at(100).size).toBeGreaterThan(0)
  })

  it.each(ZONES)('lists the sessions that converted on %s', async (zone) => {
    const goalId = goalIds.get('Read pricing')
    const expected = convertedVisits(zone, matches('/pricing', 75))
    const { data, meta } = await get(
      `/api/sites/${site.siteId}/goals/${goalId}/sessions?${range(zone)}&limit=100`,
    )
    expect(meta.total).toBe(expected.size)
    expect(data.map((s: { user_id: string }) => s.user_id).sort()).toEqual([...expected.values()].sort())
  })

  it.each(ZONES)('leaves the pageview goal as without engagement events on %s', async (zone) => {
    const [withEngagement, without] = await Promise.all([
      get(`/api/sites/${site.siteId}/goals?${range(zone)}&limit=100`),
      get(`/api/sites/${bare.siteId}/goals?${range(zone)}&limit=100`),
    ])
    const saw = (answer: { data: { name: string; total_conversions: number }[] }) =>
      answer.data.find((g) => g.name === 'Saw pricing')?.total_conversions
    expect(saw(withEngagement)).toBe(convertedVisits(zone, matches('/pricing'), false).size)
    expect(saw(withEngagement)).toBe(saw(without))
    // Without engagement events no scroll goal converts.
    expect(without.data.filter((g: { total_conversions: number }) => g.total_conversions > 0)).toHaveLength(1)
  })
})

describe('funnel steps on scroll depth', () => {
  const scrollSteps = [
    { type: 'path', pathPattern: '/' },
    { type: 'path', pathPattern: '/pricing', scrollDepth: 75 },
    { type: 'path', pathPattern: '/blog/*' },
  ]
  const scrollConditions = [matches('/'), matches('/pricing', 75), matches('/blog/*')]

  it.each(ZONES)('counts the sessions that matched the steps in time order on %s', async (zone) => {
    const { data } = await post(`/api/sites/${site.siteId}/funnels/query?${range(zone)}`, {
      steps: scrollSteps,
    })
    const expected = funnelCounts(zone, scrollConditions)
    expect(data.steps.map((s: { sessions: number }) => s.sessions)).toEqual(expected.map((m) => m.size))
    expect(expected[1]?.size).toBeGreaterThan(0)
    expect(data.steps[1].name).toBe('scrolled 75 % of /pricing')
    // Order matters: with the scroll step first, a different (independently counted) figure.
    const reversed = await post(`/api/sites/${site.siteId}/funnels/query?${range(zone)}`, {
      steps: [scrollSteps[1], scrollSteps[0], scrollSteps[2]],
    })
    const reversedExpected = funnelCounts(zone, [
      scrollConditions[1],
      scrollConditions[0],
      scrollConditions[2],
    ] as Condition[])
    expect(reversed.data.steps.map((s: { sessions: number }) => s.sessions)).toEqual(
      reversedExpected.map((m) => m.size),
    )
  })

  it.each(ZONES)(
    'lists the sessions that reached the scroll step and dropped after it on %s',
    async (zone) => {
      const expected = funnelCounts(zone, scrollConditions)
      const reached = await post(
        `/api/sites/${site.siteId}/funnels/sessions?${range(zone)}&step=2&limit=100`,
        {
          steps: scrollSteps,
        },
      )
      expect(reached.meta.total).toBe(expected[1]?.size)
      expect(reached.data.map((s: { user_id: string }) => s.user_id).sort()).toEqual(
        [...(expected[1]?.values() ?? [])].sort(),
      )
      const dropped = await post(
        `/api/sites/${site.siteId}/funnels/sessions?${range(zone)}&step=2&outcome=dropped&limit=100`,
        { steps: scrollSteps },
      )
      expect(dropped.meta.total).toBe((expected[1]?.size ?? 0) - (expected[2]?.size ?? 0))
    },
  )

  it('saves the scroll step and answers it on v1 as in the dashboard', async () => {
    const zone = 'Asia/Kolkata'
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/funnels`,
      headers: { cookie },
      payload: { name: 'Reads pricing', steps: scrollSteps },
    })
    expect(created.statusCode, created.body).toBe(201)
    expect(created.json().data.steps).toEqual(scrollSteps)
    const v1 = await get(`/api/v1/sites/${site.siteId}/funnels?${range(zone)}`, {
      authorization: `Bearer ${apiKey}`,
    })
    const saved = v1.data.find((f: { name: string }) => f.name === 'Reads pricing')
    expect(saved.steps).toEqual(scrollSteps)
    expect(saved.results.steps.map((s: { sessions: number }) => s.sessions)).toEqual(
      funnelCounts(zone, scrollConditions).map((m) => m.size),
    )
  })

  it.each(ZONES)('leaves pageview funnels as without engagement events on %s', async (zone) => {
    const steps = [
      { type: 'path', pathPattern: '/' },
      { type: 'path', pathPattern: '/pricing' },
      { type: 'path', pathPattern: '/blog/*' },
    ]
    const [withEngagement, without] = await Promise.all(
      [site, bare].map((target) =>
        post(`/api/sites/${target.siteId}/funnels/query?${range(zone)}`, { steps }),
      ),
    )
    const counts = funnelCounts(zone, [matches('/'), matches('/pricing'), matches('/blog/*')], false)
    expect(withEngagement.data.steps).toEqual(without.data.steps)
    expect(withEngagement.data.steps.map((s: { sessions: number }) => s.sessions)).toEqual(
      counts.map((m) => m.size),
    )
  })
})

describe('site-wide engaged time per visit', () => {
  it.each(ZONES)('is the engaged seconds over the visits with engagement on %s', async (zone) => {
    const engagement = dayLines(zone).filter((line) => line.type === 'engagement')
    const visits = new Set(engagement.map(visitOf)).size
    const seconds = engagement.reduce((sum, line) => sum + (line.engagement_time ?? 0), 0) / 1000
    const dashboard = await get(`/api/sites/${site.siteId}/engagement?${range(zone)}`)
    expect(dashboard.data.engaged_visits).toBe(visits)
    expect(dashboard.data.engaged_time_per_visit).toBeCloseTo(seconds / visits, 6)
    expect(dashboard.meta).toEqual({ startDate: DAY, endDate: DAY, timeZone: zone })
    const v1 = await get(`/api/v1/sites/${site.siteId}/engagement?${range(zone)}`, {
      authorization: `Bearer ${apiKey}`,
    })
    expect(v1).toEqual(dashboard)
  })

  it('is null without engagement events, and refuses a bad parameter naming it', async () => {
    const { data } = await get(`/api/sites/${bare.siteId}/engagement?${range('UTC')}`)
    expect(data).toEqual({ engaged_time_per_visit: null, engaged_visits: 0 })
    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${site.siteId}/engagement?time_zone=Mars/Olympus`,
      headers: { cookie },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().details.fieldErrors.time_zone).toBeDefined()
  })
})
