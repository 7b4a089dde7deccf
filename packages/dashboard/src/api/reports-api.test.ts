import { describe, expect, it } from 'vitest'
import type { ReportQuery } from '../lib/report-query'
import type { Transport } from './client'
import { createReportsApi } from './reports-api'

/** A transport that records each request's method, path and headers and answers an empty page. */
function recording() {
  const calls: { method: string; path: string; headers?: Record<string, string> }[] = []
  const transport: Transport = {
    request: async <T>(method: string, path: string, _body?: unknown, headers?: Record<string, string>) => {
      calls.push({ method, path, headers })
      return { data: [], meta: { total: 0 } } as T
    },
  }
  return { calls, transport }
}

const query: ReportQuery = {
  siteId: 4,
  startDate: '2026-03-01',
  endDate: '2026-03-31',
  timeZone: 'UTC',
  filters: [{ parameter: 'properties.plan', type: 'equals', value: ['pro'] }],
}
const filters = encodeURIComponent(JSON.stringify(query.filters))

describe('the property reads', () => {
  it('asks for the keys of one event, or of all, with the common parameters and the private key', async () => {
    const { calls, transport } = recording()
    const reports = createReportsApi(4, 'secret', transport)
    await reports.propertyKeys(query, 'Sign up', { limit: 100 })
    await reports.propertyKeys({ ...query, filters: [] })
    expect(calls).toEqual([
      {
        method: 'GET',
        path:
          '/api/sites/4/properties?start_date=2026-03-01&end_date=2026-03-31&time_zone=UTC' +
          `&filters=${filters}&event_name=Sign+up&limit=100`,
        headers: { 'x-private-key': 'secret' },
      },
      {
        method: 'GET',
        path: '/api/sites/4/properties?start_date=2026-03-01&end_date=2026-03-31&time_zone=UTC',
        headers: { 'x-private-key': 'secret' },
      },
    ])
  })

  it("asks for a page of one key's values", async () => {
    const { calls, transport } = recording()
    await createReportsApi(4, undefined, transport).propertyValues('plan/tier', query, 'signup', {
      limit: 100,
      page: 2,
    })
    expect(calls[0]?.path).toBe(
      '/api/sites/4/breakdown/properties?start_date=2026-03-01&end_date=2026-03-31&time_zone=UTC' +
        `&filters=${filters}&property=plan%2Ftier&event_name=signup&limit=100&page=2`,
    )
  })
})

describe('the report reads, by their contracts', () => {
  it('sends a list comma-separated, a boolean as text, and no query string where a report takes none', async () => {
    const { calls, transport } = recording()
    const reports = createReportsApi(4, undefined, transport)
    const common = 'start_date=2026-03-01&end_date=2026-03-31&time_zone=UTC'
    await reports.part(
      { ...query, filters: [] },
      { name: 'series', params: { bucket: 'day', metrics: ['visitors', 'pageviews'] } },
    )
    await reports.part({ ...query, filters: [] }, { name: 'sessions', params: { page: 2, has_replay: true } })
    await reports.breakdown('utm_source', { ...query, filters: [] }, { limit: 8 }, ['visitors'])
    await reports.live()
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      `GET /api/sites/4/series?${common}&bucket=day&metrics=visitors%2Cpageviews`,
      `GET /api/sites/4/sessions?${common}&page=2&has_replay=true`,
      `GET /api/sites/4/breakdown/utm_source?${common}&limit=8&metrics=visitors`,
      'GET /api/sites/4/live',
    ])
  })
})

