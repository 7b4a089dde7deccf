/**
 * Serialise event rows as JSONEachRow, the insert format both adapters send. Timestamps go out as
 * `YYYY-MM-DD hh:mm:ss.mmm` (UTC), which ClickHouse parses without best-effort parsing. Strings go out
 * well-formed: a lone UTF-16 surrogate (which a tracking body may carry as `"\ud800"`) becomes U+FFFD,
 * as `String.prototype.toWellFormed` does, since ClickHouse refuses the whole batch over one
 * (`CANNOT_PARSE_ESCAPE_SEQUENCE`), and a refused batch blocks every later one.
 */
import { toClickHouseTime } from './clickhouse-time.js'
import type { EventRow } from './event-row.js'

/** @returns newline-separated JSON objects, one per row, UTF-8 */
export function toInsertJson(rows: readonly EventRow[]): string {
  let out = ''
  for (const row of rows) {
    const line = JSON.stringify({ ...row, timestamp: toClickHouseTime(row.timestamp) })
    // JSON.stringify escapes exactly the lone surrogates (`\ud800`); the rare row with one is redone.
    out += ESCAPED_SURROGATE.test(line) ? JSON.stringify(toInsertRow(row)) : line
    out += '\n'
  }
  return out
}

/** One row as inserts send it: the timestamp as ClickHouse parses it, every string well-formed. */
export function toInsertRow(row: EventRow): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row, timestamp: toClickHouseTime(row.timestamp) }
  for (const column in out) {
    const value = out[column]
    if (typeof value === 'string' && HAS_LONE_SURROGATE.test(value)) {
      out[column] = value.replace(LONE_SURROGATES, '\uFFFD')
    }
  }
  return out
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = '[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]'
const HAS_LONE_SURROGATE = new RegExp(LONE_SURROGATE)
const LONE_SURROGATES = new RegExp(LONE_SURROGATE, 'g')
/** A surrogate as JSON.stringify escapes it (it escapes lone ones only). */
const ESCAPED_SURROGATE = /\\ud[89a-f]/
