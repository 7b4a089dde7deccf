/**
 * Import of Umami's `website_event` CSV through the real app (SQLite + chDB): the fixture
 * (`transfer/umami-website-event.fixture.csv`, 52 rows of March 2024: 10 Umami sessions = visitors,
 * 18 visits = sessions, 47 pageviews, 5 custom events; quoted titles with a comma, doubled quotes and a
 * line break; NULL columns; a row without hostname) gives the figures counted by hand below; importing
 * it again adds nothing; bad rows are reported by number and column; the query names the format.
 */
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const NOW = Date.parse('2024-04-15T12:00:00.000Z')
const FIXTURE = fs.readFileSync(
  new URL('../transfer/umami-website-event.fixture.csv', import.meta.url),
  'utf8',
)
const MARCH = 'start_date=2024-03-01&end_date=2024-03-31'

describe('import of Umami website_event CSV', () => {
  let t: TestInstance
  let owner: Awaited<ReturnType<TestInstance['seed']>>

  const importCsv = (siteId: number, body: string, query = '?format=umami', type = 'text/csv') =>
    t.app.inject({
      method: 'POST',
      url: `/api/sites/${siteId}/import${query}`,
      headers: { cookie: owner.cookie, 'content-type': type },
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

  it('imports every row with the figures counted from the fixture', async () => {
    const response = await importCsv(owner.site.siteId, FIXTURE)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toEqual({
      success: true,
      imported: 52,
      dropped: {},
      rejectedCount: 0,
      rejected: [],
    })
    const stats = await read(owner.site.siteId, `stats?${MARCH}`)
    expect(stats.data.current).toMatchObject({ pageviews: 47, events: 5, visitors: 10, sessions: 18 })

    const pages = await read(owner.site.siteId, `breakdown/pages?${MARCH}`)
    expect(
      pages.data.map(({ value, pageviews, visitors }: Record<string, unknown>) => [
        value,
        pageviews,
        visitors,
      ]),
    ).toEqual([
      ['/', 10, 8],
      ['/pricing', 10, 7],
      ['/docs', 9, 7],
      ['/about', 4, 4],
      ['/blog/hello', 4, 4],
      ['/docs/install', 4, 4],
      ['/blog/world', 3, 2],
      ['/signup', 3, 3],
    ])
    // First events of the 18 visits: Google x2, Bing, DuckDuckGo; Hacker News, t.co, Facebook; the
    // newsletter's UTM tags; a gclid; GitHub; 8 without referrer.
    const channels = await read(owner.site.siteId, `breakdown/channels?${MARCH}`)
    expect(
      channels.data.map(({ value, sessions, visitors }: Record<string, unknown>) => [
        value,
        sessions,
        visitors,
      ]),
    ).toEqual([
      ['Direct', 8, 6],
      ['Organic Search', 4, 4],
      ['Organic Social', 3, 3],
      ['Email', 1, 1],
      ['Paid Search', 1, 1],
      ['Referral', 1, 1],
    ])

    const events = await read(owner.site.siteId, 'events?start_date=2024-03-02&end_date=2024-03-02')
    expect(events.data.at(-1)).toMatchObject({
      pathname: '/',
      pageTitle: 'Pathlight',
      referrer: 'https://www.google.com/search?q=pathlight',
      timestamp: '2024-03-02T09:00:07.001Z',
    })
    expect(events.data.at(-2)).toMatchObject({ pathname: '/pricing', pageTitle: 'Pricing, "Pro" plan' })
    const names = await read(owner.site.siteId, `events?${MARCH}&limit=100`)
    expect(
      names.data
        .filter((e: { type: string }) => e.type === 'custom_event')
        .map((e: { eventName: string }) => e.eventName),
    ).toEqual(['download', 'signup', 'signup', 'signup', 'signup'])
  })

  it('adds nothing when the same CSV is imported again', async () => {
    const response = await importCsv(owner.site.siteId, FIXTURE)
    expect(response.json()).toEqual({
      success: true,
      imported: 0,
      dropped: { duplicate: 52 },
      rejectedCount: 0,
      rejected: [],
    })
    const stats = await read(owner.site.siteId, `stats?${MARCH}`)
    expect(stats.data.current).toMatchObject({ pageviews: 47, visitors: 10, sessions: 18 })
  })

  it('reports bad rows by number and column, and stores the others', async () => {
    const site = await t.createSite(owner.cookie, owner.organizationId, 'bad.example.com')
    const [header = '', ...rows] = FIXTURE.split('\n').filter((line) => line !== '')
    const first = rows[0] ?? ''
    const badTime = first
      .replace(/^[^,]+/, '00000000-0000-4000-8000-000000000001')
      .replace('2024-03-02 09:00:07.001001+00', 'yesterday')
    const otherWebsite = first
      .replace(/^[^,]+/, '00000000-0000-4000-8000-000000000002')
      .replace(/^([^,]+),[^,]+/, '$1,00000000-0000-4000-8000-00000000beef')
    const body = [header, first, badTime, otherWebsite, rows[1] ?? ''].join('\r\n')
    const response = await importCsv(site.siteId, body)
    expect(response.json()).toEqual({
      success: true,
      imported: 2,
      dropped: {},
      rejectedCount: 2,
      rejected: [
        {
          line: 2,
          error: 'created_at: must be a timestamp with a time zone, e.g. 2024-03-01 10:00:00.123+00',
        },
        { line: 3, error: expect.stringMatching(/^website_id: 00000000-0000-4000-8000-00000000beef is not/) },
      ],
    })
    const chosen = await importCsv(
      site.siteId,
      body,
      '?format=umami&umami_website_id=00000000-0000-4000-8000-00000000beef',
    )
    expect(chosen.json()).toMatchObject({ imported: 1, rejectedCount: 0 })
    const noHeader = await importCsv(site.siteId, 'event_id,website_id\n1,2\n')
    expect(noHeader.statusCode).toBe(400)
    expect(noHeader.json().error).toMatch(/^The CSV header has no session_id column/)
  })

  it('needs format=umami for CSV, and NDJSON stays the default', async () => {
    const csv = await importCsv(owner.site.siteId, FIXTURE, '')
    expect(csv.statusCode).toBe(400)
    expect(csv.json().error).toBe(
      "Invalid format: a text/csv body needs format=umami (Umami's website_event table)",
    )
    const other = await importCsv(owner.site.siteId, FIXTURE, '?format=plausible')
    expect(other.statusCode).toBe(400)
    expect(other.json().error).toMatch(/^Invalid format: /)
    const ndjson = await importCsv(owner.site.siteId, '', '?format=umami', 'application/x-ndjson')
    expect(ndjson.statusCode).toBe(400)
    expect(ndjson.json().error).toBe('Invalid format: format=umami takes a text/csv body')
    const plain = await importCsv(owner.site.siteId, FIXTURE, '?format=umami', 'text/plain')
    expect(plain.statusCode).toBe(415)
  })
})