describe('a report part alone', () => {
  it("is its report's GET: path parameters in the path, the common parameters then its own, no id", async () => {
    const { calls, transport } = recording()
    const reports = createReportsApi(4, 'secret', transport)
    const bare = { ...query, filters: [] }
    const common = 'start_date=2026-03-01&end_date=2026-03-31&time_zone=UTC'
    await reports.part(bare, { id: 'stats', name: 'stats' })
    await reports.part(bare, {
      id: 'countries',
      name: 'breakdown',
      params: { name: 'countries', limit: 250, metrics: ['visitors'] },
    })
    await reports.part(query, {
      id: 'event-names',
      name: 'event-names',
      params: { limit: 8, metrics: ['events'] },
    })
    await reports.part(bare, { name: 'sessions', params: { page: 2, has_replay: true } })
    await reports.part(query, { id: 'live', name: 'live' })
    expect(calls).toEqual([
      { method: 'GET', path: `/api/sites/4/stats?${common}`, headers: { 'x-private-key': 'secret' } },
      {
        method: 'GET',
        path: `/api/sites/4/breakdown/countries?${common}&limit=250&metrics=visitors`,
        headers: { 'x-private-key': 'secret' },
      },
      {
        method: 'GET',
        path: `/api/sites/4/event-names?${common}&filters=${filters}&limit=8&metrics=events`,
        headers: { 'x-private-key': 'secret' },
      },
      {
        method: 'GET',
        path: `/api/sites/4/sessions?${common}&page=2&has_replay=true`,
        headers: { 'x-private-key': 'secret' },
      },
      { method: 'GET', path: '/api/sites/4/live', headers: { 'x-private-key': 'secret' } },
    ])
  })

  it("is the sessions page's request: its page and size, and has_replay only when asked", async () => {
    const { calls, transport } = recording()
    const reports = createReportsApi(4, undefined, transport)
    const bare = { ...query, filters: [] }
    const common = 'start_date=2026-03-01&end_date=2026-03-31&time_zone=UTC'
    await reports.part(bare, { name: 'sessions', params: { page: 3, limit: 50, has_replay: undefined } })
    await reports.part(bare, { name: 'sessions', params: { page: 1, limit: 50, has_replay: true } })
    await reports.part(bare, { name: 'page-stats', params: { limit: 8 } })
    await reports.part(bare, { name: 'engagement' })
    expect(calls.map((c) => c.path)).toEqual([
      `/api/sites/4/sessions?${common}&page=3&limit=50`,
      `/api/sites/4/sessions?${common}&page=1&limit=50&has_replay=true`,
      `/api/sites/4/page-stats?${common}&limit=8`,
      `/api/sites/4/engagement?${common}`,
    ])
  })

  it('goes to the query’s site', async () => {
    const { calls, transport } = recording()
    await createReportsApi(9, undefined, transport).part(
      { ...query, siteId: 9, filters: [] },
      { name: 'live' },
    )
    expect(calls[0]?.path).toBe('/api/sites/9/live')
  })
})

describe('the query string of a query', () => {
  it('writes the days, zone, filters, segment and comparison, in that order, each left out when absent', async () => {
    const { calls, transport } = recording()
    const reports = createReportsApi(4, undefined, transport)
    const stats = { name: 'stats' } as const
    await reports.part(
      {
        ...query,
        segment: 7,
        compare: {
          mode: 'custom',
          custom: { startDate: '2026-02-01', endDate: '2026-02-28' },
          matchDayOfWeek: true,
        },
      },
      stats,
    )
    await reports.part({ ...query, filters: [], compare: { mode: 'previous_year' } }, stats)
    expect(calls.map((c) => c.path)).toEqual([
      `/api/sites/4/stats?start_date=2026-03-01&end_date=2026-03-31&time_zone=UTC&filters=${filters}` +
        '&segment=7&compare=custom&compare_start_date=2026-02-01&compare_end_date=2026-02-28&match_day_of_week=true',
      '/api/sites/4/stats?start_date=2026-03-01&end_date=2026-03-31&time_zone=UTC&compare=previous_year',
    ])
  })

  it('is the query string of a batch, whose body holds the parts as they are', async () => {
    const bodies: unknown[] = []
    const paths: string[] = []
    const transport: Transport = {
      request: async <T>(_method: string, path: string, body?: unknown) => {
        paths.push(path)
        bodies.push(body)
        return { success: true, data: {} } as T
      },
    }
    const parts = [{ id: 'stats', name: 'stats' }, { name: 'live' }] as const
    await createReportsApi(4, undefined, transport).batch({ ...query, segment: 7 }, [...parts])
    expect(paths).toEqual([
      `/api/sites/4/reports?start_date=2026-03-01&end_date=2026-03-31&time_zone=UTC&filters=${filters}&segment=7`,
    ])
    expect(bodies).toEqual([{ reports: [{ id: 'stats', name: 'stats' }, { name: 'live' }] }])
  })
})
