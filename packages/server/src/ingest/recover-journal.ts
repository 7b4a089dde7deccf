/**
 * Crash recovery for the ingest journal: the rows of every leftover segment that the events store does
 * not hold yet (matched by event_id within the segment's sites and time range) are inserted, then the
 * segment is deleted. Rows in the store already (inserted before the crash) are not inserted twice, and
 * rows of sites deleted meanwhile are dropped.
 *
 * `onRecovered` then sees every row of the segment (stored now, whether by this recovery or before the
 * crash) before the segment is deleted: the webhook outbox, written after the journal append, may lack
 * their facts (`webhooks/recover-ingest-facts.ts`). If it fails, recovery stops with the segment kept.
 */

import fs from 'node:fs'
import { storedEventIds } from '../query/stored-event-ids.js'
import { fromClickHouseTime } from '../storage/events/clickhouse-time.js'
import { EVENT_COLUMNS } from '../storage/events/encode-event-row.js'
import type { EventRow } from '../storage/events/event-row.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { readLeftoverSegments } from './journal.js'

/** A journaled line (as `readLeftoverSegments` gives it: an array in `EVENT_COLUMNS` order) as its whole row. */
function wholeRow(line: string): EventRow {
  const values = JSON.parse(line) as unknown[]
  const row = Object.fromEntries(EVENT_COLUMNS.map((column, i) => [column, values[i]])) as unknown as EventRow
  row.timestamp = fromClickHouseTime(row.timestamp)
  return row
}

export interface RecoveryReport {
  segments: number
  rows: number
  inserted: number
  alreadyStored: number
  tornLines: number
  /** Rows of sites deleted since they were journaled: not inserted. */
  deletedSites: number
}

export interface RecoveryOptions {
  /** Which of these sites still exist; rows of the others are dropped. Default: all. */
  existingSites?: (siteIds: number[]) => Promise<Set<number>>
  /** Rows per events-store lookup and insert (default 5,000). */
  chunkRows?: number
  /** Called with each chunk of recovered rows (oldest first) once they are stored. */
  onRecovered?: (rows: readonly EventRow[]) => Promise<void>
}

/** @throws when the events store cannot be read or written, or `onRecovered` fails (start-up should then fail) */
export async function recoverJournal(
  dir: string,
  events: EventsStore,
  options: RecoveryOptions = {},
): Promise<RecoveryReport> {
  const chunkRows = options.chunkRows ?? 5000
  const report: RecoveryReport = {
    segments: 0,
    rows: 0,
    inserted: 0,
    alreadyStored: 0,
    tornLines: 0,
    deletedSites: 0,
  }
  for (const segment of readLeftoverSegments(dir)) {
    report.segments++
    report.rows += segment.rows.length
    report.tornLines += segment.tornLines
    const live = options.existingSites
      ? await options.existingSites([...new Set(segment.rows.map(({ row }) => row.site_id))])
      : undefined
    const rows = live ? segment.rows.filter(({ row }) => live.has(row.site_id)) : segment.rows
    report.deletedSites += segment.rows.length - rows.length
    for (let i = 0; i < rows.length; i += chunkRows) {
      const chunk = rows.slice(i, i + chunkRows)
      const stored = await storedEventIds(
        events,
        chunk.map(({ row }) => row),
      )
      const missing = chunk.filter(({ row }) => !stored.has(row.event_id))
      if (missing.length > 0) await events.insertEncoded(missing.map(({ line }) => line))
      report.inserted += missing.length
      report.alreadyStored += chunk.length - missing.length
      await options.onRecovered?.(chunk.map(({ line }) => wholeRow(line)))
    }
    fs.rmSync(segment.path, { force: true })
  }
  return report
}
