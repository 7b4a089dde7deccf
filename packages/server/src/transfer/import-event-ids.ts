/**
 * Event ids for imported lines that bring none (raw lines without `event_id`). Reports order a
 * session's events by timestamp, then by event id as its text sorts (`EVENT_ORDER`,
 * `query/metrics.ts`); an access log or any source with second precision has many events of one
 * session on the same timestamp, listed in the order they happened. Random ids would order those at
 * random (the same way in every report, but not the way they happened); these ids keep the lines'
 * order within each millisecond, so an imported session's entry page is its first line's.
 *
 * Shape: a UUIDv7 (RFC 9562): 48 bits of the event's epoch ms, the version 7, then 74 bits: the line's
 * number in the import (32 bits, across `rand_a` and the top of `rand_b`) and 42 random bits, the
 * variant bits in their place. Ids of one import increase with its lines on any one millisecond; two
 * imports' ids on one millisecond interleave by line number, in one fixed order once stored.
 */
import crypto from 'node:crypto'

/** The largest epoch ms a UUIDv7 holds (48 bits): the year 10889. */
const MAX_MS = 2 ** 48 - 1

/**
 * A generator of ids for one import's lines, in the order of the lines.
 * @returns `(timestamp) => id`: `timestamp` the event's epoch ms (0 to 2^48 - 1; clamped), the id a
 *   lowercase UUIDv7 text
 */
export function createImportEventIds(): (timestamp: number) => string {
  let line = 0
  return (timestamp) => {
    const ms = Math.min(MAX_MS, Math.max(0, Math.trunc(timestamp)))
    const sequence = line++ >>> 0
    const random = crypto.randomBytes(6)
    const time = ms.toString(16).padStart(12, '0')
    const randA = (sequence >>> 20).toString(16).padStart(3, '0')
    const variantAndSequence = (0x8000 | ((sequence >>> 6) & 0x3fff)).toString(16).padStart(4, '0')
    // 6 bits of the sequence, then 42 random bits (the top 6 bits of the 6 random bytes dropped).
    const high = (((sequence & 0x3f) << 10) | (random.readUInt16BE(0) & 0x3ff)).toString(16).padStart(4, '0')
    const low = random.readUInt32BE(2).toString(16).padStart(8, '0')
    return `${time.slice(0, 8)}-${time.slice(8)}-7${randA}-${variantAndSequence}-${high}${low}`
  }
}
