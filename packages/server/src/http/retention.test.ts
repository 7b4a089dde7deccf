/**
 * Retention cohorts through the real app on SQLite + chDB and on PostgreSQL + chDB: a hand-built event
 * set imported with `POST /api/sites/{siteId}/import`, exact cohorts read from
 * `GET /api/sites/{siteId}/retention` and its v1 twin, in Europe/Berlin across the DST change (Sunday
 * 2026-03-29) and a month boundary, where Berlin's calendar and UTC's disagree. Pathname '/' unless noted.
 *
 * | visitor | events (UTC)                                | Berlin week (from Monday) / month |
 * |---------|---------------------------------------------|-----------------------------------|
 * | a       | 03-16T09:00, 03-25T12:00 outbound,          | 03-16, 03-23, 03-30 (00:30 CEST)  |
 * |         | 03-29T22:30 /pricing                        |                                   |
 * | b       | 03-22T23:30 /pricing, 04-05T21:59 /pricing  | 03-23 (00:30 CET), 03-30          |
 * | c       | 03-15T23:00; 03-24 performance (not counted)| 03-16 (midnight)                  |
 * | d       | 03-15T22:59 (before the range), 03-24T12:00 | 03-23                             |
 * | e       | 04-01T12:00 custom event                    | 03-30                             |
 * | g       | 02-28T23:30, 04-30T21:00                    | March (03-01 00:30), April        |
 * | h       | 02-10T12:00, 03-31T22:30                    | February, April (04-01 00:30)     |
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const NOW = Date.parse('2026-05-10T12:00:00.000Z')
const WEEKS = 'start_date=2026-03-16&end_date=2026-04-05&time_zone=Europe/Berlin'
const MONTHS = 'start_date=2026-02-01&end_date=2026-04-30&time_zone=Europe/Berlin'

const line = (user_id: string, timestamp: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ timestamp, hostname: 'example.com', pathname: '/', user_id, ...extra })

const lines = [
  line('a', '2026-03-16T09:00:00.000Z'),
  line('a', '2026-03-25T12:00:00.000Z', { type: 'outbound', properties: { url: 'https://x.example/' } }),
  line('a', '2026-03-29T22:30:00.000Z', { pathname: '/pricing' }),
  line('b', '2026-03-22T23:30:00.000Z', { pathname: '/pricing' }),
  line('b', '2026-04-05T21:59:00.000Z', { pathname: '/pricing' }),
  line('c', '2026-03-15T23:00:00.000Z'),
  line('c', '2026-03-24T12:00:00.000Z', { type: 'performance', lcp: 1200 }),
  line('d', '2026-03-15T22:59:00.000Z'),
  line('d', '2026-03-24T12:00:00.000Z'),
  line('e', '2026-04-01T12:00:00.000Z', { type: 'custom_event', event_name: 'signup' }),
  line('g', '2026-02-28T23:30:00.000Z'),
  line('g', '2026-04-30T21:00:00.000Z'),
  line('h', '2026-02-10T12:00:00.000Z'),
  line('h', '2026-03-31T22:30:00.000Z'),
]

type Answer = {
  data: { cohort: string; visitors: number; retained: number[] }[]
  meta: { period: string; startDate: string; endDate: string; timeZone: string }
}

describe.each([
  ['SQLite + chDB', false],
  ['PostgreSQL + chDB', true],
])('retention on %s', (_name, postgres) => {
  let t: TestInstance
  let owner: Awaited<ReturnType<TestInstance['seed']>>
  let empty: Site

  const get = (query: string, siteId = owner.site.siteId) =>
    t.app.inject({
      method: 'GET',
      url: `/api/sites/${siteId}/retention?${query}`,
      headers: { cookie: owner.cookie },
    })
  const retention = async (query: string, siteId?: number): Promise<Answer> => {
    const response = await get(query, siteId)
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }

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

  it('weekly across the DST change: cohorts by Berlin week, a triangle to the end of the range', async () => {
    expect(await retention(`${WEEKS}&period=week`)).toEqual({
      data: [
        { cohort: '2026-03-16', visitors: 2, retained: [2, 1, 1] },
        { cohort: '2026-03-23', visitors: 2, retained: [2, 1] },
        // e, and h (04-01 in Berlin; its February event is outside these weeks).
        { cohort: '2026-03-30', visitors: 2, retained: [2] },
      ],
      meta: { period: 'week', startDate: '2026-03-16', endDate: '2026-04-05', timeZone: 'Europe/Berlin' },
    })
  })

  it('monthly across month boundaries in Berlin (and week is the default period)', async () => {
    const months = await retention(`${MONTHS}&period=month`)
    expect(months.data).toEqual([
      // February: h (back in April), a..e have no events before March 15.
      { cohort: '2026-02-01', visitors: 1, retained: [1, 0, 1] },
      // March: a, b, c, d and g (03-01 in Berlin); b and g are back in April.
      { cohort: '2026-03-01', visitors: 5, retained: [5, 2] },
      { cohort: '2026-04-01', visitors: 1, retained: [1] },
    ])
    expect((await retention(MONTHS)).meta.period).toBe('week')
  })

  it('filters restrict the events considered', async () => {
    const pricing = encodeURIComponent(
      JSON.stringify([{ parameter: 'pathname', type: 'equals', value: ['/pricing'] }]),
    )
    expect((await retention(`${WEEKS}&period=week&filters=${pricing}`)).data).toEqual([
      { cohort: '2026-03-16', visitors: 0, retained: [0, 0, 0] },
      { cohort: '2026-03-23', visitors: 1, retained: [1, 1] },
      { cohort: '2026-03-30', visitors: 1, retained: [1] },
    ])
  })

  it('answers empty cohorts for a site without events', async () => {
    expect((await retention(`${MONTHS}&period=month`, empty.siteId)).data).toEqual([
      { cohort: '2026-02-01', visitors: 0, retained: [0, 0, 0] },
      { cohort: '2026-03-01', visitors: 0, retained: [0, 0] },
      { cohort: '2026-04-01', visitors: 0, retained: [0] },
    ])
  })

  it('answers the same through v1 with an API key', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/sites/${owner.site.siteId}/retention?${WEEKS}&period=week`,
      headers: { authorization: `Bearer ${owner.apiKey}` },
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toEqual(await retention(`${WEEKS}&period=week`))
  })

  it('refuses a bad period or too many periods, naming the parameter', async () => {
    const bad = await get(`${WEEKS}&period=year`)
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error).toBe('Invalid period: period must be one of day, week, month')
    const many = await get('start_date=2025-01-01&end_date=2026-03-01&period=day')
    expect(many.statusCode).toBe(400)
    expect(many.json().error).toBe(
      'Invalid period: too many periods: 425 days in the range, at most 256; choose a longer period or a shorter range',
    )
  })
})
