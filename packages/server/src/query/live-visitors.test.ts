/** Live visitors on real chDB: the window's edges to the millisecond, visitors counted once. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventRow } from '../storage/events/event-row.fixture.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { compileLiveVisitors, queryLiveVisitors } from './live-visitors.js'
import { openReportStore, SITE } from './report-data.fixture.js'

const NOW = Date.parse('2026-03-10T12:00:00.000Z')
const at = (user_id: string, timestamp: string, site_id = SITE) =>
  eventRow({ site_id, user_id, session_id: `${user_id}-s`, timestamp })

let store: Awaited<ReturnType<typeof openReportStore>>
let events: EventsStore
beforeAll(async () => {
  store = await openReportStore([
    at('gone', '2026-03-10T11:55:00.000Z'), // exactly 5 minutes ago: out
    at('edge', '2026-03-10T11:55:00.001Z'), // in
    at('twice', '2026-03-10T11:58:00.000Z'), // in, with a second event: one visitor
    at('twice', '2026-03-10T12:00:00.000Z'), // now: in
    at('future', '2026-03-10T12:00:00.001Z'), // after now: out
    at('other', '2026-03-10T11:59:00.000Z', 8), // another site: out
  ])
  events = store.events
})
afterAll(() => store.close())

describe('live visitors', () => {
  it('pins the SQL', () => {
    expect(compileLiveVisitors(SITE, NOW)).toEqual({
      sql: [
        'SELECT uniqExact(cityHash64(user_id)) AS visitors',
        'FROM events',
        "WHERE site_id = {site:UInt32} AND timestamp > {from:DateTime64(3, 'UTC')}",
        "  AND timestamp <= {to:DateTime64(3, 'UTC')}",
      ].join('\n'),
      params: { site: SITE, from: '2026-03-10 11:55:00.000', to: '2026-03-10 12:00:00.000' },
    })
  })

  it('counts distinct visitors with an event in the last five minutes', async () => {
    expect(await queryLiveVisitors(events, SITE, NOW)).toEqual({
      visitors: 2,
      from: '2026-03-10T11:55:00.000Z',
      to: '2026-03-10T12:00:00.000Z',
    })
    expect((await queryLiveVisitors(events, SITE, NOW + 5 * 60_000 - 1)).visitors).toBe(2) // twice, future
    expect((await queryLiveVisitors(events, SITE, NOW + 5 * 60_000)).visitors).toBe(1) // future
    expect((await queryLiveVisitors(events, SITE, NOW - 60 * 60_000)).visitors).toBe(0)
  })
})
