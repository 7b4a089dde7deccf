/**
 * `POST /api/sites/{site}/reports` through the real app (SQLite + chDB): every kind of part answers
 * exactly what its GET route answers for the same parameters, invalid parts are 400s naming the part's
 * field before anything runs, and readers are the GET routes' readers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'

let t: TestInstance
let now = Date.parse('2026-03-11T09:03:00.000Z')
let cookie: string
let site: Site

beforeAll(async () => {
  t = await openTestInstance({ clock: () => now })
  const seeded = await t.seed()
  cookie = seeded.cookie
  site = seeded.site
  const track = async (at: string, user: string, userAgent: string, body: Record<string, unknown>) => {
    now = Date.parse(at)
    const response = await t.track(
      site,
      { hostname: 'example.com', user_id: user, user_agent: userAgent, ...body },
      { apiKey: seeded.apiKey },
    )
    expect(response.statusCode, response.body).toBe(200)
  }
  await track('2026-03-09T12:00:00.000Z', 'v4', CHROME, { pathname: '/' })
  await track('2026-03-10T10:00:00.000Z', 'v1', CHROME, { pathname: '/' })
  await track('2026-03-10T10:00:30.000Z', 'v1', CHROME, { pathname: '/pricing' })
  await track('2026-03-10T10:01:00.000Z', 'v1', CHROME, {
    type: 'custom_event',
    pathname: '/pricing',
    event_name: 'signup',
  })
  await track('2026-03-11T09:00:00.000Z', 'v3', SAFARI_IPHONE, { pathname: '/blog' })
  await track('2026-03-11T09:00:10.000Z', 'v3', SAFARI_IPHONE, {
    type: 'performance',
    pathname: '/blog',
    lcp: 5000,
    cls: 0.3,
    inp: 600,
    fcp: 3500,
    ttfb: 2000,
  })
  await track('2026-03-11T09:00:40.000Z', 'v3', SAFARI_IPHONE, { pathname: '/' })
  await t.services.buffer.flush()
  now = Date.parse('2026-03-11T09:03:00.000Z')
}, 60_000)
afterAll(() => t.close())

const RANGE = 'start_date=2026-03-10&end_date=2026-03-11'
const FILTERED = `${RANGE}&filters=${encodeURIComponent(
  JSON.stringify([{ parameter: 'pathname', type: 'not_equals', value: ['/blog'] }]),
)}`

const get = (path: string, headers: Record<string, string> = { cookie }) =>
  t.app.inject({ method: 'GET', url: `/api/sites/${site.siteId}/${path}`, headers })
const batch = (query: string, body: unknown, headers: Record<string, string> = { cookie }) =>
  t.app.inject({
    method: 'POST',
    url: `/api/sites/${site.siteId}/reports?${query}`,
    headers,
    payload: body as object,
  })

/** Each kind of part, with the GET request that must answer the same. */
const parts: { part: { id?: string; name: string; params?: object }; path: string; extra?: string }[] = [
  { part: { name: 'stats' }, path: 'stats' },
  {
    part: { id: 'stats-series', name: 'stats', params: { bucket: 'day' } },
    path: 'stats',
    extra: 'bucket=day',
  },
  { part: { name: 'series', params: { bucket: 'hour' } }, path: 'series', extra: 'bucket=hour' },
  {
    part: { id: 'visitors', name: 'series', params: { bucket: 'day', metrics: ['visitors'] } },
    path: 'series',
    extra: 'bucket=day&metrics=visitors',
  },
  {
    part: { id: 'pages', name: 'breakdown', params: { name: 'pages', limit: 1 } },
    path: 'breakdown/pages',
    extra: 'limit=1',
  },
  {
    part: { id: 'browsers', name: 'breakdown', params: { name: 'browsers', page: 2, limit: 1 } },
    path: 'breakdown/browsers',
    extra: 'page=2&limit=1',
  },
  {
    part: { id: 'top-pages', name: 'breakdown', params: { name: 'pages', metrics: ['pageviews'] } },
    path: 'breakdown/pages',
    extra: 'metrics=pageviews',
  },
  {
    part: { id: 'countries', name: 'breakdown', params: { name: 'countries', metrics: ['sessions'] } },
    path: 'breakdown/countries',
    extra: 'metrics=sessions',
  },
  { part: { name: 'sessions', params: { has_replay: false } }, path: 'sessions', extra: 'has_replay=false' },
  {
    part: { name: 'events', params: { type: ['pageview', 'custom_event'], limit: 2 } },
    path: 'events',
    extra: 'type=pageview%2Ccustom_event&limit=2',
  },
  { part: { name: 'event-names' }, path: 'event-names' },
  {
    part: { id: 'event-counts', name: 'event-names', params: { metrics: ['events', 'sessions'] } },
    path: 'event-names',
    extra: 'metrics=events%2Csessions',
  },
  { part: { name: 'web-vitals' }, path: 'web-vitals' },
  {
    part: { id: 'vitals-by', name: 'web-vitals', params: { by: 'pathname' } },
    path: 'web-vitals',
    extra: 'by=pathname',
  },
  { part: { name: 'live' }, path: 'live' },
]

