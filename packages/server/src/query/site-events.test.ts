/**
 * The whole-site facts outside the reports, on real chDB: row counts, the newest event, the month's
 * pageviews, the demo's totals and top values, stored-event lookup for recovery, and deletion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventRow } from '../storage/events/event-row.fixture.js'
import type { EventRow } from '../storage/events/event-row.js'
import { countMonthPageviews } from './month-pageviews.js'
import { pageviewTotals, topByPageviews } from './pageview-summary.js'
import { openReportStore, SITE } from './report-data.fixture.js'
import { countSiteEvents, deleteSiteEvents, lastSiteEventAt } from './site-events.js'
import { IDS_PER_QUERY, storedEventIds } from './stored-event-ids.js'

const OTHER = SITE + 1
const rows = [
  eventRow({
    site_id: SITE,
    timestamp: '2026-10-31T23:59:59.999Z',
    pathname: '/a',
    user_id: 'u1',
    session_id: 's1',
  }),
  eventRow({
    site_id: SITE,
    timestamp: '2026-11-01T00:00:00.000Z',
    pathname: '/a',
    user_id: 'u1',
    session_id: 's2',
  }),
  eventRow({
    site_id: SITE,
    timestamp: '2026-11-02T10:00:00.000Z',
    pathname: '/b',
    user_id: 'u2',
    session_id: 's3',
    country: 'DE',
  }),
  eventRow({
    site_id: SITE,
    timestamp: '2026-11-03T10:00:00.123Z',
    type: 'custom_event',
    event_name: 'signup',
    user_id: 'u3',
    session_id: 's4',
  }),
  eventRow({ site_id: OTHER, timestamp: '2026-11-05T10:00:00.000Z', pathname: '/a' }),
]

let store: Awaited<ReturnType<typeof openReportStore>>
beforeAll(async () => {
  store = await openReportStore(rows)
})
afterAll(() => store.close())

describe('site events', () => {
  it('counts every row of a site and finds its newest event', async () => {
    expect(await countSiteEvents(store.events, SITE)).toBe(4)
    expect(await lastSiteEventAt(store.events, SITE)).toBe('2026-11-03T10:00:00.123Z')
    expect(await lastSiteEventAt(store.events, 999)).toBeNull()
  })

  it('counts the pageviews of the UTC month containing an instant', async () => {
    expect(await countMonthPageviews(store.events, SITE, Date.parse('2026-11-20T00:00:00Z'))).toBe(2)
    expect(await countMonthPageviews(store.events, SITE, Date.parse('2026-10-01T00:00:00Z'))).toBe(1)
  })

  it('sums pageviews with their sessions and visitors, and ranks values by pageviews', async () => {
    expect(await pageviewTotals(store.events, SITE)).toEqual({ pageviews: 3, sessions: 3, visitors: 2 })
    expect(await topByPageviews(store.events, SITE, 'pathname', 10)).toEqual([
      { name: '/a', pageviews: 2 },
      { name: '/b', pageviews: 1 },
    ])
    expect(await topByPageviews(store.events, SITE, 'country', 1)).toEqual([{ name: 'US', pageviews: 2 }])
  })

  it('tells which rows are stored', async () => {
    const unstored = eventRow({ site_id: SITE, timestamp: '2026-11-02T10:00:00.000Z' })
    const found = await storedEventIds(
      store.events,
      [rows[1], rows[2], unstored].flatMap((r) => (r ? [r] : [])),
    )
    expect(found).toEqual(new Set([rows[1]?.event_id, rows[2]?.event_id]))
    expect(await storedEventIds(store.events, [])).toEqual(new Set())
    // More ids than one query's text holds: searched a slice at a time, stored ones in two slices.
    const many = Array.from({ length: 2 * IDS_PER_QUERY + 1 }, (_, i) =>
      eventRow({ site_id: SITE, timestamp: new Date(Date.parse('2026-11-02T00:00:00Z') + i).toISOString() }),
    )
    many.splice(10, 0, rows[1] as EventRow)
    many.push(rows[2] as EventRow)
    expect(await storedEventIds(store.events, many)).toEqual(new Set([rows[1]?.event_id, rows[2]?.event_id]))
  })

  it('deletes one site’s events only', async () => {
    await deleteSiteEvents(store.events, OTHER)
    expect(await countSiteEvents(store.events, OTHER)).toBe(0)
    expect(await countSiteEvents(store.events, SITE)).toBe(4)
  })
})
