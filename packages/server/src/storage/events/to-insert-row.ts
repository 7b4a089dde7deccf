/**
 * Event rows as inserts send them (JSONEachRow, one object per row). Timestamps go out as
 * `YYYY-MM-DD hh:mm:ss.mmm` (UTC), which ClickHouse parses without best-effort parsing. Strings go out
 * well-formed: a lone UTF-16 surrogate (which a tracking body may carry as `"\ud800"`) becomes U+FFFD,
 * as `String.prototype.toWellFormed` does, since ClickHouse refuses the whole batch over one
 * (`CANNOT_PARSE_ESCAPE_SEQUENCE`), and a refused batch blocks every later one.
 */
import { toClickHouseTime } from './clickhouse-time.js'
import type { EventRow } from './event-row.js'

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
