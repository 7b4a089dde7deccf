/**
 * The export's pages on real chDB: every event once, in `EVENT_ORDER` (timestamp, then event id as its
 * text sorts), across pages that end in the middle of a millisecond shared by several events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventRow } from '../storage/events/event-row.fixture.js'
import type { EventRow } from '../storage/events/event-row.js'
import { type ExportCursor, exportPage } from './export-events.js'
import { openReportStore } from './report-data.fixture.js'

const SITE = 9

/** Ids whose text order differs from ClickHouse's own UUID order (which compares the last 8 bytes first). */
const ids = [
  'f0000000-0000-4000-8000-000000000000',
  '0f000000-0000-4000-8000-0000000000ff',
  '00000000-0000-4000-8000-000000000001',
  'ffffffff-ffff-4fff-bfff-fffffffffffe',
  '80000000-0000-4000-8000-000000000000',
  '7fffffff-ffff-4fff-bfff-ffffffffffff',
]

// Three instants, each shared by all six ids' events (18 rows), inserted newest and highest id first.
const rows: EventRow[] = ['2026-03-02T10:00:00.000Z', '2026-03-02T10:00:01.000Z', '2026-03-02T10:00:01.001Z']
  .flatMap((timestamp, t) =>
    ids.map((id) =>
      eventRow({ site_id: SITE, timestamp, event_id: `${id.slice(0, 35)}${t}`, pathname: `/${t}` }),
    ),
  )
  .reverse()

const byEventOrder = (a: EventRow, b: EventRow) =>
  a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.event_id < b.event_id ? -1 : 1

let store: Awaited<ReturnType<typeof openReportStore>>
beforeAll(async () => {
  store = await openReportStore(rows)
})
afterAll(() => store.close())

describe('exportPage', () => {
  it.each([1, 4, 5, 18, 100])(
    'pages through ties in (timestamp, event id) order, %i rows a page',
    async (limit) => {
      const seen: string[] = []
      let after: ExportCursor | null = null
      for (let pages = 0; pages < 50; pages++) {
        const page = await exportPage(store.events, SITE, { from: null, to: null }, after, limit)
        seen.push(...page.map((row) => row.event_id))
        if (page.length < limit) break
        const last = page.at(-1) as EventRow
        after = { timestamp: last.timestamp, eventId: last.event_id }
      }
      expect(seen).toEqual([...rows].sort(byEventOrder).map((row) => row.event_id))
    },
  )
})
