/**
 * Candidate insert bodies for event rows, for `bench/insert-format`: the same rows as JSONEachRow (the
 * shape inserts had before issue 17), JSONCompactEachRow and TabSeparated, each one UTF-8 Buffer in the
 * `events` table's column order. Lone UTF-16 surrogates become U+FFFD in all of them.
 */
import { toClickHouseTime } from '../../packages/server/src/storage/events/clickhouse-time.js'
import { EVENT_COLUMNS, encodeEventRow } from '../../packages/server/src/storage/events/encode-event-row.js'
import type { EventRow } from '../../packages/server/src/storage/events/event-row.js'

export { EVENT_COLUMNS as COLUMN_NAMES } from '../../packages/server/src/storage/events/encode-event-row.js'

/** A column's value as the insert sends it (the timestamp as ClickHouse parses it). */
const columnValue = (row: EventRow, column: (typeof EVENT_COLUMNS)[number]) =>
  column === 'timestamp' ? toClickHouseTime(row.timestamp) : row[column]

/** A row as a JSONEachRow object, as inserts were sent before issue 17 (strings made well-formed). */
export function jsonEachRowObject(row: EventRow): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row, timestamp: toClickHouseTime(row.timestamp) }
  for (const column in out) {
    const value = out[column]
    if (typeof value === 'string' && !value.isWellFormed()) out[column] = value.toWellFormed()
  }
  return out
}

/** JSONEachRow: one {@link jsonEachRowObject} per line. */
export function encodeJsonEachRow(rows: readonly EventRow[]): Buffer {
  let text = ''
  for (const row of rows) text += `${JSON.stringify(jsonEachRowObject(row))}\n`
  return Buffer.from(text, 'utf8')
}

/** JSONCompactEachRow: the server's own `encodeEventRow` lines. */
export function encodeJsonCompactEachRow(rows: readonly EventRow[]): Buffer {
  let text = ''
  for (const row of rows) text += `${encodeEventRow(row)}\n`
  return Buffer.from(text, 'utf8')
}

const TSV_SPECIAL = /[\\\t\n\r]/
const TSV_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' }

function tsvField(value: unknown): string {
  if (value === null || value === undefined) return '\\N'
  const text = String(value)
  return TSV_SPECIAL.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => TSV_ESCAPES[c] ?? c) : text
}

/** TabSeparated: fields escaped (backslash, tab, newline, CR), `\N` for null. */
export function encodeTsv(rows: readonly EventRow[]): Buffer {
  let text = ''
  for (const row of rows) {
    let line = ''
    for (const [i, column] of EVENT_COLUMNS.entries()) {
      line += i === 0 ? tsvField(columnValue(row, column)) : `\t${tsvField(columnValue(row, column))}`
    }
    text += `${line}\n`
  }
  return Buffer.from(text, 'utf8')
}
