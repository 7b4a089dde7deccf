/**
 * The body of one `POST /api/replay` batch (`replayBatchSchema` of `@pathlight/protocol`), built from
 * events the recorder serialized as they came, and its split into pieces small enough for a beacon.
 */

/** Beacons and keepalive requests may carry 64 KiB in flight per page; a piece stays under this. */
export const BEACON_MAX_BYTES = 60_000

/** The JSON of a batch: `{site_id, sequence, events}` with `events` the given event JSON texts. */
export function batchJson(siteId: string, sequence: number, events: readonly string[]): string {
  return `{"site_id":${JSON.stringify(siteId)},"sequence":${sequence},"events":[${events.join(',')}]}`
}

/** Bytes of `text` as UTF-8. */
export const utf8Length = (text: string): number => new TextEncoder().encode(text).length

/**
 * Split event JSON texts, in order, into groups whose batch JSON stays within `maxBytes` (UTF-8, with
 * `overhead` bytes for the fields around the events). An event too large on its own forms its own group.
 */
export function splitEvents(events: readonly string[], maxBytes: number, overhead = 100): string[][] {
  const groups: string[][] = []
  let group: string[] = []
  let bytes = overhead
  for (const event of events) {
    const size = utf8Length(event) + 1
    if (group.length > 0 && bytes + size > maxBytes) {
      groups.push(group)
      group = []
      bytes = overhead
    }
    group.push(event)
    bytes += size
  }
  if (group.length > 0) groups.push(group)
  return groups
}
