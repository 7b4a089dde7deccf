/** One session's timeline on real chDB (`report-data.fixture.ts`): order, fields, range, paging. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventsStore } from '../storage/events/events-store.js'
import { filtersParam, marchScope, openReportStore, SITE, TYPE_ERROR } from './report-data.fixture.js'
import { compileSessionEvents, querySessionEvents } from './session-events.js'

let store: Awaited<ReturnType<typeof openReportStore>>
let events: EventsStore
beforeAll(async () => {
  store = await openReportStore()
  events = store.events
})
afterAll(() => store.close())

describe('session events', () => {
  it('pins the SQL', () => {
    expect(compileSessionEvents(marchScope({ page: '2', limit: '3' }), 's3')).toEqual({
      sql: [
        'SELECT toString(event_id) AS id, toString(timestamp) AS ts, type, session_id, user_id, hostname,',
        '  pathname, querystring, page_title, referrer, channel, event_name, properties, country, region,',
        '  city, browser, operating_system, device_type, language, error_message, lcp, cls, inp, fcp, ttfb,',
        '  count() OVER () AS total_events',
        'FROM events',
        "WHERE site_id = {site:UInt32} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')} AND session_id = {session:String}",
        'ORDER BY timestamp, toUInt128(event_id)',
        'LIMIT {limit:UInt32} OFFSET {offset:UInt32}',
      ].join('\n'),
      params: {
        site: SITE,
        from: '2026-03-01 00:00:00.000',
        to: '2026-04-01 00:00:00.000',
        session: 's3',
        limit: 3,
        offset: 3,
      },
    })
  })

  it('lists the session’s events oldest first, whatever the filters', async () => {
    // A filter that no event of s3 passes: the timeline still shows all of them.
    const scope = marchScope(filtersParam(['country', 'equals', ['US']]))
    const { data, total } = await querySessionEvents(events, scope, 's3')
    expect(total).toBe(4)
    expect(data.map((e) => [e.timestamp, e.type, e.pathname, e.eventName])).toEqual([
      ['2026-03-11T14:00:00.000Z', 'pageview', '/pricing', ''],
      ['2026-03-11T14:00:20.000Z', 'error', '/pricing', 'TypeError'],
      ['2026-03-11T14:05:00.000Z', 'pageview', '/checkout', ''],
      ['2026-03-11T14:05:30.000Z', 'custom_event', '/checkout', 'signup'],
    ])
    expect(data[1]).toMatchObject({
      sessionId: 's3',
      userId: 'u2',
      country: 'GB',
      city: 'London',
      browser: 'Firefox',
      errorMessage: TYPE_ERROR,
      lcp: null,
    })
    expect(data[3]?.properties).toEqual({ plan: 'free', seats: '3' })
  })

  it('keeps to the range and pages', async () => {
    const page = await querySessionEvents(events, marchScope({ limit: '2', page: '2' }), 's1')
    expect(page.total).toBe(4)
    expect(page.data.map((e) => e.pathname)).toEqual(['/pricing', '/docs/intro'])
    expect(page.data[0]?.type).toBe('custom_event')
    const outside = await querySessionEvents(events, marchScope({ start_date: '2026-03-11' }), 's1')
    expect(outside).toEqual({ data: [], total: 0 })
    expect((await querySessionEvents(events, marchScope(), 'nope')).total).toBe(0)
  })
})
