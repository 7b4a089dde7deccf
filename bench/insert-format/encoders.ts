/**
 * Candidate insert bodies for event rows, for `bench/insert-format`: the same rows as JSONEachRow
 * (what `to-insert-row.ts` sends today), TabSeparated and RowBinary, each one UTF-8 Buffer in the
 * `events` table's column order. Lone UTF-16 surrogates become U+FFFD in all three (Buffer's UTF-8
 * encoder does it for TSV and RowBinary; `toInsertRow` for JSON).
 */
import { toClickHouseTime } from '../../packages/server/src/storage/events/clickhouse-time.js'
import type { EventRow } from '../../packages/server/src/storage/events/event-row.js'

/** ClickHouse type of each column, in the table's order (events migration 001). */
export const COLUMNS = [
  ['event_id', 'UUID'],
  ['site_id', 'UInt32'],
  ['timestamp', 'DateTime64'],
  ['type', 'String'],
  ['session_id', 'String'],
  ['user_id', 'String'],
  ['hostname', 'String'],
  ['pathname', 'String'],
  ['querystring', 'String'],
  ['page_title', 'String'],
  ['referrer', 'String'],
  ['referrer_domain', 'String'],
  ['channel', 'String'],
  ['utm_source', 'String'],
  ['utm_medium', 'String'],
  ['utm_campaign', 'String'],
  ['utm_term', 'String'],
  ['utm_content', 'String'],
  ['browser', 'String'],
  ['browser_version', 'String'],
  ['operating_system', 'String'],
  ['operating_system_version', 'String'],
  ['device_type', 'String'],
  ['screen_width', 'UInt16'],
  ['screen_height', 'UInt16'],
  ['language', 'String'],
  ['country', 'String'],
  ['region', 'String'],
  ['city', 'String'],
  ['lat', 'Nullable(Float32)'],
  ['lon', 'Nullable(Float32)'],
  ['event_name', 'String'],
  ['properties', 'String'],
  ['lcp', 'Nullable(Float64)'],
  ['cls', 'Nullable(Float64)'],
  ['inp', 'Nullable(Float64)'],
  ['fcp', 'Nullable(Float64)'],
  ['ttfb', 'Nullable(Float64)'],
  ['error_message', 'String'],
  ['error_stack', 'String'],
  ['error_file', 'String'],
  ['error_line', 'UInt32'],
  ['error_column', 'UInt32'],
] as const satisfies readonly (readonly [keyof EventRow, string])[]

export const COLUMN_NAMES = COLUMNS.map(([name]) => name)

/** JSONEachRow: one object per row, as inserts were sent before issue 17 (strings made well-formed). */
export function encodeJsonEachRow(rows: readonly EventRow[]): Buffer {
  let text = ''
  for (const row of rows) {
    const out: Record<string, unknown> = { ...row, timestamp: toClickHouseTime(row.timestamp) }
    for (const column in out) {
      const value = out[column]
      if (typeof value === 'string' && !value.isWellFormed()) out[column] = value.toWellFormed()
    }
    text += `${JSON.stringify(out)}\n`
  }
  return Buffer.from(text, 'utf8')
}

/** JSONCompactEachRow: one JSON array of the column values per row, in the table's order. */
export function encodeJsonCompactEachRow(rows: readonly EventRow[]): Buffer {
  let text = ''
  for (const row of rows) {
    const values = COLUMNS.map(([name, type]) =>
      type === 'DateTime64' ? toClickHouseTime(row.timestamp) : row[name],
    )
    text += `${JSON.stringify(values)}\n`
  }
  return Buffer.from(text.toWellFormed(), 'utf8')
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
    for (let i = 0; i < COLUMNS.length; i++) {
      const [name, type] = COLUMNS[i] as (typeof COLUMNS)[number]
      const value = type === 'DateTime64' ? toClickHouseTime(row.timestamp) : row[name]
      line += i === 0 ? tsvField(value) : `\t${tsvField(value)}`
    }
    text += `${line}\n`
  }
  return Buffer.from(text, 'utf8')
}

/** RowBinary: little-endian numbers, LEB128 length + UTF-8 bytes for strings, a 0/1 byte before nullables. */
export function encodeRowBinary(rows: readonly EventRow[]): Buffer {
  let size = 0
  for (const row of rows) {
    for (const [name, type] of COLUMNS) {
      if (type === 'String') {
        const bytes = Buffer.byteLength(row[name] as string, 'utf8')
        size += bytes + varintLength(bytes)
      } else size += 17
    }
  }
  const out = Buffer.allocUnsafe(size)
  let at = 0
  for (const row of rows) {
    for (const [name, type] of COLUMNS) {
      const value = row[name]
      switch (type) {
        case 'String': {
          const text = value as string
          const length = Buffer.byteLength(text, 'utf8')
          at = writeVarint(out, at, length)
          at += out.write(text, at, 'utf8')
          break
        }
        case 'UUID':
          at = writeUuid(out, at, value as string)
          break
        case 'UInt32':
          at = out.writeUInt32LE(value as number, at)
          break
        case 'UInt16':
          at = out.writeUInt16LE(value as number, at)
          break
        case 'DateTime64':
          at = out.writeBigInt64LE(BigInt(Date.parse(value as string)), at)
          break
        case 'Nullable(Float32)':
          if (value === null) at = out.writeUInt8(1, at)
          else at = out.writeFloatLE(value as number, out.writeUInt8(0, at))
          break
        case 'Nullable(Float64)':
          if (value === null) at = out.writeUInt8(1, at)
          else at = out.writeDoubleLE(value as number, out.writeUInt8(0, at))
          break
      }
    }
  }
  return out.subarray(0, at)
}

function varintLength(value: number): number {
  let n = 1
  for (let v = value; v >= 0x80; v = Math.floor(v / 128)) n++
  return n
}

function writeVarint(out: Buffer, at: number, value: number): number {
  let v = value
  let i = at
  while (v >= 0x80) {
    out[i++] = (v & 0x7f) | 0x80
    v = Math.floor(v / 128)
  }
  out[i++] = v
  return i
}

/** ClickHouse's UUID: two UInt64, the high half first, each little-endian. */
function writeUuid(out: Buffer, at: number, uuid: string): number {
  const hex = uuid.replace(/-/g, '')
  for (let half = 0; half < 2; half++) {
    for (let i = 0; i < 8; i++) {
      out[at + half * 8 + i] = Number.parseInt(
        hex.slice(half * 16 + (7 - i) * 2, half * 16 + (7 - i) * 2 + 2),
        16,
      )
    }
  }
  return at + 16
}
