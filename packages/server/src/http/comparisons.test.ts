/**
 * Comparisons (`compare`, `compare_start_date`, `compare_end_date`, `match_day_of_week`) through the real
 * app (SQLite + chDB) on events ingested with POST /api/track: stats, the series aligned bucket by
 * bucket, breakdowns with a change per row, v1 stats, and the 400s. Every figure is checked against a
 * count over the generated input (`sent`), not against the code under test.
 *
 * Input: the days 02-25..03-03 of 2023, 2024 (with 02-29) and 2025; on each day a few visits by
 * visitors seen once, at 10:00 + i minutes UTC: one pageview, or two (the second on `/` 10 s later).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addDays } from '../query/zoned-time.js'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

interface Sent {
  day: string
  visitor: string
  pathname: string
}

const PATHS = ['/', '/pricing', '/blog']
const sent: Sent[] = []
let t: TestInstance
let now = 0
let cookie: string
let site: Site
let apiKey: string

const track = async (at: number, visitor: string, pathname: string) => {
  now = at
  const response = await t.track(
    site,
    { hostname: 'example.com', user_id: visitor, user_agent: CHROME, pathname },
    { apiKey },
  )
  expect(response.statusCode, response.body).toBe(200)
  sent.push({ day: new Date(at).toISOString().slice(0, 10), visitor, pathname })
}
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'

beforeAll(async () => {
  t = await openTestInstance({ clock: () => now })
  ;({ cookie, site, apiKey } = await t.seed())
  for (const year of [2023, 2024, 2025]) {
    for (let day = `${year}-02-25`, n = 0; day <= `${year}-03-03`; day = addDays(day, 1), n++) {
      const visits = 1 + ((year + n * 3) % 4)
      for (let i = 0; i < visits; i++) {
        const at = Date.parse(`${day}T10:${String(i).padStart(2, '0')}:00.000Z`)
        const visitor = `y${day}v${i}`
        await track(at, visitor, PATHS[(i + n) % 3] as string)
        if (i % 2 === 0) await track(at + 10_000, visitor, '/')
      }
    }
  }
  await t.services.buffer.flush()
}, 120_000)
afterAll(() => t.close())

/** The independent count: pageviews, visitors and sessions (one per visitor here) of the days, by path. */
function counted(startDate: string, endDate: string, pathname?: string) {
  const rows = sent.filter(
    (s) => s.day >= startDate && s.day <= endDate && (pathname === undefined || s.pathname === pathname),
  )
  const visitors = new Set(rows.map((s) => s.visitor)).size
  return { visitors, sessions: visitors, pageviews: rows.length }
}

const get = async (path: string, headers: Record<string, string> = { cookie }) =>
  t.app.inject({ method: 'GET', url: path, headers })
const ok = async (path: string, headers?: Record<string, string>) => {
  const response = await get(path, headers)
  expect(response.statusCode, response.body).toBe(200)
  return response.json()
}
const site_ = (path: string) => `/api/sites/${site.siteId}/${path}`
const change = (current: number, previous: number) =>
  previous === 0 ? null : (current - previous) / previous

