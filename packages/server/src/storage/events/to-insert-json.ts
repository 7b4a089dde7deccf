/**
 * Serialise event rows as JSONEachRow, the insert format both adapters send. Timestamps go out as
 * `YYYY-MM-DD hh:mm:ss.mmm` (UTC), which ClickHouse parses without best-effort parsing.
 */
import type { EventRow } from './event-row.js'

/** @returns newline-separated JSON objects, one per row, UTF-8 */
export function toInsertJson(rows: readonly EventRow[]): string {
  let out = ''
  for (const row of rows) {
    out += JSON.stringify({ ...row, timestamp: toClickHouseTime(row.timestamp) })
    out += '\n'
  }
  return out
}

/** '2026-11-22T10:00:00.123Z' -> '2026-11-22 10:00:00.123' */
export function toClickHouseTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`
}
