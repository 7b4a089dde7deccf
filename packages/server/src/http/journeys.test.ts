/**
 * User journeys through the real app on SQLite + chDB and on PostgreSQL + chDB: a hand-built event
 * set imported with `POST /api/sites/{siteId}/import`, exact journeys and links read from
 * `GET /api/sites/{siteId}/journeys`. One session per visitor, 2026-03-10 (UTC), one minute apart:
 *
 * | visitor | pageviews (in order)                    | collapsed                            |
 * |---------|-----------------------------------------|--------------------------------------|
 * | u1, u7  | / /pricing /pricing /signup             | / /pricing /signup                   |
 * | u2      | / /pricing /signup /docs /blog          | the same                             |
 * | u3      | / /blog / /pricing                      | the same                             |
 * | u4      | /docs                                   | one page: no journey                 |
 * | u5      | /docs /docs                             | one page: no journey                 |
 * | u6      | /pricing, custom event on /checkout, /signup | /pricing /signup                |
 * | u9      | /z and /a at the same instant, /signup  | /z /a /signup (ties by event id: the |
 * |         |                                         | import's ids keep the lines' order)  |
 * | u8      | / /pricing in February                  | outside the range                    |
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const NOW = Date.parse('2026-03-20T12:00:00.000Z')
const RANGE = 'start_date=2026-03-01&end_date=2026-03-31'

/** Pageviews (pathnames; a `{custom}` entry is a custom event there) of a visitor from `start`, a minute apart. */
function visit(user: string, start: string, pages: (string | { custom: string })[]): string[] {
  const at = Date.parse(start)
  return pages.map((page, i) =>
    JSON.stringify({
      timestamp: new Date(at + i * 60_000).toISOString(),
      hostname: 'example.com',
      user_id: user,
      ...(typeof page === 'string'
        ? { pathname: page }
        : { pathname: page.custom, type: 'custom_event', event_name: 'checkout' }),
    }),
  )
}

const lines = [
  ...visit('u1', '2026-03-10T01:00:00Z', ['/', '/pricing', '/pricing', '/signup']),
  ...visit('u2', '2026-03-10T02:00:00Z', ['/', '/pricing', '/signup', '/docs', '/blog']),
  ...visit('u3', '2026-03-10T03:00:00Z', ['/', '/blog', '/', '/pricing']),
  ...visit('u4', '2026-03-10T04:00:00Z', ['/docs']),
  ...visit('u5', '2026-03-10T05:00:00Z', ['/docs', '/docs']),
  ...visit('u6', '2026-03-10T06:00:00Z', ['/pricing', { custom: '/checkout' }, '/signup']),
  ...visit('u7', '2026-03-10T07:00:00Z', ['/', '/pricing', '/pricing', '/signup']),
  ...visit('u8', '2026-02-10T08:00:00Z', ['/', '/pricing']),
  // u9: two pageviews at the same instant, then a third.
  JSON.stringify({ timestamp: '2026-03-10T09:00:00.000Z', pathname: '/z', user_id: 'u9' }),
  JSON.stringify({ timestamp: '2026-03-10T09:00:00.000Z', pathname: '/a', user_id: 'u9' }),
  JSON.stringify({ timestamp: '2026-03-10T09:01:00.000Z', pathname: '/signup', user_id: 'u9' }),
]

