/**
 * One record of an import source as the importer takes it (`import-events.ts`): raw tracking fields
 * to enrich, a stored row to take as is, a record the source holds but that has no place among the
 * events (counted under `dropped` by its reason), or the reason the record is unusable. `line` numbers records
 * from 1 in the body (lines of NDJSON, rows of CSV after the header).
 */
import type { EventRow } from '../storage/events/event-row.js'

/** An event row without its site (the import's path names the site). */
export type StoredEvent = Omit<EventRow, 'site_id'>

export type ImportEntry =
  | { line: number; raw: Record<string, unknown> }
  | { line: number; stored: StoredEvent }
  | { line: number; dropped: string }
  | { line: number; error: string }
