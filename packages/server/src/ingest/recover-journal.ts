/**
 * Crash recovery for the ingest journal: the rows of every leftover segment that the events store does
 * not hold yet (matched by event_id within the segment's sites and time range) are inserted, then the
 * segment is deleted. Rows in the store already (inserted before the crash) are not inserted twice, and
 * rows of sites deleted meanwhile are dropped.
 */

import fs from 'node:fs'
import { storedEventIds } from '../query/stored-event-ids.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { readLeftoverSegments } from './journal.js'

export interface RecoveryReport {
  segments: number
  rows: number
  inserted: number
  alreadyStored: number
  tornLines: number
  /** Rows of sites deleted since they were journaled: not inserted. */
  deletedSites: number
}

/** @throws when the events store cannot be read or written (start-up should then fail) */
export async function recoverJournal(
  dir: string,
  events: EventsStore,
  options: { existingSites?: (siteIds: number[]) => Promise<Set<number>>; chunkRows?: number } = {},
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
    }
    fs.rmSync(segment.path, { force: true })
  }
  return report
}
