/**
 * Occurrences of one error message on real chDB with the fixture of `report-data.fixture.ts`: SQL
 * pinned, every ErrorEvent field checked, order, limit and filters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventsStore } from '../storage/events/events-store.js'
import { compileErrorEvents, queryErrorEvents } from './error-events.js'
import { filtersParam, marchScope, openReportStore, SITE, TYPE_ERROR } from './report-data.fixture.js'

let store: Awaited<ReturnType<typeof openReportStore>>
let events: EventsStore
beforeAll(async () => {
  store = await openReportStore()
  events = store.events
})
afterAll(() => store.close())

const SCOPE =
  "site_id = {site:UInt32} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')}"

const inS4 = {
  timestamp: '2026-03-15T20:00:15.000Z',
  session_id: 's4',
  user_id: 'u3',
  pathname: '/',
  hostname: 'example.com',
  browser: 'Safari',
  browser_version: '17.4',
  operating_system: 'iOS',
  device_type: 'mobile',
  country: 'DE',
  message: TYPE_ERROR,
  stack: 'TypeError: x\n    at h (main.js:7:2)',
  fileName: 'https://example.com/main.js',
  lineNumber: 7,
  columnNumber: 2,
}
const inS3 = {
  timestamp: '2026-03-11T14:00:20.000Z',
  session_id: 's3',
  user_id: 'u2',
  pathname: '/pricing',
  hostname: 'example.com',
  browser: 'Firefox',
  browser_version: '124.0',
  operating_system: 'macOS',
  device_type: 'desktop',
  country: 'GB',
  message: TYPE_ERROR,
  stack: "TypeError: Cannot read properties of undefined (reading 'x')\n    at f (app.js:10:5)",
  fileName: 'https://example.com/app.js',
  lineNumber: 10,
  columnNumber: 5,
}

describe('compileErrorEvents', () => {
  it('pins the SQL and parameters', () => {
    expect(compileErrorEvents(marchScope({ limit: '10' }), TYPE_ERROR)).toEqual({
      sql: [
        'SELECT timestamp, session_id, user_id, pathname, hostname, browser, browser_version, operating_system, device_type, country, error_message, error_stack, error_file, error_line, error_column, count() OVER () AS total_events',
        'FROM events',
        `WHERE ${SCOPE} AND type = 'error' AND error_message = {message:String}`,
        'ORDER BY timestamp DESC, toUInt128(event_id) DESC',
        'LIMIT {limit:UInt32} OFFSET {offset:UInt32}',
      ].join('\n'),
      params: {
        site: SITE,
        from: '2026-03-01 00:00:00.000',
        to: '2026-04-01 00:00:00.000',
        message: TYPE_ERROR,
        limit: 10,
        offset: 0,
      },
    })
  })
})

describe('queryErrorEvents', () => {
  it('lists the occurrences of a message newest first with every field', async () => {
    expect((await queryErrorEvents(events, marchScope(), TYPE_ERROR)).data).toEqual([inS4, inS3])
  })

  it('limits, filters, and matches the message exactly', async () => {
    expect(await queryErrorEvents(events, marchScope({ limit: '1' }), TYPE_ERROR)).toEqual({
      data: [inS4],
      total: 2,
    })
    const gb = marchScope(filtersParam(['country', 'equals', ['GB']]))
    expect((await queryErrorEvents(events, gb, TYPE_ERROR)).data).toEqual([inS3])
    expect((await queryErrorEvents(events, marchScope(), TYPE_ERROR.toUpperCase())).data).toEqual([])
    expect((await queryErrorEvents(events, marchScope(), "x' OR 1=1 --")).data).toEqual([])
  })
})
