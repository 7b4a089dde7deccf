/**
 * The export takes `filters` and `segment` as the reports do (event filters: the events that pass
 * them), through the real app on SQLite + chDB. Each answer is checked against the generated events
 * filtered in plain code; session filters and bad filters answer 400 naming `filters`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

interface Generated {
  at: string
  pathname: string
  type: 'pageview' | 'custom_event'
  name: string
  props: Record<string, unknown>
  user: string
}

const EVENTS: Generated[] = []
for (let i = 0; i < 60; i++) {
  const custom = i % 3 === 0
  EVENTS.push({
    at: `2026-03-${String(1 + (i % 20)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:00:00.000Z`,
    pathname: ['/', '/pricing', '/blog/a', '/blog/b'][i % 4] as string,
    type: custom ? 'custom_event' : 'pageview',
    name: custom ? (i % 2 ? 'signup' : 'buy') : '',
    props: custom ? { plan: i % 5 === 0 ? 'pro' : 'free' } : {},
    user: `u${i % 9}`,
  })
}

describe('export with filters and a segment', () => {
  let t: TestInstance
  let site: Site
  let cookie: string

  const exported = async (query: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${site.siteId}/export?${query}`,
      headers: { cookie },
    })
    return response
  }
  const linesOf = async (query: string) => {
    const response = await exported(query)
    expect(response.statusCode, response.body).toBe(200)
    return response.body
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { pathname: string; userId: string; timestamp: string })
  }
  const filtersParam = (filters: unknown[]) => `filters=${encodeURIComponent(JSON.stringify(filters))}`
  /** The (timestamp, user, pathname) keys of events, sorted, to compare exports with plain counts. */
  const keys = (rows: { timestamp: string; userId: string; pathname: string }[]) =>
    rows.map((r) => `${r.timestamp}|${r.userId}|${r.pathname}`).sort()
  const expectedKeys = (pass: (e: Generated) => boolean) =>
    EVENTS.filter(pass)
      .map((e) => `${e.at}|${e.user}|${e.pathname}`)
      .sort()

  beforeAll(async () => {
    t = await openTestInstance({ clock: () => Date.parse('2026-04-01T12:00:00.000Z') })
    const seeded = await t.seed()
    site = seeded.site
    cookie = seeded.cookie
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/import`,
      headers: { cookie, 'content-type': 'application/x-ndjson' },
      payload: `${EVENTS.map((e) =>
        JSON.stringify({
          timestamp: e.at,
          type: e.type,
          pathname: e.pathname,
          hostname: 'example.com',
          user_id: e.user,
          ...(e.type === 'custom_event' ? { event_name: e.name, properties: e.props } : {}),
        }),
      ).join('\n')}\n`,
    })
    expect(response.statusCode, response.body).toBe(200)
  }, 120_000)
  afterAll(() => t?.close())

  it('exports only the events that pass the filters, with and without dates', async () => {
    const blog = [{ parameter: 'pathname', type: 'starts_with', value: ['/blog/'] }]
    expect(keys(await linesOf(filtersParam(blog)))).toEqual(
      expectedKeys((e) => e.pathname.startsWith('/blog/')),
    )
    const pro = [{ parameter: 'properties.plan', type: 'equals', value: ['pro'] }]
    expect(keys(await linesOf(`start_date=2026-03-05&end_date=2026-03-15&${filtersParam(pro)}`))).toEqual(
      expectedKeys((e) => e.props.plan === 'pro' && e.at >= '2026-03-05' && e.at < '2026-03-16'),
    )
    expect(await linesOf('')).toHaveLength(EVENTS.length)
  })

  it('applies a saved segment, ANDed with the filters', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/segments`,
      headers: { cookie },
      payload: {
        name: 'signups',
        visibility: 'site',
        filters: [{ parameter: 'event_name', type: 'equals', value: ['signup'] }],
      },
    })
    expect(created.statusCode, created.body).toBe(201)
    const segment = created.json().data.segmentId as number
    expect(keys(await linesOf(`segment=${segment}`))).toEqual(expectedKeys((e) => e.name === 'signup'))
    const pricing = [{ parameter: 'pathname', type: 'equals', value: ['/pricing'] }]
    expect(keys(await linesOf(`segment=${segment}&${filtersParam(pricing)}`))).toEqual(
      expectedKeys((e) => e.name === 'signup' && e.pathname === '/pricing'),
    )
    expect((await exported('segment=999999')).statusCode).toBe(404)
  })

  it('refuses session filters, bad filters and unknown parameters with a 400 naming them', async () => {
    const entry = await exported(filtersParam([{ parameter: 'entry_page', type: 'equals', value: ['/'] }]))
    expect(entry.statusCode).toBe(400)
    expect(entry.json().details.fieldErrors.filters[0]).toContain('entry_page')
    const bad = await exported('filters=%5B1%5D')
    expect(bad.statusCode).toBe(400)
    expect(bad.json().details.fieldErrors.filters).toBeDefined()
    const unknown = await exported('limit=5')
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().error).toContain('limit is not a parameter of the export')
  })
})
