/**
 * `include.imports` of the Query API through the real app: a site with Plausible's CSV export imported
 * (the ZIP built from `transfer/plausible-export.fixture/`, February 2024) and own events from
 * 20 February on (NDJSON). Every figure is compared with sums computed here from the CSV text (the
 * days before the first own event's day in the time zone) plus a plain-code count over the own lines,
 * in UTC and America/New_York; the skip reasons are Plausible's.
 */
import fs from 'node:fs'
import { strToU8, zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { queryApiClient } from './query-api-client.fixture.js'
import { dayOf, exportedLine, fixtureEvents, midnightIn, sessionsIn } from './query-api-events.fixture.js'

const NOW = Date.parse('2024-04-15T12:00:00.000Z')
const FOLDER = new URL('../transfer/plausible-export.fixture/', import.meta.url)
const FILES = Object.fromEntries(
  fs.readdirSync(FOLDER).map((name) => [name, fs.readFileSync(new URL(name, FOLDER), 'utf8')]),
)
const zip = Buffer.from(
  zipSync(Object.fromEntries(Object.entries(FILES).map(([name, text]) => [name, strToU8(text)]))),
)

/** The rows of one CSV table of the fixture (quoted fields with commas). */
function rowsOf(table: string): Record<string, string>[] {
  const text = Object.entries(FILES).find(([name]) => name.startsWith(`${table}_`))?.[1] ?? ''
  const split = (line: string) => {
    const fields: string[] = []
    let field = ''
    let quoted = false
    for (const c of line) {
      if (c === '"') quoted = !quoted
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

const own = fixtureEvents({
  seed: 11,
  startMs: Date.parse('2024-02-20T02:00:00Z'),
  days: 5,
  sessions: 150,
  visitors: 60,
})

let t: TestInstance
let site: Site
let bare: Site
let key: string

beforeAll(async () => {
  t = await openTestInstance({ clock: () => NOW })
  const seeded = await t.seed()
  site = seeded.site
  key = seeded.apiKey
  const imported = await t.app.inject({
    method: 'POST',
    url: `/api/sites/${site.siteId}/import?format=plausible`,
    headers: { cookie: seeded.cookie, 'content-type': 'application/zip' },
    payload: zip,
  })
  expect(imported.statusCode, imported.body).toBe(200)
  const lines = await t.app.inject({
    method: 'POST',
    url: `/api/sites/${site.siteId}/import`,
    headers: { cookie: seeded.cookie, 'content-type': 'application/x-ndjson' },
    payload: `${own.map(exportedLine).join('\n')}\n`,
  })
  expect(lines.statusCode, lines.body).toBe(200)
  bare = await t.createSite(seeded.cookie, seeded.organizationId, 'bare.example.com')
}, 120_000)
afterAll(() => t?.close())

const { answer } = queryApiClient(() => ({ t, key, siteId: site.siteId }), {
  date_range: ['2024-02-01', '2024-02-29'],
})

/** The day of the first own event in the zone: imported days before it count. */
const firstDays = new Map<string, string>()
const firstOwnDay = (timeZone: string) => {
  const known = firstDays.get(timeZone)
  if (known !== undefined) return known
  const day = own.map((e) => dayOf(e.timestamp, timeZone)).sort()[0] as string
  firstDays.set(timeZone, day)
  return day
}
const importedDays = (timeZone: string) =>
  rowsOf('imported_visitors').filter((row) => (row.date ?? '') < firstOwnDay(timeZone))
const sum = (rows: readonly Record<string, string>[], column: string) =>
  rows.reduce((n, row) => n + Number(row[column]), 0)
const monthSessions = (timeZone: string) =>
  sessionsIn(own, midnightIn('2024-02-01', timeZone), midnightIn('2024-03-01', timeZone))

describe('POST /api/v2/query with include.imports', () => {
  for (const timeZone of ['UTC', 'America/New_York']) {
    it(`adds the imported days before the first own day to the totals (${timeZone})`, async () => {
      const body = await answer({
        metrics: ['visitors', 'visits', 'pageviews', 'events', 'bounce_rate', 'visit_duration'],
        time_zone: timeZone,
        include: { imports: true },
      })
      const days = importedDays(timeZone)
      const sessions = monthSessions(timeZone)
      const ownVisits = sessions.length
      const ownBounces = sessions.filter((s) => s.events.length === 1).length
      const ownDuration = sessions
        .map((s) => {
          const times = s.events.map((e) => Date.parse(e.timestamp))
          return Math.floor((Math.max(...times) - Math.min(...times)) / 1000)
        })
        .reduce((a, b) => a + b, 0)
      const customBefore = rowsOf('imported_custom_events').filter(
        (row) => (row.date ?? '') < firstOwnDay(timeZone),
      )
      const visits = sum(days, 'visits') + ownVisits
      expect(body.meta).toMatchObject({ imports_included: true })
      expect(body.meta.imports_skip_reason).toBeUndefined()
      // Bounce rate and duration: bounces and seconds of both sides over all visits.
      expect(body.results).toEqual([
        {
          dimensions: [],
          metrics: [
            sum(days, 'visitors') + new Set(sessions.map((s) => s.first.userId)).size,
            visits,
            sum(days, 'pageviews') +
              sessions.flatMap((s) => s.events).filter((e) => e.type === 'pageview').length,
            sum(days, 'pageviews') + sum(customBefore, 'events') + sessions.flatMap((s) => s.events).length,
            Math.round((100 * (ownBounces + sum(days, 'bounces'))) / visits),
            Math.round((ownDuration + sum(days, 'visit_duration')) / visits),
          ],
        },
      ])
    })

    it(`adds imported visitors per day and per country (${timeZone})`, async () => {
      const byDay = await answer({
        metrics: ['visitors', 'pageviews'],
        dimensions: ['time:day'],
        time_zone: timeZone,
        include: { imports: true },
      })
      const expected = new Map<string, [number, number]>()
      for (const row of importedDays(timeZone)) {
        expected.set(row.date ?? '', [Number(row.visitors), Number(row.pageviews)])
      }
      const ownByDay = new Map<string, { visitors: Set<string>; pageviews: number }>()
      for (const session of monthSessions(timeZone)) {
        for (const event of session.events) {
          const day = dayOf(event.timestamp, timeZone)
          const seen = ownByDay.get(day) ?? { visitors: new Set<string>(), pageviews: 0 }
          seen.visitors.add(event.userId)
          if (event.type === 'pageview') seen.pageviews += 1
          ownByDay.set(day, seen)
        }
      }
      for (const [day, seen] of ownByDay) expected.set(day, [seen.visitors.size, seen.pageviews])
      expect(
        new Map(
          byDay.results.map((r: { dimensions: string[]; metrics: number[] }) => [r.dimensions[0], r.metrics]),
        ),
      ).toEqual(new Map([...expected].map(([day, figures]) => [day, figures])))

      const byCountry = await answer({
        metrics: ['visitors'],
        dimensions: ['visit:country'],
        time_zone: timeZone,
        include: { imports: true, total_rows: true },
        pagination: { limit: 3 },
      })
      const countries = new Map<string, number>()
      for (const row of rowsOf('imported_locations')) {
        if ((row.date ?? '') >= firstOwnDay(timeZone)) continue
        const code = (row.country ?? '').toUpperCase()
        countries.set(code, (countries.get(code) ?? 0) + Number(row.visitors))
      }
      const ownCountry = new Map<string, Set<string>>()
      for (const session of monthSessions(timeZone)) {
        const seen = ownCountry.get(session.first.country) ?? new Set<string>()
        seen.add(session.first.userId)
        ownCountry.set(session.first.country, seen)
      }
      for (const [code, seen] of ownCountry) countries.set(code, (countries.get(code) ?? 0) + seen.size)
      const ranked = [...countries].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      expect(byCountry.meta.total_rows).toBe(ranked.length)
      expect(byCountry.results).toEqual(
        ranked.slice(0, 3).map(([code, visitors]) => ({ dimensions: [code], metrics: [visitors] })),
      )
    })
  }

  it('answers own figures with Plausible skip reasons where imports cannot apply', async () => {
    const filtered = await answer({
      metrics: ['visitors'],
      filters: [['is', 'visit:country', ['DE']]],
      include: { imports: true },
    })
    const ownDe = new Set(
      monthSessions('UTC')
        .filter((s) => s.first.country === 'DE')
        .map((s) => s.first.userId),
    ).size
    expect(filtered.results).toEqual([{ dimensions: [], metrics: [ownDe] }])
    expect(filtered.meta).toMatchObject({
      imports_included: false,
      imports_skip_reason: 'unsupported_query',
      imports_warning: expect.stringContaining('not supported'),
    })
    const hourly = await answer({
      metrics: ['visitors'],
      dimensions: ['time:hour'],
      include: { imports: true },
    })
    expect(hourly.meta).toMatchObject({
      imports_included: false,
      imports_skip_reason: 'unsupported_interval',
    })
    const vitals = await answer({ metrics: ['visitors', 'lcp_p75'], include: { imports: true } })
    expect(vitals.meta.imports_skip_reason).toBe('unsupported_query')
    const january = await answer({
      metrics: ['visitors'],
      date_range: ['2024-01-01', '2024-01-31'],
      include: { imports: true },
    })
    expect(january.meta).toMatchObject({ imports_included: false, imports_skip_reason: 'out_of_range' })
    const after = await answer({
      metrics: ['visitors'],
      date_range: ['2024-02-21', '2024-02-29'],
      include: { imports: true },
    })
    expect(after.meta.imports_skip_reason).toBe('out_of_range')
    const none = await answer({ site_id: bare.siteId, metrics: ['visitors'], include: { imports: true } })
    expect(none.meta).toMatchObject({ imports_included: false, imports_skip_reason: 'no_imported_data' })
    const notAsked = await answer({ metrics: ['visitors'] })
    expect(notAsked.meta.imports_included).toBe(false)
    expect(notAsked.meta.imports_skip_reason).toBeUndefined()
    expect(notAsked.results[0].metrics[0]).toBe(new Set(monthSessions('UTC').map((s) => s.first.userId)).size)
  })
})
