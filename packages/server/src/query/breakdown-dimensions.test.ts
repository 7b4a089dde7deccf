/**
 * The breakdowns added for the dashboard (regions, cities, languages, UTM parameters) on real chDB with
 * the fixture of `report-data.fixture.ts`: event dimensions, counted like countries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventsStore } from '../storage/events/events-store.js'
import { compileBreakdown, queryBreakdown } from './breakdown.js'
import { filtersParam, marchScope, openReportStore } from './report-data.fixture.js'

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
  it('group events by their own column', () => {
    for (const [name, column] of [
      ['regions', 'region'],
      ['cities', 'city'],
      ['languages', 'language'],
      ['utm_source', 'utm_source'],
      ['utm_medium', 'utm_medium'],
      ['utm_campaign', 'utm_campaign'],
    ] as const) {
      expect(compileBreakdown({ ...marchScope(), rollups: false }, name).sql).toMatch(
        new RegExp(`^SELECT ${column} AS value, `),
      )
    }
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
