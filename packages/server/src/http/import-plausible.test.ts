/**
 * Import of Plausible's CSV export (`?format=plausible`, a ZIP) through the real app (SQLite + chDB).
 * The fixture (`transfer/plausible-export.fixture/`) holds the files of Plausible's documented layout
 * for February 2024 (a leap year), days without traffic, a quoted value with a comma. The ZIP is built
 * here from those files; every imported day's figures are compared with sums computed here from the
 * CSV text, for the overview, the time series (day, week and month buckets, in other time zones; hour
 * buckets without them) and each breakdown the totals feed.
 */
import fs from 'node:fs'
import { strToU8, zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const NOW = Date.parse('2024-04-15T12:00:00.000Z')
const FOLDER = new URL('../transfer/plausible-export.fixture/', import.meta.url)
const FILES = Object.fromEntries(
  fs.readdirSync(FOLDER).map((name) => [name, fs.readFileSync(new URL(name, FOLDER), 'utf8')]),
)
const zipOf = (files: Record<string, string>) =>
  Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)]))))

/** A minimal CSV reader for the fixture (quoted fields with commas and doubled quotes). */
function rowsOf(table: string, files = FILES): Record<string, string>[] {
  const text = Object.entries(files).find(([name]) => name.startsWith(`${table}_`))?.[1] ?? ''
  const split = (line: string) => {
    const fields: string[] = []
    let field = ''
    let quoted = false
    for (let i = 0; i < line.length; i++) {
      const c = line[i]
      if (quoted && c === '"' && line[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = !quoted
      else if (c === ',' && !quoted) {
        fields.push(field)
        field = ''
      } else field += c
    }
    fields.push(field)
    return fields
  }
  const [header = '', ...lines] = text.split('\n').filter((line) => line !== '')
  const names = split(header)
  return lines.map((line) => Object.fromEntries(split(line).map((value, i) => [names[i], value])))
}

/** Per value, the sums of `count` columns over the rows of `day` (or all days). */
function sums(
  table: string,
  column: (row: Record<string, string>) => string,
  counts: string[],
  day?: string,
) {
  const byValue = new Map<string, number[]>()
  for (const row of rowsOf(table)) {
    if (day !== undefined && row.date !== day) continue
    const value = column(row)
    if (value === '') continue
    const sum = byValue.get(value) ?? counts.map(() => 0)
    counts.forEach((count, i) => {
      sum[i] = (sum[i] ?? 0) + Number(row[count])
    })
    byValue.set(value, sum)
  }
  return byValue
}

const rename = (names: Record<string, string>) => (value: string) => names[value] ?? value
/** Breakdown -> the CSV table, the value column, the counts (visitors, visits, pageviews as read). */
const BREAKDOWNS: [string, string, (row: Record<string, string>) => string, string[]][] = [
  ['pages', 'imported_pages', (r) => r.page ?? '', ['visitors', 'visits', 'pageviews']],
  ['entry_pages', 'imported_entry_pages', (r) => r.entry_page ?? '', ['visitors', 'entrances', 'pageviews']],
  ['exit_pages', 'imported_exit_pages', (r) => r.exit_page ?? '', ['visitors', 'exits', 'pageviews']],
  [
    'referrers',
    'imported_sources',
    (r) =>
      (r.referrer ?? '')
        .replace(/^https?:\/\//, '')
        .split('/')[0]
        ?.replace(/^www\./, '') ?? '',
    ['visitors', 'visits', 'pageviews'],
  ],
  ['utm_source', 'imported_sources', (r) => r.utm_source ?? '', ['visitors', 'visits', 'pageviews']],
  ['utm_campaign', 'imported_sources', (r) => r.utm_campaign ?? '', ['visitors', 'visits', 'pageviews']],
  ['countries', 'imported_locations', (r) => r.country ?? '', ['visitors', 'visits', 'pageviews']],
  [
    'device_types',
    'imported_devices',
    (r) => (r.device ?? '').toLowerCase(),
    ['visitors', 'visits', 'pageviews'],
  ],
  [
    'browsers',
    'imported_browsers',
    (r) => rename({ 'Microsoft Edge': 'Edge' })(r.browser ?? ''),
    ['visitors', 'visits', 'pageviews'],
  ],
  [
    'operating_systems',
    'imported_operating_systems',
    (r) => rename({ Mac: 'Mac OS', 'GNU/Linux': 'Linux' })(r.operating_system ?? ''),
    ['visitors', 'visits', 'pageviews'],
  ],
]

describe('import of Plausible CSV export (ZIP of daily totals)', () => {
  let t: TestInstance
  let owner: Awaited<ReturnType<TestInstance['seed']>>
  const days = rowsOf('imported_visitors')

  const importZip = (siteId: number, body: Buffer, query = '?format=plausible', type = 'application/zip') =>
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
  const range = (from: string, to = from) => `start_date=${from}&end_date=${to}`

  beforeAll(async () => {
    t = await openTestInstance({ clock: () => NOW })
    owner = await t.seed()
  }, 60_000)
  afterAll(() => t?.close())

  it('keeps every CSV row and answers every imported day with the totals of the files', {
    timeout: 120_000,
  }, async () => {
    const response = await importZip(owner.site.siteId, zipOf(FILES))
    expect(response.statusCode, response.body).toBe(200)
    const rowCount = Object.values(FILES).reduce(
      (n, text) => n + text.split('\n').filter(Boolean).length - 1,
      0,
    )
    expect(response.json()).toEqual({
      success: true,
      imported: rowCount,
      dropped: {},
      rejectedCount: 0,
      rejected: [],
    })

    expect(days.length).toBeGreaterThan(20)
    for (const day of days) {
      const date = day.date ?? ''
      const visits = Number(day.visits)
      const custom = [...sums('imported_custom_events', (r) => r.name ?? '', ['events'], date).values()]
      const stats = await read(owner.site.siteId, `stats?${range(date)}&compare=none`)
      expect(stats.data.current, date).toEqual({
        visitors: Number(day.visitors),
        sessions: visits,
        pageviews: Number(day.pageviews),
        bounce_rate: Number(day.bounces) / visits,
        session_duration: Number(day.visit_duration) / visits,
        pages_per_session: Number(day.pageviews) / visits,
        events: custom.reduce((n, [events = 0]) => n + events, 0),
      })
    }
    // The breakdowns: on three days (the first, a leap day, one in between) and over the month.
    const sample = [days[0]?.date, '2024-02-13', '2024-02-29'] as string[]
    expect(days.map((day) => day.date)).toEqual(expect.arrayContaining(sample))
    for (const date of [...sample, undefined]) {
      for (const [name, table, column, [visitors, sessions, pageviews]] of BREAKDOWNS) {
        const expected = sums(table, column, [visitors ?? '', sessions ?? '', pageviews ?? ''], date)
        const query = date ? range(date) : range('2024-02-01', '2024-02-29')
        const answer = await read(owner.site.siteId, `breakdown/${name}?${query}&limit=100`)
        const got = new Map<string, number[]>(
          answer.data.map((row: Record<string, number>) => [
            row.value,
            [row.visitors, row.sessions, row.pageviews],
          ]),
        )
        expect(got, `${name} on ${date ?? 'the month'}`).toEqual(expected)
      }
    }
    // A day without a row in the files has nothing.
    const missing = await read(owner.site.siteId, `stats?${range('2024-02-25')}&compare=none`)
    expect(missing.data.current).toMatchObject({ visitors: 0, pageviews: 0 })
  })

  it('sums a range, ranks and pages the merged rows', async () => {
    const month = range('2024-02-01', '2024-02-29')
    const stats = await read(owner.site.siteId, `stats?${month}&compare=none`)
    const total = (column: string) => days.reduce((n, day) => n + Number(day[column]), 0)
    expect(stats.data.current).toMatchObject({
      visitors: total('visitors'),
      sessions: total('visits'),
      pageviews: total('pageviews'),
    })
    const pages = sums('imported_pages', (r) => r.page ?? '', ['pageviews'])
    const ranked = [...pages].sort((a, b) => (b[1][0] ?? 0) - (a[1][0] ?? 0) || (a[0] < b[0] ? -1 : 1))
    const second = await read(owner.site.siteId, `breakdown/pages?${month}&limit=2&page=2&metrics=pageviews`)
    expect(second.data).toEqual(ranked.slice(2, 4).map(([value, [pageviews]]) => ({ value, pageviews })))
    expect(second.meta.total).toBe(pages.size)
  })

  /** The imported counts of `day` as the CSV has them ({visitors, sessions, pageviews}; zeros without a row). */
  const csvDay = (date: string) => {
    const row = days.find((day) => day.date === date)
    return {
      visitors: Number(row?.visitors ?? 0),
      sessions: Number(row?.visits ?? 0),
      pageviews: Number(row?.pageviews ?? 0),
    }
  }
  /** Every calendar day of February 2024. */
  const february = Array.from({ length: 29 }, (_, i) => `2024-02-${String(i + 1).padStart(2, '0')}`)
  type Point = { time: string; visitors: number; sessions: number; pageviews: number }
  const countsOf = ({ visitors, sessions, pageviews }: Point) => ({ visitors, sessions, pageviews })

  it('puts every imported day in the time series: dashboard and v1, day, week and month buckets, in the time zone', async () => {
    const month = range('2024-02-01', '2024-02-29')
    // Day buckets (UTC): each point is its day's CSV row.
    const series = await read(owner.site.siteId, `series?${month}&bucket=day`)
    expect(series.data.map((point: Point) => point.time)).toEqual(
      february.map((day) => `${day}T00:00:00.000Z`),
    )
    for (const [i, day] of february.entries()) expect(countsOf(series.data[i]), day).toEqual(csvDay(day))
    // The v1 stats' series, and the dashboard's stats series, say the same.
    const v1 = await t.app.inject({
      method: 'GET',
      url: `/api/v1/sites/${owner.site.siteId}/stats?${month}&bucket=day&compare=none`,
      headers: { authorization: `Bearer ${owner.apiKey}` },
    })
    expect(v1.statusCode, v1.body).toBe(200)
    expect(v1.json().data.series.map(countsOf)).toEqual(february.map(csvDay))
    const stats = await read(owner.site.siteId, `stats?${month}&bucket=day&compare=none`)
    expect(stats.data.series.map(countsOf)).toEqual(february.map(csvDay))

    // Week buckets in New York (EST in February, UTC-5): ISO weeks from Monday 2024-01-29.
    const weekly = await read(owner.site.siteId, `series?${month}&bucket=week&time_zone=America/New_York`)
    const weeks = new Map<string, { visitors: number; sessions: number; pageviews: number }>()
    for (const day of february) {
      const date = new Date(`${day}T00:00:00Z`)
      date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7))
      const monday = `${date.toISOString().slice(0, 10)}T05:00:00.000Z`
      const sum = weeks.get(monday) ?? { visitors: 0, sessions: 0, pageviews: 0 }
      const counts = csvDay(day)
      sum.visitors += counts.visitors
      sum.sessions += counts.sessions
      sum.pageviews += counts.pageviews
      weeks.set(monday, sum)
    }
    expect(weekly.data.map((point: Point) => [point.time, countsOf(point)])).toEqual([...weeks])
    // A month bucket in Tokyo (UTC+9): the month starts at 2024-01-31T15:00Z and holds every day.
    const monthly = await read(owner.site.siteId, `series?${month}&bucket=month&time_zone=Asia/Tokyo`)
    const total = (column: string) => days.reduce((n, day) => n + Number(day[column]), 0)
    expect(monthly.data).toEqual([
      {
        time: '2024-01-31T15:00:00.000Z',
        visitors: total('visitors'),
        sessions: total('visits'),
        pageviews: total('pageviews'),
      },
    ])
    // Only the counts asked for are there, with their imported part.
    const pageviewsOnly = await read(
      owner.site.siteId,
      `series?${range('2024-02-13')}&bucket=day&metrics=pageviews`,
    )
    expect(pageviewsOnly.data).toEqual([
      { time: '2024-02-13T00:00:00.000Z', pageviews: csvDay('2024-02-13').pageviews },
    ])
    // Hour buckets leave imported days out: daily totals cannot be split into hours.
    const hourly = await read(owner.site.siteId, `series?${range('2024-02-13')}&bucket=hour`)
    expect(hourly.data).toHaveLength(24)
    expect(hourly.data.every((point: Point) => point.visitors + point.sessions + point.pageviews === 0)).toBe(
      true,
    )
    // The previous period's line carries its imported days too (February's second half against its first).
    const compared = await read(
      owner.site.siteId,
      `series?${range('2024-02-15', '2024-02-28')}&bucket=day&compare=previous_period`,
    )
    expect(compared.data.map((point: Point & { previous: Point }) => countsOf(point.previous))).toEqual(
      february.slice(0, 14).map(csvDay),
    )
  })

  it('counts imported days only before the first own event, and leaves them out under a filter', async () => {
    const own = [
      { timestamp: '2024-02-20T10:00:00Z', pathname: '/', user_id: 'own-1' },
      { timestamp: '2024-02-20T10:05:00Z', pathname: '/pricing', user_id: 'own-1' },
      { timestamp: '2024-02-27T09:00:00Z', pathname: '/', user_id: 'own-2' },
    ]
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${owner.site.siteId}/import`,
      headers: { cookie: owner.cookie, 'content-type': 'application/x-ndjson' },
      payload: own.map((line) => JSON.stringify(line)).join('\n'),
    })
    expect(response.json()).toMatchObject({ imported: 3 })
    const before = days.filter((day) => (day.date ?? '') < '2024-02-20')
    const sum = (column: string) => before.reduce((n, day) => n + Number(day[column]), 0)
    const stats = await read(owner.site.siteId, `stats?${range('2024-02-01', '2024-02-29')}&compare=none`)
    expect(stats.data.current).toMatchObject({
      visitors: sum('visitors') + 2,
      sessions: sum('visits') + 2,
      pageviews: sum('pageviews') + 3,
    })
    const overlap = await read(owner.site.siteId, `stats?${range('2024-02-21')}&compare=none`)
    expect(overlap.data.current).toMatchObject({ visitors: 0, pageviews: 0 })
    const filtered = await read(
      owner.site.siteId,
      `stats?${range('2024-02-01', '2024-02-29')}&compare=none&filters=${encodeURIComponent(JSON.stringify([{ parameter: 'pathname', type: 'equals', value: ['/'] }]))}`,
    )
    expect(filtered.data.current).toMatchObject({ pageviews: 2, visitors: 2 })
    // The series: imported days before 02-20, own events from then on; under a filter, own events only.
    const ownOn = (day: string) => {
      const mine = own.filter((line) => line.timestamp.startsWith(day))
      return {
        visitors: new Set(mine.map((line) => line.user_id)).size,
        sessions: new Set(mine.map((line) => line.user_id)).size,
        pageviews: mine.length,
      }
    }
    const month = range('2024-02-01', '2024-02-29')
    const series = await read(owner.site.siteId, `series?${month}&bucket=day`)
    expect(series.data.map(countsOf)).toEqual(
      february.map((day) => (day < '2024-02-20' ? csvDay(day) : ownOn(day))),
    )
    const filteredSeries = await read(
      owner.site.siteId,
      `series?${month}&bucket=day&filters=${encodeURIComponent(JSON.stringify([{ parameter: 'pathname', type: 'equals', value: ['/'] }]))}`,
    )
    const slash = (day: string) =>
      own.filter((line) => line.pathname === '/' && line.timestamp.startsWith(day)).length
    expect(filteredSeries.data.map((point: Point) => point.pageviews)).toEqual(february.map(slash))
  })

  it('replaces the earlier import, reports bad rows by file and line, and removes it on request', async () => {
    const site = await t.createSite(owner.cookie, owner.organizationId, 'plausible.example.com')
    await importZip(site.siteId, zipOf(FILES))
    const name = Object.keys(FILES).find((file) => file.startsWith('imported_visitors_')) ?? ''
    const text = FILES[name] ?? ''
    const [header, first, second, third] = text.split('\n')
    const broken = [
      header,
      first,
      second?.replace(/^(\d{4}-\d{2}-\d{2}),\d+/, '$1,many'),
      third?.replace(/^2024-02-0\d/, '2024-02-30'),
      '',
    ].join('\n')
    const again = await importZip(site.siteId, zipOf({ [name]: broken }))
    expect(again.json()).toEqual({
      success: true,
      imported: 1,
      dropped: {},
      rejectedCount: 2,
      rejected: [
        { line: 3, error: `${name}: visitors: must be a whole number, got many` },
        { line: 4, error: `${name}: date: must be a date that exists, YYYY-MM-DD` },
      ],
    })
    const kept = rowsOf('imported_visitors', { [name]: broken }).filter((_, i) => i === 0)
    const month = await read(site.siteId, `stats?${range('2024-02-01', '2024-02-29')}&compare=none`)
    const firstDay = rowsOf('imported_visitors')[0] ?? {}
    expect(kept[0]?.date).toBe(firstDay.date)
    expect(month.data.current.pageviews).toBe(Number(firstDay.pageviews))
    const pages = await read(site.siteId, `breakdown/pages?${range('2024-02-01', '2024-02-29')}`)
    expect(pages.data).toEqual([])

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/sites/${site.siteId}/import`,
      headers: { cookie: owner.cookie },
    })
    expect(removed.statusCode, removed.body).toBe(200)
    const after = await read(site.siteId, `stats?${range('2024-02-01', '2024-02-29')}&compare=none`)
    expect(after.data.current).toMatchObject({ visitors: 0, sessions: 0, pageviews: 0 })

    // Deleting a site deletes its imported days.
    await importZip(site.siteId, zipOf(FILES))
    const stored = () =>
      t.services.events.query<{ n: number }>(
        'SELECT toUInt32(count()) AS n FROM imported_days WHERE site_id = {site:UInt32}',
        { site: site.siteId },
      )
    expect((await stored())[0]?.n).toBeGreaterThan(0)
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/sites/${site.siteId}`,
      headers: { cookie: owner.cookie },
    })
    expect(deleted.statusCode, deleted.body).toBe(200)
    expect(await stored()).toEqual([{ n: 0 }])
  })

  it('refuses what is not a Plausible export with a 400 naming the problem', async () => {
    const notZip = await importZip(owner.site.siteId, Buffer.from('not a zip'))
    expect(notZip.statusCode).toBe(400)
    expect(notZip.json().error).toMatch(/not a ZIP archive/)
    const noVisitors = await importZip(
      owner.site.siteId,
      zipOf({ 'imported_pages_20240201_20240229.csv': 'date,page,visitors\n' }),
    )
    expect(noVisitors.statusCode).toBe(400)
    expect(noVisitors.json().error).toMatch(/no imported_visitors CSV/)
    const noColumn = await importZip(
      owner.site.siteId,
      zipOf({ 'imported_visitors_20240201_20240229.csv': 'day,visitors\n' }),
    )
    expect(noColumn.statusCode).toBe(400)
    expect(noColumn.json().error).toBe(
      'imported_visitors_20240201_20240229.csv: the header has no date column',
    )
    const noFormat = await importZip(owner.site.siteId, zipOf(FILES), '')
    expect(noFormat.statusCode).toBe(400)
    expect(noFormat.json().error).toMatch(/^Invalid format: an application\/zip body needs format=plausible/)
    // The refused uploads left the first import as it was.
    const stats = await read(owner.site.siteId, `stats?${range(days[0]?.date ?? '')}&compare=none`)
    expect(stats.data.current.visitors).toBe(Number(days[0]?.visitors))
  })
})
