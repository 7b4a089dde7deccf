/**
 * The export of a site (`GET /api/sites/{siteId}/export`): NDJSON, one line per stored event in the
 * range, oldest first, each line an `ExportedEvent` (`exported-event.ts`) that the import takes back
 * as is. Produced a page at a time, so memory stays flat whatever the history's size.
 */
import type { SqlFragment } from '../query/compiled-query.js'
import { EXPORT_PAGE_ROWS, type ExportCursor, type ExportRange, exportPage } from '../query/export-events.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { toExportedEvent } from './exported-event.js'

/**
 * The export's text, a chunk per page of events (each chunk whole lines ending in `\n`).
 * @param selection compiled event filters the exported events pass, or null for every event
 * @throws when the events store fails mid-way (the lines sent so far are a prefix of the export)
 */
export async function* exportEvents(
  events: EventsStore,
  siteId: number,
  range: ExportRange,
  selection: SqlFragment | null = null,
): AsyncGenerator<string> {
  let after: ExportCursor | null = null
  for (;;) {
    const rows = await exportPage(events, siteId, range, after, EXPORT_PAGE_ROWS, selection)
    if (rows.length === 0) return
    let chunk = ''
    for (const row of rows) chunk += `${JSON.stringify(toExportedEvent(row))}\n`
    yield chunk
    if (rows.length < EXPORT_PAGE_ROWS) return
    const last = rows[rows.length - 1] as (typeof rows)[number]
    after = { timestamp: last.timestamp, eventId: last.event_id }
  }
}