describe('compare on the stats', () => {
  it('previous_year compares with the same days a year before, 02-29 included', async () => {
    const body = await ok(site_('stats?start_date=2025-02-27&end_date=2025-03-02&compare=previous_year'))
    expect(body.meta).toMatchObject({ previousStartDate: '2024-02-27', previousEndDate: '2024-03-02' })
    const current = counted('2025-02-27', '2025-03-02')
    const previous = counted('2024-02-27', '2024-03-02')
    expect(body.data.current).toMatchObject(current)
    expect(body.data.previous).toMatchObject(previous)
    expect(body.data.change.pageviews).toBeCloseTo(
      change(current.pageviews, previous.pageviews) as number,
      12,
    )
    expect(body.data.change.visitors).toBeCloseTo(change(current.visitors, previous.visitors) as number, 12)
  })

  it('previous_year of 02-29 is 02-28 of the year before', async () => {
    const body = await ok(site_('stats?start_date=2024-02-29&end_date=2024-02-29&compare=previous_year'))
    expect(body.meta).toMatchObject({ previousStartDate: '2023-02-28', previousEndDate: '2023-02-28' })
    expect(body.data.current).toMatchObject(counted('2024-02-29', '2024-02-29'))
    expect(body.data.previous).toMatchObject(counted('2023-02-28', '2023-02-28'))
  })

  it('custom compares with the days named, moved onto the weekdays with match_day_of_week', async () => {
    const custom = await ok(
      site_(
        'stats?start_date=2025-03-01&end_date=2025-03-02&compare=custom' +
          '&compare_start_date=2023-02-25&compare_end_date=2023-02-27',
      ),
    )
    expect(custom.meta).toMatchObject({ previousStartDate: '2023-02-25', previousEndDate: '2023-02-27' })
    expect(custom.data.previous).toMatchObject(counted('2023-02-25', '2023-02-27'))
    // 2025-03-01 is a Saturday, 2023-02-25 a Saturday too: nothing moves. Asked from Sunday 02-26,
    // the nearest Saturday is a day earlier.
    const matched = await ok(
      site_(
        'stats?start_date=2025-03-01&end_date=2025-03-02&compare=custom&match_day_of_week=true' +
          '&compare_start_date=2023-02-26&compare_end_date=2023-02-27',
      ),
    )
    expect(matched.meta).toMatchObject({ previousStartDate: '2023-02-25', previousEndDate: '2023-02-26' })
    expect(matched.data.previous).toMatchObject(counted('2023-02-25', '2023-02-26'))
  })

  it('previous_period with match_day_of_week moves the days before back onto the weekdays', async () => {
    // Saturday 2025-03-01..Monday 03-03; three days before start on Wednesday 02-26, back to Saturday 02-22.
    const body = await ok(site_('stats?start_date=2025-03-01&end_date=2025-03-03&match_day_of_week=true'))
    expect(body.meta).toMatchObject({ previousStartDate: '2025-02-22', previousEndDate: '2025-02-24' })
    expect(body.data.previous).toMatchObject(counted('2025-02-22', '2025-02-24'))
  })

  it('none answers the range alone', async () => {
    const body = await ok(site_('stats?start_date=2025-02-27&end_date=2025-03-02&compare=none&bucket=day'))
    expect(Object.keys(body.data).sort()).toEqual(['current', 'series'])
    expect(body.meta).not.toHaveProperty('previousStartDate')
    expect(body.data.current).toMatchObject(counted('2025-02-27', '2025-03-02'))
    expect(body.data.series[0]).not.toHaveProperty('previous')
  })
})

describe('compare on the series', () => {
  it('aligns the compared buckets by position, the leap day among them', async () => {
    const body = await ok(
      site_(
        'series?start_date=2025-02-27&end_date=2025-03-02&bucket=day&compare=previous_year&metrics=pageviews',
      ),
    )
    expect(body.meta).toMatchObject({ previousStartDate: '2024-02-27', previousEndDate: '2024-03-02' })
    // Four days against five: each of the four with the compared day at its position.
    const days = ['2025-02-27', '2025-02-28', '2025-03-01', '2025-03-02']
    const compared = ['2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01']
    expect(body.data).toEqual(
      days.map((day, i) => ({
        time: `${day}T00:00:00.000Z`,
        pageviews: counted(day, day).pageviews,
        previous: {
          time: `${compared[i]}T00:00:00.000Z`,
          pageviews: counted(compared[i] as string, compared[i] as string).pageviews,
        },
      })),
    )
  })

  it('a compared range shorter than the range leaves the later points null', async () => {
    const body = await ok(
      site_(
        'series?start_date=2025-02-27&end_date=2025-03-01&bucket=day&metrics=visitors&compare=custom' +
          '&compare_start_date=2023-03-02&compare_end_date=2023-03-03',
      ),
    )
    expect(body.data.map((p: { previous: unknown }) => p.previous)).toEqual([
      { time: '2023-03-02T00:00:00.000Z', visitors: counted('2023-03-02', '2023-03-02').visitors },
      { time: '2023-03-03T00:00:00.000Z', visitors: counted('2023-03-03', '2023-03-03').visitors },
      null,
    ])
  })

  it('without compare the series stays as it was', async () => {
    const body = await ok(
      site_('series?start_date=2025-02-27&end_date=2025-02-28&bucket=day&metrics=pageviews'),
    )
    expect(body.data[0]).toEqual({
      time: '2025-02-27T00:00:00.000Z',
      pageviews: counted('2025-02-27', '2025-02-27').pageviews,
    })
    expect(body.meta).not.toHaveProperty('previousStartDate')
  })
})

