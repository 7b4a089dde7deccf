/**
 * Import of Google Analytics 4's BigQuery export (`?format=ga4`, NDJSON) through the real app (SQLite
 * + chDB). The fixture (`transfer/ga4-events.fixture.ndjson`) holds rows of `events_YYYYMMDD` tables
 * of March 2024 in the documented schema: 9 users in 9 countries and time zones, 1-3 sessions each,
 * INT64 values as strings as BigQuery writes them, automatic events (`session_start`, `first_visit`,
 * `user_engagement`), custom events with parameters, outbound clicks, a login (`user_id` from then on),
 * UTM-tagged and paid landings, rows of each day's table in no time order, two page views of one
 * millisecond. Every figure is checked against a count made here with plain code over the fixture.
 */
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const NOW = Date.parse('2024-04-15T12:00:00.000Z')
const FIXTURE = fs.readFileSync(new URL('../transfer/ga4-events.fixture.ndjson', import.meta.url), 'utf8')
const MARCH = 'start_date=2024-03-01&end_date=2024-03-31&limit=100'

interface Ga4Row {
  event_timestamp: string
  event_name: string
  user_pseudo_id: string
  user_id: string | null
  event_params: { key: string; value: Record<string, string | number | null> }[]
  geo: { country: string }
}

/** The independent count: plain code over the fixture's rows. */
function countFixture(text: string) {
  const rows = text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Ga4Row)
  const automatic = new Set(['session_start', 'first_visit', 'user_engagement'])
  const kept = rows.filter((row) => !automatic.has(row.event_name))
  const param = (row: Ga4Row, key: string) => {
    const value = row.event_params.find((p) => p.key === key)?.value
    return value ? String(value.string_value ?? value.int_value ?? value.double_value ?? '') : ''
  }
  const visitor = (row: Ga4Row) => row.user_id || row.user_pseudo_id
  const sessionOf = (row: Ga4Row) => `${row.user_pseudo_id}/${param(row, 'ga_session_id')}`
  const countryCodes: Record<string, string> = {
    'United States': 'US',
    Germany: 'DE',
    Japan: 'JP',
    'United Kingdom': 'GB',
    Brazil: 'BR',
    Türkiye: 'TR',
    Australia: 'AU',
    'Hong Kong': 'HK',
  }
  const pageviews = kept.filter((row) => row.event_name === 'page_view')
  const pages = new Map<string, { pageviews: number; visitors: Set<string> }>()
  for (const row of pageviews) {
    const path = new URL(param(row, 'page_location')).pathname
    const page = pages.get(path) ?? { pageviews: 0, visitors: new Set() }
    page.pageviews++
    page.visitors.add(visitor(row))
    pages.set(path, page)
  }
  const countries = new Map<string, Set<string>>()
  for (const row of kept) {
    const code = countryCodes[row.geo.country] ?? ''
    countries.set(code, (countries.get(code) ?? new Set()).add(visitor(row)))
  }
  // A session's source is its first kept event's (by the microsecond).
  const first = new Map<string, Ga4Row>()
  for (const row of kept) {
    const seen = first.get(sessionOf(row))
    if (!seen || BigInt(row.event_timestamp) < BigInt(seen.event_timestamp)) first.set(sessionOf(row), row)
  }
  const referrers = new Map<string, number>()
  for (const row of first.values()) {
    const referrer = param(row, 'page_referrer')
    if (referrer === '') continue
    const host = new URL(referrer).hostname.replace(/^www\./, '')
    referrers.set(host, (referrers.get(host) ?? 0) + 1)
  }
  const byCount = <T>(entries: [string, T][], count: (value: T) => number) =>
    entries
      .map(([value, data]) => [value, count(data)] as const)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  return {
    rows: rows.length,
    dropped: rows.length - kept.length,
    pageviews: pageviews.length,
    visitors: new Set(kept.map(visitor)).size,
    sessions: new Set(kept.map(sessionOf)).size,
    pages: [...pages].map(([path, page]) => [path, page.pageviews, page.visitors.size] as const),
    countries: byCount(
      [...countries].filter(([code]) => code !== ''),
      (set) => set.size,
    ),
    referrers: byCount([...referrers], (n) => n),
  }
}

