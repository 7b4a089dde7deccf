/**
 * Where a stored replay batch's events are in its JSON bytes, found by one scan without parsing: the
 * byte range of the `events` array's elements and the span of their timestamps. A read then writes
 * those bytes out as they are (no string, no parse, no serialization of megabytes per batch), which is
 * what keeps a replay read's memory to about one inflated batch.
 *
 * The batch was parsed and validated when it was received, so its JSON is well formed: the scan only
 * tracks strings, nesting and keys. Keys are compared as JSON.parse reads them (escapes decoded), and a
 * repeated key counts as JSON.parse counts it, the last one: the range found is the array that was
 * validated.
 */

/** The events of one batch: `json.subarray(start, end)` is the text of its elements, comma-separated. */
export interface BatchEvents {
  start: number
  end: number
  /** Elements of the array. */
  count: number
  /** Smallest and largest `timestamp` of the elements (ms); +/-Infinity when none has one. */
  first: number
  last: number
  /** The first element's numeric `type` (rrweb's event type), when it has one. */
  firstType?: number
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const COMMA = 0x2c

/** Depths of the scan: the batch object, its `events` array, each event. */
const BATCH = 1
const EVENTS = 2
const EVENT = 3

/**
 * @param json a stored batch's JSON text (`{site_id, sequence, events:[...]}`), as UTF-8 bytes
 * @returns the top-level `events` array's elements, or undefined when the batch has none
 */
export function batchEvents(json: Uint8Array): BatchEvents | undefined {
  /** Per depth: an object (keys expected after `{` and `,`) or an array. */
  const isObject: boolean[] = []
  const expectKey: boolean[] = []
  /** Per depth: the key whose value comes next. */
  const key: string[] = []
  let depth = 0
  let found: BatchEvents | undefined
  let scanning: BatchEvents | undefined
  let timestamp: number | undefined
  for (let i = 0; i < json.length; i++) {
    const byte = json[i] ?? 0
    if (byte === QUOTE) {
      const close = closingQuote(json, i)
      if (isObject[depth] && expectKey[depth]) {
        expectKey[depth] = false
        key[depth] = depth === BATCH || depth === EVENT ? keyText(json, i, close) : ''
      } else if (depth === EVENT) {
        key[EVENT] = '' // a string value: the key's value is taken
      }
      i = close
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      depth++
      isObject[depth] = byte === OPEN_OBJECT
      expectKey[depth] = byte === OPEN_OBJECT
      key[depth] = ''
      if (depth === EVENTS && byte === OPEN_ARRAY && key[BATCH] === 'events') {
        scanning = { start: i + 1, end: i + 1, count: 0, first: Infinity, last: -Infinity }
      } else if (depth === EVENT && scanning) {
        scanning.count++
        timestamp = undefined
      }
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (depth === EVENT && scanning && timestamp !== undefined) {
        scanning.first = Math.min(scanning.first, timestamp)
        scanning.last = Math.max(scanning.last, timestamp)
      } else if (depth === EVENTS && scanning) {
        scanning.end = i
        found = scanning
        scanning = undefined
      }
      depth--
      if (depth >= BATCH) key[depth] = ''
    } else if (byte === COMMA) {
      if (isObject[depth]) expectKey[depth] = true
    } else if (
      depth === EVENT &&
      scanning &&
      (key[EVENT] === 'timestamp' || key[EVENT] === 'type') &&
      isNumberStart(byte)
    ) {
      let end = i
      while (end < json.length && isNumberPart(json[end] ?? 0)) end++
      const value = Number(Buffer.from(json.buffer, json.byteOffset + i, end - i).toString('latin1'))
      if (key[EVENT] === 'timestamp') timestamp = value
      else if (scanning.count === 1) scanning.firstType = value
      key[EVENT] = ''
      i = end - 1
    }
  }
  return found
}

/** The index of the quote that closes the string opening at `open`. */
function closingQuote(json: Uint8Array, open: number): number {
  for (let i = open + 1; i < json.length; i++) {
    if (json[i] === BACKSLASH) i++
    else if (json[i] === QUOTE) return i
  }
  return json.length
}

/** A key as JSON.parse reads it (escapes decoded). */
function keyText(json: Uint8Array, open: number, close: number): string {
  const raw = Buffer.from(json.buffer, json.byteOffset + open, close + 1 - open)
  return raw.includes(BACKSLASH)
    ? (JSON.parse(raw.toString('utf8')) as string)
    : raw.toString('utf8', 1, raw.length - 1)
}

const isNumberStart = (byte: number) => byte === 0x2d || (byte >= 0x30 && byte <= 0x39)
/** Digits, sign, point and exponent. */
const isNumberPart = (byte: number) =>
  (byte >= 0x30 && byte <= 0x39) ||
  byte === 0x2d ||
  byte === 0x2b ||
  byte === 0x2e ||
  byte === 0x65 ||
  byte === 0x45