describe.each([
  ['SQLite + chDB', false],
  ['PostgreSQL + chDB', true],
])('journeys on %s', (_name, postgres) => {
  let t: TestInstance
  let owner: Awaited<ReturnType<TestInstance['seed']>>
  let empty: Site

  const get = (query: string, siteId = owner.site.siteId) =>
    t.app.inject({
      method: 'GET',
      url: `/api/sites/${siteId}/journeys?${RANGE}&${query}`,
      headers: { cookie: owner.cookie },
    })
  const journeys = async (query: string) => {
    const response = await get(query)
    expect(response.statusCode, response.body).toBe(200)
    return response.json() as {
      data: { path: string[]; sessions: number }[]
      links: {
        from: { step: number; pathname: string }
        to: { step: number; pathname: string }
        sessions: number
      }[]
      meta: { total: number; sessions: number; steps: number; limit: number }
    }
  }
  const paths = async (query: string) =>
    (await journeys(query)).data.map((j) => [j.path.join(' '), j.sessions])

  beforeAll(async () => {
    t = await openTestInstance({ postgres, clock: () => NOW })
    owner = await t.seed()
    empty = await t.createSite(owner.cookie, owner.organizationId, 'empty.example')
    const imported = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${owner.site.siteId}/import`,
      headers: { cookie: owner.cookie, 'content-type': 'application/x-ndjson' },
      payload: lines.join('\n'),
    })
    expect(imported.statusCode, imported.body).toBe(200)
    expect(imported.json()).toMatchObject({ imported: lines.length, rejectedCount: 0 })
  }, 120_000)
  afterAll(() => t?.close())

  it('collapses repeats, cuts to 4 steps, and counts journeys of two pages or more', async () => {
    const answer = await journeys('')
    expect(answer.data).toEqual([
      { path: ['/', '/pricing', '/signup'], sessions: 2 },
      { path: ['/', '/blog', '/', '/pricing'], sessions: 1 },
      { path: ['/', '/pricing', '/signup', '/docs'], sessions: 1 },
      { path: ['/pricing', '/signup'], sessions: 1 },
      { path: ['/z', '/a', '/signup'], sessions: 1 },
    ])
    expect(answer.meta).toEqual({ total: 5, sessions: 6, steps: 4, limit: 20 })
  })

  it('links the steps of the returned journeys, 1-based, so the Sankey adds up', async () => {
    const { links } = await journeys('')
    const link = (step: number, from: string, to: string, sessions: number) => ({
      from: { step, pathname: from },
      to: { step: step + 1, pathname: to },
      sessions,
    })
    expect(links).toEqual([
      link(1, '/', '/pricing', 3),
      link(1, '/', '/blog', 1),
      link(1, '/pricing', '/signup', 1),
      link(1, '/z', '/a', 1),
      link(2, '/pricing', '/signup', 3),
      link(2, '/a', '/signup', 1),
      link(2, '/blog', '/', 1),
      link(3, '/', '/pricing', 1),
      link(3, '/signup', '/docs', 1),
    ])
  })

  it('cuts to `steps` pages', async () => {
    expect(await paths('steps=2')).toEqual([
      ['/ /pricing', 3],
      ['/ /blog', 1],
      ['/pricing /signup', 1],
      ['/z /a', 1],
    ])
    expect((await journeys('steps=6')).data).toContainEqual({
      path: ['/', '/pricing', '/signup', '/docs', '/blog'],
      sessions: 1,
    })
  })

  it('starts at the first occurrence of start_path', async () => {
    // u3 reaches /pricing last: one page from there, no journey.
    expect(await paths('steps=3&start_path=%2Fpricing')).toEqual([
      ['/pricing /signup', 3],
      ['/pricing /signup /docs', 1],
    ])
    const answer = await journeys('steps=3&start_path=%2Fpricing')
    expect(answer.meta).toMatchObject({ total: 2, sessions: 4 })
  })

  it('ends at the first occurrence of end_path, at most `steps` pages before', async () => {
    expect(await paths('steps=3&end_path=%2Fsignup')).toEqual([
      ['/ /pricing /signup', 3],
      ['/pricing /signup', 1],
      ['/z /a /signup', 1],
    ])
    expect(await paths('steps=2&end_path=%2Fsignup')).toEqual([
      ['/pricing /signup', 4],
      ['/a /signup', 1],
    ])
    // A session whose first page is end_path has no journey.
    expect(await paths('end_path=%2Fz')).toEqual([])
  })

  it('with both, takes the segment from start_path to the next end_path when it fits in `steps`', async () => {
    // u3: / /blog / /pricing: four pages from / to /pricing, more than 3.
    expect(await paths('steps=3&start_path=%2F&end_path=%2Fpricing')).toEqual([['/ /pricing', 3]])
    expect(await paths('steps=4&start_path=%2F&end_path=%2Fpricing')).toEqual([
      ['/ /pricing', 3],
      ['/ /blog / /pricing', 1],
    ])
    // The same page as start and end: from its first occurrence to its next one.
    expect(await paths('start_path=%2F&end_path=%2F')).toEqual([['/ /blog /', 1]])
  })

  it('applies the filters to sessions and keeps their whole journeys', async () => {
    const filter = (f: object) => `filters=${encodeURIComponent(JSON.stringify([f]))}`
    // u2 reaches /blog after its first four pages, u3 on its second.
    expect(await paths(filter({ parameter: 'pathname', type: 'equals', value: ['/blog'] }))).toEqual([
      ['/ /blog / /pricing', 1],
      ['/ /pricing /signup /docs', 1],
    ])
    expect(await paths(filter({ parameter: 'entry_page', type: 'equals', value: ['/pricing'] }))).toEqual([
      ['/pricing /signup', 1],
    ])
  })

  it('returns the `limit` top journeys, with links of those only, and totals of all', async () => {
    const answer = await journeys('limit=1')
    expect(answer.data).toEqual([{ path: ['/', '/pricing', '/signup'], sessions: 2 }])
    expect(answer.links).toHaveLength(2)
    expect(answer.meta).toEqual({ total: 5, sessions: 6, steps: 4, limit: 1 })
  })

  it('answers empty lists without data', async () => {
    const response = await get('', empty.siteId)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toEqual({
      data: [],
      links: [],
      meta: { total: 0, sessions: 0, steps: 4, limit: 20 },
    })
  })

  it.each([
    ['steps=1', 'steps'],
    ['steps=7', 'steps'],
    ['steps=four', 'steps'],
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    [`start_path=${'a'.repeat(2049)}`, 'start_path'],
  ])('refuses %s with a 400 naming %s', async (query, name) => {
    const response = await get(query)
    expect(response.statusCode).toBe(400)
    expect(response.json().error).toMatch(new RegExp(`^Invalid ${name}: `))
    expect(Object.keys(response.json().details.fieldErrors)).toEqual([name])
  })
})
