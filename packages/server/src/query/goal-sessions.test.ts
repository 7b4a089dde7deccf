/**
 * Converted sessions on real chDB with the fixture of `report-data.fixture.ts`: SQL pinned, every
 * Session field checked by hand, order, pagination and filters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventsStore } from '../storage/events/events-store.js'
import { compileGoalSessions, queryGoalSessions } from './goal-sessions.js'
import { EVENT_ORDER_KEY } from './metrics.js'
import { filtersParam, marchScope, openReportStore, SITE } from './report-data.fixture.js'

let store: Awaited<ReturnType<typeof openReportStore>>
let events: EventsStore
beforeAll(async () => {
  store = await openReportStore()
  events = store.events
})
afterAll(() => store.close())

const SCOPE =
  "site_id = {site:UInt32} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')}"
const signup = { goalType: 'event', config: { eventName: 'signup' } } as const

const s1 = {
  session_id: 's1',
  user_id: 'u1',
  country: 'US',
  browser: 'Chrome',
  operating_system: 'Windows',
  device_type: 'desktop',
  entry_page: '/',
  exit_page: '/docs/intro',
  pageviews: 3,
  session_duration: 125,
  session_start: '2026-03-10T10:00:00.000Z',
  session_end: '2026-03-10T10:02:05.900Z',
  referrer: 'https://www.google.com/search?q=pathlight',
  channel: 'Organic Search',
}
const s3 = {
  session_id: 's3',
  user_id: 'u2',
  country: 'GB',
  browser: 'Firefox',
  operating_system: 'macOS',
  device_type: 'desktop',
  entry_page: '/pricing',
  exit_page: '/checkout',
  pageviews: 2,
  session_duration: 330,
  session_start: '2026-03-11T14:00:00.000Z',
  session_end: '2026-03-11T14:05:30.000Z',
  referrer: '',
  channel: 'Direct',
}

describe('compileGoalSessions', () => {
  it('pins the SQL and parameters', () => {
    const scope = marchScope({ ...filtersParam(['browser', 'equals', ['Chrome']]), limit: '5', page: '2' })
    expect(compileGoalSessions(scope, { goalType: 'path', config: { pathPattern: '/blog/*' } })).toEqual({
      sql: [
        'SELECT *, count() OVER () AS total_sessions FROM (',
        `SELECT cityHash64(session_id) AS session_key, any(session_id) AS session_uuid, any(user_id) AS visitor_id, argMin(country, ${EVENT_ORDER_KEY}) AS entry_country, argMin(browser, ${EVENT_ORDER_KEY}) AS entry_browser, argMin(operating_system, ${EVENT_ORDER_KEY}) AS entry_operating_system, argMin(device_type, ${EVENT_ORDER_KEY}) AS entry_device_type, argMinIf(pathname, ${EVENT_ORDER_KEY}, type = 'pageview') AS entry_page, argMaxIf(pathname, ${EVENT_ORDER_KEY}, type = 'pageview') AS exit_page, countIf(type = 'pageview') AS pageview_count, intDiv(toUnixTimestamp64Milli(max(timestamp)) - toUnixTimestamp64Milli(min(timestamp)), 1000) AS duration_seconds, min(timestamp) AS started_at, max(timestamp) AS ended_at, argMin(referrer, ${EVENT_ORDER_KEY}) AS entry_referrer, argMin(channel, ${EVENT_ORDER_KEY}) AS entry_channel`,
        'FROM events',
        `WHERE ${SCOPE} AND cityHash64(session_id) IN (SELECT cityHash64(session_id) FROM events WHERE ${SCOPE} AND type = 'pageview' AND startsWith(pathname, {g_path:String}))`,
        'GROUP BY session_key',
        'HAVING countIf(browser IN {f0:Array(String)}) > 0',
        ')',
        'ORDER BY started_at DESC, session_uuid DESC',
        'LIMIT {limit:UInt32} OFFSET {offset:UInt32}',
      ].join('\n'),
      params: {
        site: SITE,
        from: '2026-03-01 00:00:00.000',
        to: '2026-04-01 00:00:00.000',
        f0: ['Chrome'],
        g_path: '/blog/',
        limit: 5,
        offset: 5,
      },
    })
  })
})

describe('queryGoalSessions', () => {
  it('lists converted sessions newest first with every Session field', async () => {
    expect((await queryGoalSessions(events, marchScope(), signup)).data).toEqual([s3, s1])
  })

  it('pages, filters and leaves out sessions outside the range', async () => {
    expect(await queryGoalSessions(events, marchScope({ limit: '1', page: '2' }), signup)).toEqual({
      data: [s1],
      total: 2,
    })
    const us = marchScope(filtersParam(['country', 'equals', ['US']]))
    expect((await queryGoalSessions(events, us, signup)).data).toEqual([s1])
    // s2 and s6 reached a blog page; s6 (03-25) is newer. Session fields of s6: an outbound click, 45 s.
    const blog = (
      await queryGoalSessions(events, marchScope(), {
        goalType: 'path',
        config: { pathPattern: '/blog/*' },
      })
    ).data
    expect(
      blog.map((s) => [s.session_id, s.session_duration, s.pageviews, s.channel, s.device_type]),
    ).toEqual([
      ['s6', 45, 1, 'Referral', 'mobile'],
      ['s2', 0, 1, 'Organic Social', 'desktop'],
    ])
    // Only 2026-03-10: s1.
    const day = marchScope({ start_date: '2026-03-10', end_date: '2026-03-10' })
    expect((await queryGoalSessions(events, day, signup)).data).toEqual([s1])
    // s0 (02-28) viewed '/', outside the range.
    const home = (
      await queryGoalSessions(events, marchScope(), {
        goalType: 'path',
        config: { pathPattern: '/' },
      })
    ).data
    expect(home.map((s) => s.session_id)).toEqual(['s4', 's1'])
  })
})
