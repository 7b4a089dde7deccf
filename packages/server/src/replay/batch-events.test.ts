import { describe, expect, it } from 'vitest'
import { batchEvents } from './batch-events.js'

/** The elements' text and the span `batchEvents` finds, checked against JSON.parse of the same text. */
function check(text: string) {
  const json = Buffer.from(text)
  const found = batchEvents(json)
  const parsed = JSON.parse(text) as { events: { timestamp?: number }[] }
  const elements = found ? json.subarray(found.start, found.end).toString('utf8') : undefined
  // The range is the validated array: its elements, re-read, are JSON.parse's.
  expect(JSON.parse(`[${elements ?? ''}]`)).toEqual(parsed.events)
  const times = parsed.events.map((event) => event.timestamp).filter((t) => typeof t === 'number')
  expect(found?.count ?? 0).toBe(parsed.events.length)
  if (times.length > 0) {
    expect(found?.first).toBe(Math.min(...times))
    expect(found?.last).toBe(Math.max(...times))
  }
  return found
}

describe('batchEvents', () => {
  it('finds the events and the span of their timestamps', () => {
    check(
      '{"site_id":1,"sequence":0,"events":[{"type":4,"timestamp":1000,"data":{"href":"/"}},{"type":3,"timestamp":2500,"data":{}}]}',
    )
    check(
      ' { "events" : [ { "timestamp" : 3e3 , "data" : { "timestamp" : 1 } } , {"type":3,"timestamp":-5.5} ] , "sequence" : 2 } ',
    )
  })

  it('is not fooled by strings holding brackets, quotes, keys or escapes', () => {
    check(
      '{"note":"\\"events\\":[{]}","events":[{"timestamp":7,"data":{"t":"] } , \\\\","x":["timestamp",9]}}],"site_id":"{["}',
    )
    check('{"events":[{"data":{"text":"timestamp"},"timestamp":42}]}')
  })

  it('takes the last of repeated keys, as JSON.parse does, escaped spellings included', () => {
    expect(
      check('{"events":[{"timestamp":1}],"ev\\u0065nts":[{"timestamp":2},{"timestamp":3}]}')?.count,
    ).toBe(2)
    expect(check('{"events":[{"timestamp":1,"timestamp":5}]}')?.last).toBe(5)
  })

  it('answers an empty array and a batch without events', () => {
    expect(check('{"events":[]}')?.count).toBe(0)
    expect(batchEvents(Buffer.from('{"sequence":1}'))).toBeUndefined()
  })

  it('scans deep nesting without recursion', () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`
    expect(batchEvents(Buffer.from(`{"events":[{"timestamp":1,"data":${deep}}]}`))?.count).toBe(1)
  })
})
