/**
 * The breakdowns added for the dashboard (regions, cities, languages, UTM parameters) on real chDB with
 * the fixture of `report-data.fixture.ts`: regions, cities and languages are event dimensions, counted
 * like countries; the UTM parameters are the session's landing page's, counted like channels.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventRow } from '../storage/events/event-row.fixture.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { compileBreakdown, queryBreakdown } from './breakdown.js'
import { EVENT_ORDER_KEY } from './metrics.js'
import { filtersParam, marchScope, openReportStore, SITE } from './report-data.fixture.js'
import type { ReportScope } from './report-scope.js'

let store: Awaited<ReturnType<typeof openReportStore>>
let events: EventsStore
beforeAll(async () => {
  store = await openReportStore()
  events = store.events
})
afterAll(() => store.close())

const r = (value: string, visitors: number, sessions: number, pageviews: number) => ({
  value,
  visitors,
  sessions,
  pageviews,
})

describe('added breakdowns', () => {
  it('group events by their own column, and sessions by their first event’s UTM tags', () => {
    for (const [name, column] of [
      ['regions', 'region'],
      ['cities', 'city'],
      ['languages', 'language'],
      ['utm_source', 'entry_utm_source'],
      ['utm_medium', 'entry_utm_medium'],
      ['utm_campaign', 'entry_utm_campaign'],
    ] as const) {
      expect(compileBreakdown({ ...marchScope(), rollups: false }, name).sql).toMatch(
        new RegExp(`^SELECT ${column} AS value, `),
      )
    }
    expect(compileBreakdown(marchScope(), 'utm_campaign').sql).toContain(
      `argMin(utm_campaign, ${EVENT_ORDER_KEY}) AS entry_utm_campaign`,
    )
  })

  it('count regions, cities and languages', async () => {
    // u1 California/San Francisco (s1, s2: 4 pageviews), u2 England/London (s3: 2), u3 Berlin (s4, s5:
    // 1), u4 New York (s6: 1).
    expect(await queryBreakdown(events, marchScope(), 'regions')).toEqual({
      rows: [r('Berlin', 1, 2, 1), r('California', 1, 2, 4), r('England', 1, 1, 2), r('New York', 1, 1, 1)],
      total: 4,
    })
    expect(await queryBreakdown(events, marchScope(), 'cities')).toEqual({
      rows: [r('Berlin', 1, 2, 1), r('London', 1, 1, 2), r('New York', 1, 1, 1), r('San Francisco', 1, 2, 4)],
      total: 4,
    })
    expect(await queryBreakdown(events, marchScope(), 'languages')).toEqual({
      rows: [r('en-US', 2, 3, 5), r('de-DE', 1, 2, 1), r('en-GB', 1, 1, 2)],
      total: 3,
    })
    const us = marchScope(filtersParam(['country', 'equals', ['US']]))
    expect(await queryBreakdown(events, us, 'cities')).toEqual({
      rows: [r('New York', 1, 1, 1), r('San Francisco', 1, 2, 4)],
      total: 2,
    })
  })

  it('show events without UTM parameters as the empty value', async () => {
    expect(await queryBreakdown(events, marchScope(), 'utm_source')).toEqual({
      rows: [r('', 4, 6, 8)],
      total: 1,
    })
  })
})

describe('UTM breakdowns', () => {
  // v1 lands tagged (newsletter / email / spring) and reads a second page without the tags; v2 and v3
  // come untagged; v3's second session lands tagged (ads / cpc / spring) after an untagged one.
  const tagged = (source: string, medium: string) => ({
    utm_source: source,
    utm_medium: medium,
    utm_campaign: 'spring',
  })
  const rows = [
    ['v1', 'a', '2026-03-10T10:00:00.000Z', '/', tagged('newsletter', 'email')],
    ['v1', 'a', '2026-03-10T10:00:11.600Z', '/pricing', {}],
    ['v2', 'b', '2026-03-10T11:00:00.000Z', '/', {}],
    ['v3', 'c', '2026-03-11T09:00:00.000Z', '/', {}],
    ['v3', 'd', '2026-03-12T09:00:00.000Z', '/docs', tagged('ads', 'cpc')],
    ['v3', 'd', '2026-03-12T09:01:00.000Z', '/pricing', {}],
  ] as const
  // A site of its own in the same store (chDB opens one data directory per process).
  const UTM_SITE = SITE + 2
  beforeAll(() =>
    events.insert(
      rows.map(([user_id, session_id, timestamp, pathname, tags]) =>
        eventRow({ site_id: UTM_SITE, user_id, session_id, timestamp, pathname, ...tags }),
      ),
    ),
  )
  const utmScope = (): ReportScope => ({ ...marchScope(), siteId: UTM_SITE })

  /** Visitors, sessions and pageviews per landing value of `field`, counted from `rows`. */
  const expected = (field: 'utm_source' | 'utm_medium' | 'utm_campaign') => {
    const sessions = new Map<string, { visitor: string; value: string; pageviews: number }>()
    for (const [visitor, session, , , tags] of rows) {
      const seen = sessions.get(session)
      const value = (tags as Partial<Record<typeof field, string>>)[field] ?? ''
      if (seen) seen.pageviews += 1
      else sessions.set(session, { visitor, value, pageviews: 1 })
    }
    const byValue = new Map<string, { visitors: Set<string>; sessions: number; pageviews: number }>()
    for (const { visitor, value, pageviews } of sessions.values()) {
      const row = byValue.get(value) ?? { visitors: new Set(), sessions: 0, pageviews: 0 }
      row.visitors.add(visitor)
      row.sessions += 1
      row.pageviews += pageviews
      byValue.set(value, row)
    }
    return [...byValue]
      .map(([value, row]) => r(value, row.visitors.size, row.sessions, row.pageviews))
      .sort((a, b) => b.visitors - a.visitors || (a.value < b.value ? -1 : 1))
  }

  it('count each session once, under its landing page’s tags, so the rows add up to the sessions', async () => {
    expect(expected('utm_source')).toEqual([r('', 2, 2, 2), r('ads', 1, 1, 2), r('newsletter', 1, 1, 2)])
    for (const name of ['utm_source', 'utm_medium', 'utm_campaign'] as const) {
      for (const scope of [utmScope(), { ...utmScope(), rollups: false }]) {
        const breakdown = await queryBreakdown(events, scope, name)
        expect(breakdown.rows, name).toEqual(expected(name))
        const sessions = breakdown.rows.reduce((n, row) => n + (row.sessions ?? 0), 0)
        expect(sessions).toBe(new Set(rows.map(([, session]) => session)).size)
      }
    }
  })
})
