/** Retention's SQL, pinned, and run on real chDB: exactly the rows before the cutoff, of one site only. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventRow } from '../storage/events/event-row.fixture.js'
import { countExpiredEvents, deleteExpiredEvents, expiredEventsSql } from './expired-events.js'
import { openReportStore, SITE } from './report-data.fixture.js'
import { countSiteEvents } from './site-events.js'

const OTHER = SITE + 1
const CUTOFF = Date.parse('2026-03-01T00:00:00.000Z')
const at = (site: number, timestamp: string) => eventRow({ site_id: site, timestamp })
const rows = [
  at(SITE, '2025-12-31T23:59:59.999Z'),
  at(SITE, '2026-02-28T23:59:59.999Z'),
  at(SITE, '2026-03-01T00:00:00.000Z'),
  at(SITE, '2026-03-15T12:00:00.000Z'),
  at(OTHER, '2026-01-10T00:00:00.000Z'),
]

let store: Awaited<ReturnType<typeof openReportStore>>
beforeAll(async () => {
  store = await openReportStore(rows)
})
afterAll(() => store.close())

describe('expired events', () => {
  it('binds the site and the cutoff', () => {
    expect(expiredEventsSql(SITE, CUTOFF)).toEqual({
      count:
        "SELECT count() AS count FROM events WHERE site_id = {site:UInt32} AND timestamp < {cutoff:DateTime64(3, 'UTC')}",
      delete:
        "DELETE FROM events WHERE site_id = {site:UInt32} AND timestamp < {cutoff:DateTime64(3, 'UTC')}",
      params: { site: SITE, cutoff: '2026-03-01 00:00:00.000' },
    })
  })

  it("counts and deletes exactly the site's events before the cutoff", async () => {
    expect(await countExpiredEvents(store.events, SITE, CUTOFF)).toBe(2)
    await deleteExpiredEvents(store.events, SITE, CUTOFF)
    expect(await countExpiredEvents(store.events, SITE, CUTOFF)).toBe(0)
    const left = await store.events.query<{ timestamp: string }>(
      'SELECT timestamp FROM events WHERE site_id = {site:UInt32} ORDER BY timestamp',
      { site: SITE },
    )
    expect(left.map((r) => r.timestamp)).toEqual(['2026-03-01 00:00:00.000', '2026-03-15 12:00:00.000'])
    expect(await countSiteEvents(store.events, OTHER)).toBe(1)
  })
})