describe('import of Google Analytics 4 (BigQuery export, NDJSON)', () => {
  let t: TestInstance
  let owner: Awaited<ReturnType<TestInstance['seed']>>
  const expected = countFixture(FIXTURE)

  const importGa4 = (siteId: number, body: string, query = '?format=ga4') =>
    t.app.inject({
      method: 'POST',
      url: `/api/sites/${siteId}/import${query}`,
      headers: { cookie: owner.cookie, 'content-type': 'application/x-ndjson' },
      payload: body,
    })
  const read = async (siteId: number, path: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${siteId}/${path}`,
      headers: { cookie: owner.cookie },
    })
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }

  beforeAll(async () => {
    t = await openTestInstance({ clock: () => NOW })
    owner = await t.seed()
  }, 60_000)
  afterAll(() => t?.close())

  it('imports sessions, pages, sources and countries matching the count of the fixture', async () => {
    const response = await importGa4(owner.site.siteId, FIXTURE)
    expect(response.statusCode, response.body).toBe(200)
    const result = response.json()
    expect(result.imported).toBe(expected.rows - expected.dropped)
    expect(Object.values(result.dropped as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(
      expected.dropped,
    )
    expect(Object.keys(result.dropped).sort()).toEqual([
      'ga4:first_visit',
      'ga4:session_start',
      'ga4:user_engagement',
    ])
    expect(result.rejectedCount).toBe(0)

    const stats = await read(owner.site.siteId, `stats?${MARCH}`)
    expect(stats.data.current).toMatchObject({
      pageviews: expected.pageviews,
      visitors: expected.visitors,
      sessions: expected.sessions,
    })
    const pages = await read(owner.site.siteId, `breakdown/pages?${MARCH}`)
    const pageRows = pages.data.map(({ value, pageviews, visitors }: Record<string, unknown>) => [
      value,
      pageviews,
      visitors,
    ])
    expect(new Set(pageRows)).toEqual(new Set(expected.pages.map((row) => [...row])))
    expect(pageRows).toHaveLength(expected.pages.length)

    const countries = await read(owner.site.siteId, `breakdown/countries?${MARCH}`)
    expect(countries.data.map(({ value, visitors }: Record<string, unknown>) => [value, visitors])).toEqual(
      expected.countries.map((row) => [...row]),
    )

    const referrers = await read(owner.site.siteId, `breakdown/referrers?${MARCH}`)
    expect(referrers.data.map(({ value, sessions }: Record<string, unknown>) => [value, sessions])).toEqual(
      expected.referrers.map((row) => [...row]),
    )
  })

  it('maps the device, channel, custom events and outbound clicks of the rows', async () => {
    const browsers = await read(owner.site.siteId, `breakdown/browsers?${MARCH}`)
    expect(browsers.data.map((row: { value: string }) => row.value).sort()).toEqual([
      'Chrome',
      'Edge',
      'Firefox',
      'Safari',
      'Samsung Browser',
    ])
    const systems = await read(owner.site.siteId, `breakdown/operating_systems?${MARCH}`)
    expect(systems.data.map((row: { value: string }) => row.value).sort()).toEqual([
      'Android',
      'Chromium OS',
      'Mac OS',
      'Windows',
      'iOS',
    ])
    const channels = await read(owner.site.siteId, `breakdown/channels?${MARCH}`)
    const channelNames = channels.data.map((row: { value: string }) => row.value)
    expect(channelNames).toEqual(expect.arrayContaining(['Email', 'Paid Search', 'Organic Social']))

    const events = await read(owner.site.siteId, `events?${MARCH}`)
    const custom = events.data.filter((e: { type: string }) => e.type === 'custom_event')
    const rows = FIXTURE.split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Ga4Row)
    const customRows = rows.filter((row) =>
      ['login', 'add_to_cart', 'file_download'].includes(row.event_name),
    )
    expect(custom).toHaveLength(customRows.length)
    expect(custom.find((e: { eventName: string }) => e.eventName === 'add_to_cart').properties).toEqual({
      item_id: 'lamp-01',
      value: 49.9,
      currency: 'EUR',
      quantity: 2,
    })
    const outbound = events.data.filter((e: { type: string }) => e.type === 'outbound')
    expect(outbound).toHaveLength(rows.filter((row) => row.event_name === 'click').length)
    expect(outbound[0].properties).toEqual({ url: 'https://github.com/example/shop', text: 'Source code' })
    // The identified user keeps their id from the login on.
    expect(
      events.data.filter((e: { userId: string }) => e.userId === 'customer-4242').length,
    ).toBeGreaterThan(0)
  })

  it('orders the page views of one millisecond by their microseconds', async () => {
    const entry = await read(
      owner.site.siteId,
      'breakdown/entry_pages?start_date=2024-03-30&end_date=2024-03-30',
    )
    expect(entry.data.map((row: { value: string }) => row.value)).toEqual(['/products/chair'])
    const exit = await read(
      owner.site.siteId,
      'breakdown/exit_pages?start_date=2024-03-30&end_date=2024-03-30',
    )
    expect(exit.data.map((row: { value: string }) => row.value)).toEqual(['/cart'])
  })

  it('adds nothing when the same file is imported again', async () => {
    const response = await importGa4(owner.site.siteId, FIXTURE)
    expect(response.json()).toMatchObject({
      imported: 0,
      dropped: { duplicate: expected.rows - expected.dropped },
      rejectedCount: 0,
    })
    const stats = await read(owner.site.siteId, `stats?${MARCH}`)
    expect(stats.data.current).toMatchObject({ pageviews: expected.pageviews, sessions: expected.sessions })
  })

  it('reports bad lines by number and field, and stores the others', async () => {
    const site = await t.createSite(owner.cookie, owner.organizationId, 'shop.example.com')
    const lines = FIXTURE.split('\n').filter(Boolean)
    const pageView = lines.find((line) => line.includes('"event_name":"page_view"')) ?? ''
    const row = JSON.parse(pageView)
    const body = [
      pageView,
      JSON.stringify({ ...row, event_timestamp: '2024-03-02T10:00:00Z' }),
      '{not json',
      JSON.stringify({ ...row, event_params: { page_location: 'x' } }),
      JSON.stringify({ ...row, event_name: '' }),
      JSON.stringify({ ...row, user_pseudo_id: null, user_id: null }),
      JSON.stringify({
        ...row,
        event_params: [{ key: 'page_location', value: { string_value: 'not a url' } }],
      }),
      lines.find((line) => line.includes('"event_name":"add_to_cart"')) ?? '',
    ].join('\n')
    const response = await importGa4(site.siteId, body)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toEqual({
      success: true,
      imported: 2,
      dropped: {},
      rejectedCount: 6,
      rejected: [
        {
          line: 2,
          error: 'event_timestamp: must be the event time in microseconds since 1970 (UTC), an integer',
        },
        { line: 3, error: 'The line is not valid JSON' },
        { line: 4, error: 'event_params: must be an array of {key, value}' },
        { line: 5, error: 'event_name: is required (a string)' },
        { line: 6, error: 'user_pseudo_id: is required (or user_id)' },
        { line: 7, error: 'event_params.page_location: must be a URL' },
      ],
    })
  })

  it('takes GA4 rows as NDJSON only', async () => {
    const csv = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${owner.site.siteId}/import?format=ga4`,
      headers: { cookie: owner.cookie, 'content-type': 'text/csv' },
      payload: 'a,b\n1,2\n',
    })
    expect(csv.statusCode).toBe(400)
    expect(csv.json().error).toMatch(/^Invalid format: format=ga4 takes an application\/x-ndjson body/)
  })
})
