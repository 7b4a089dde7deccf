import { describe, expect, it } from 'vitest'
import { decodeEventLine, EVENT_COLUMNS, encodeEventRow } from './encode-event-row.js'
import { eventRow } from './event-row.fixture.js'

describe('encodeEventRow', () => {
  it('puts every column at its place in EVENT_COLUMNS', () => {
    const base = eventRow()
    const row = Object.fromEntries(
      Object.entries(base).map(([column, value], i) => [
        column,
        typeof value === 'string' ? `v${i}` : i + 0.5,
      ]),
    ) as unknown as typeof base
    row.timestamp = base.timestamp
    row.event_id = base.event_id
    const values = JSON.parse(encodeEventRow(row)) as unknown[]
    expect(Object.keys(base).sort()).toEqual([...EVENT_COLUMNS].sort())
    EVENT_COLUMNS.forEach((column, i) => {
      if (column !== 'timestamp') expect(values[i], column).toBe(row[column])
    })
  })

  it('is one JSON array of every column in the table order, the timestamp as ClickHouse reads it', () => {
    const row = eventRow({ timestamp: '2026-03-04T05:06:07.089Z', pathname: '/a\tb\nc', lat: null })
    const values = JSON.parse(encodeEventRow(row)) as unknown[]
    expect(values).toHaveLength(EVENT_COLUMNS.length)
    expect(values[EVENT_COLUMNS.indexOf('timestamp')]).toBe('2026-03-04 05:06:07.089')
    expect(values[EVENT_COLUMNS.indexOf('pathname')]).toBe('/a\tb\nc')
    expect(values[EVENT_COLUMNS.indexOf('lat')]).toBeNull()
    expect(encodeEventRow(row)).not.toContain('\n')
  })

  it('replaces lone surrogates with U+FFFD and keeps pairs', () => {
    const line = encodeEventRow(eventRow({ page_title: 'a\ud800b', event_name: 'smile \ud83d\ude00' }))
    const values = JSON.parse(line) as string[]
    expect(values[EVENT_COLUMNS.indexOf('page_title')]).toBe('a\ufffdb')
    expect(values[EVENT_COLUMNS.indexOf('event_name')]).toBe('smile \ud83d\ude00')
    expect(line).not.toMatch(/\\ud[89a-f]/i)
  })
})

describe('decodeEventLine', () => {
  it('reads back an encoded line with the id, site and time recovery needs', () => {
    const row = eventRow({ site_id: 7, timestamp: '2026-03-04T05:06:07.089Z' })
    const line = encodeEventRow(row)
    expect(decodeEventLine(line)).toEqual({
      line,
      row: { event_id: row.event_id, site_id: 7, timestamp: '2026-03-04T05:06:07.089Z' },
    })
  })

  it('re-encodes an object line of an earlier journal', () => {
    const row = eventRow({ site_id: 3 })
    expect(decodeEventLine(JSON.stringify(row))?.line).toBe(encodeEventRow(row))
  })

  it('refuses torn and foreign lines', () => {
    const line = encodeEventRow(eventRow())
    expect(decodeEventLine(line.slice(0, -5))).toBeNull()
    expect(decodeEventLine('[1,2,3]')).toBeNull()
    expect(decodeEventLine('"text"')).toBeNull()
    expect(decodeEventLine('{"event_id":1}')).toBeNull()
  })
})