describe('compare on the breakdowns', () => {
  it('each page carries its counts over the compared range and the change', async () => {
    const body = await ok(
      site_('breakdown/pages?start_date=2025-02-25&end_date=2025-03-03&compare=previous_year'),
    )
    expect(body.meta).toMatchObject({ previousStartDate: '2024-02-25', previousEndDate: '2024-03-03' })
    expect(body.data.map((row: { value: string }) => row.value).sort()).toEqual([...PATHS].sort())
    for (const row of body.data) {
      const current = counted('2025-02-25', '2025-03-03', row.value)
      const previous = counted('2024-02-25', '2024-03-03', row.value)
      expect(row).toMatchObject(current)
      expect(row.previous).toEqual(previous)
      expect(row.change.pageviews).toBeCloseTo(change(current.pageviews, previous.pageviews) as number, 12)
      expect(row.change.visitors).toBeCloseTo(change(current.visitors, previous.visitors) as number, 12)
    }
  })

  it('a value absent from the compared range counts 0 there, its change null', async () => {
    // 2024-02-29: a visit on /pricing, then /; 2024-02-25: a visit on / alone.
    const body = await ok(
      site_(
        'breakdown/pages?start_date=2024-02-29&end_date=2024-02-29&metrics=pageviews&compare=custom' +
          '&compare_start_date=2024-02-25&compare_end_date=2024-02-25',
      ),
    )
    for (const row of body.data) {
      const previous = counted('2024-02-25', '2024-02-25', row.value).pageviews
      expect(row.previous).toEqual({ pageviews: previous })
      expect(row.change.pageviews).toEqual(change(row.pageviews, previous))
    }
    expect(body.data.some((row: { previous: { pageviews: number } }) => row.previous.pageviews === 0)).toBe(
      true,
    )
  })

  it('the report batch passes the comparison to its parts', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: site_('reports?start_date=2025-02-27&end_date=2025-03-02&compare=previous_year'),
      headers: { cookie },
      payload: { reports: [{ name: 'stats' }, { name: 'breakdown', params: { name: 'pages' } }] },
    })
    expect(response.statusCode, response.body).toBe(200)
    const { data } = response.json()
    expect(data.stats.data.previous).toMatchObject(counted('2024-02-27', '2024-03-02'))
    expect(data.breakdown.meta).toMatchObject({
      previousStartDate: '2024-02-27',
      previousEndDate: '2024-03-02',
    })
  })
})

describe('compare on v1 stats', () => {
  it('takes the same parameters', async () => {
    const body = await ok(
      `/api/v1/sites/${site.siteId}/stats?start_date=2024-02-28&end_date=2024-03-01&compare=previous_year`,
      { authorization: `Bearer ${apiKey}` },
    )
    expect(body.meta).toMatchObject({ previousStartDate: '2023-02-28', previousEndDate: '2023-03-01' })
    expect(body.data.current).toMatchObject(counted('2024-02-28', '2024-03-01'))
    expect(body.data.previous).toMatchObject(counted('2023-02-28', '2023-03-01'))
  })
})

describe('edges of the calendar', () => {
  it('compares the first days the parameters allow with the days before 1970, as empty', async () => {
    for (const query of [
      'start_date=1970-01-01&end_date=1970-01-02&compare=previous_year&bucket=day',
      'start_date=1970-01-01&end_date=1970-01-02&match_day_of_week=true&bucket=day',
      'start_date=2100-12-30&end_date=2100-12-31&compare=custom&compare_start_date=1970-01-01&compare_end_date=1970-01-02',
    ]) {
      const body = await ok(site_(`stats?${query}`))
      expect(body.data.previous).toMatchObject({ pageviews: 0, visitors: 0 })
    }
    const series = await ok(
      site_('series?start_date=1970-01-01&end_date=1970-01-02&bucket=day&compare=previous_year'),
    )
    expect(series.meta).toMatchObject({ previousStartDate: '1969-01-01', previousEndDate: '1969-01-02' })
    expect(series.data.map((p: { previous: { pageviews: number } }) => p.previous.pageviews)).toEqual([0, 0])
  })
})

describe('invalid comparisons answer 400 naming the parameter', () => {
  const cases: [string, string][] = [
    ['compare=last_month', 'compare'],
    ['compare=custom', 'compare_start_date'],
    ['compare=custom&compare_start_date=2024-01-01', 'compare_end_date'],
    ['compare=custom&compare_start_date=2024-01-05&compare_end_date=2024-01-01', 'compare_end_date'],
    ['compare=custom&compare_start_date=2024-02-30&compare_end_date=2024-03-01', 'compare_start_date'],
    ['compare=previous_year&compare_start_date=2024-01-01', 'compare_start_date'],
    ['compare_end_date=2024-01-01', 'compare_end_date'],
    ['match_day_of_week=yes', 'match_day_of_week'],
    ['compare=none&compare=custom', 'compare'],
  ]
  for (const [query, name] of cases) {
    it(`${query} -> ${name}`, async () => {
      for (const path of [
        site_(`stats?${query}`),
        site_(`breakdown/pages?${query}`),
        site_(`series?bucket=day&${query}`),
      ]) {
        const response = await get(path)
        expect(response.statusCode, response.body).toBe(400)
        const answer = response.json()
        expect(answer.error).toMatch(/^Invalid /)
        expect(answer.error).toContain(name)
        expect(Object.keys(answer.details.fieldErrors)[0]).toBe(name)
      }
    })
  }
})
