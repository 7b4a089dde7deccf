import { replayBatchSchema } from '@pathlight/protocol'
import { describe, expect, it } from 'vitest'
import { batchJson, splitEvents, utf8Length } from './replay-batch.js'

describe('batchJson', () => {
  it('builds a body the server accepts from serialized events', () => {
    const events = [
      { type: 4, timestamp: 1, data: { href: 'https://a.test/' } },
      { type: 2, timestamp: 2 },
    ]
    const json = batchJson(
      '42',
      3,
      events.map((event) => JSON.stringify(event)),
    )
    expect(replayBatchSchema.parse(JSON.parse(json))).toEqual({ site_id: '42', sequence: 3, events })
  })
})

describe('splitEvents', () => {
  it('groups events in order, each group within the limit counted in UTF-8 bytes', () => {
    const events = ['"aaaa"', '"bbbb"', '"€€"', '"c"'] // 6, 6, 8 and 3 bytes
    expect(splitEvents(events, 20, 0)).toEqual([
      ['"aaaa"', '"bbbb"'],
      ['"€€"', '"c"'],
    ])
    expect(splitEvents(events, 20, 10)).toEqual([['"aaaa"'], ['"bbbb"'], ['"€€"'], ['"c"']])
    expect(splitEvents([], 20)).toEqual([])
  })

  it('gives an event too large for the limit a group of its own', () => {
    const big = `"${'x'.repeat(50)}"`
    expect(splitEvents(['"a"', big, '"b"'], 20, 0)).toEqual([['"a"'], [big], ['"b"']])
    expect(utf8Length(big)).toBe(52)
  })
})