describe('POST /api/sites/{site}/reports', () => {
  it.each([
    ['unfiltered', RANGE],
    ['filtered', FILTERED],
  ])('answers every kind of part as its GET route does (%s)', async (_, query) => {
    const response = await batch(query, { reports: parts.map((p) => p.part) })
    expect(response.statusCode, response.body).toBe(200)
    const answer = response.json() as { success: true; data: Record<string, unknown> }
    expect(answer.success).toBe(true)
    expect(Object.keys(answer.data)).toEqual(parts.map((p) => p.part.id ?? p.part.name))
    for (const { part, path, extra } of parts) {
      const single = await get(`${path}?${query}${extra ? `&${extra}` : ''}`)
      expect(single.statusCode, single.body).toBe(200)
      const id = part.id ?? part.name
      expect(answer.data[id], id).toEqual(single.json())
    }
    // The figures are real ones, not two empty answers.
    expect((answer.data.pages as { meta: { total: number } }).meta.total).toBeGreaterThan(1)
  })

  it('takes page and limit of the query string as defaults a part overrides', async () => {
    const response = await batch(`${RANGE}&limit=1`, {
      reports: [
        { id: 'a', name: 'breakdown', params: { name: 'pages' } },
        { id: 'b', name: 'breakdown', params: { name: 'pages', limit: 2 } },
      ],
    })
    expect(response.statusCode, response.body).toBe(200)
    const { data } = response.json() as { data: Record<string, { data: unknown[] }> }
    expect(data.a?.data).toHaveLength(1)
    expect(data.b?.data).toHaveLength(2)
  })

  it('answers 400 naming the invalid part, and never a 500', async () => {
    const cases: [unknown, string, string][] = [
      [{}, 'reports', 'Invalid reports: reports:'],
      [{ reports: [] }, 'reports', 'Invalid reports: reports:'],
      [
        { reports: Array.from({ length: 21 }, () => ({ name: 'live' })) },
        'reports',
        'Invalid reports: reports:',
      ],
      [
        { reports: [{ name: 'stats' }, { name: 'nope' }] },
        'reports[1].name',
        'Invalid reports: reports[1].name:',
      ],
      [
        { reports: [{ name: 'live' }, { name: 'stats', params: { bucket: 'year' } }] },
        'reports[1].params.bucket',
        'Invalid reports: reports[1].params.bucket:',
      ],
      [
        { reports: [{ name: 'stats' }, { name: 'breakdown', params: { name: 'pages', limit: 5000 } }] },
        'reports[1].params.limit',
        'Invalid reports[1].params.limit: limit must be an integer from 1 to 1000',
      ],
      [
        { reports: [{ name: 'breakdown', params: { name: 'pages', metrics: ['bounces'] } }] },
        'reports[0].params.metrics[0]',
        'Invalid reports: reports[0].params.metrics[0]:',
      ],
      [
        { reports: [{ name: 'breakdown', params: { name: 'pages', metrics: [] } }] },
        'reports[0].params.metrics',
        'Invalid reports: reports[0].params.metrics:',
      ],
      [
        { reports: [{ name: 'breakdown', params: { name: 'nope' } }] },
        'reports[0].params.name',
        'Invalid reports[0].params.name: Unknown breakdown "nope"',
      ],
      [
        { reports: [{ name: 'stats' }, { name: 'stats', params: { bucket: 'day' } }] },
        'reports[1].id',
        'Invalid reports[1].id: the id "stats" is taken',
      ],
      [
        { reports: [{ name: 'stats', params: { bucket: 'hour' } }] },
        'reports[0].params.bucket',
        'Invalid reports[0].params.bucket',
      ],
      [{ reports: [{ name: 'live', extra: 1 }] }, 'reports[0]', 'Invalid reports: reports[0]:'],
    ]
    for (const [body, field, message] of cases) {
      // A range of 3 years at hourly buckets is too many points: refused before running.
      const query =
        field === 'reports[0].params.bucket' && message.endsWith('bucket')
          ? 'start_date=2020-01-01&end_date=2026-01-01'
          : RANGE
      const response = await batch(query, body)
      expect(response.statusCode, `${JSON.stringify(body)}: ${response.body}`).toBe(400)
      const error = response.json() as { error: string; details: { fieldErrors: Record<string, unknown> } }
      expect(error.error).toContain(message)
      expect(Object.keys(error.details.fieldErrors)).toContain(field)
    }
    const badCommon = await batch('start_date=2026-13-01', { reports: [{ name: 'stats' }] })
    expect(badCommon.statusCode).toBe(400)
    expect(badCommon.json().error).toMatch(/^Invalid start_date:/)
  })

  it('lets the GET routes’ readers in and no one else', async () => {
    const body = { reports: [{ name: 'live' }] }
    expect((await batch(RANGE, body, {})).statusCode).toBe(401)
    expect((await batch(RANGE, body, { 'x-private-key': 'wrong' })).statusCode).toBe(404)
  })
})
