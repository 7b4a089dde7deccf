/** Which of a set of event rows the events store already holds: what journal recovery must not insert twice. */
import { toClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { EventRow } from '../storage/events/event-row.js'
import type { EventsStore } from '../storage/events/events-store.js'

/**
 * Ids searched per query: their literals must fit in one query text (chDB's inlined parameters and
 * ClickHouse's `max_query_size`, 256 KiB: 5,000 UUIDs took 225 KB).
 */
export const IDS_PER_QUERY = 4000

/**
 * @returns the `event_id`s (UUID text) of `rows` that are stored; each query searches `IDS_PER_QUERY`
 * rows' ids, bounded by those rows' sites and time span, so it reads only the parts that can hold them
 */
export async function storedEventIds(
  events: EventsStore,
  rows: readonly Pick<EventRow, 'event_id' | 'site_id' | 'timestamp'>[],
): Promise<Set<string>> {
  const stored = new Set<string>()
  for (let i = 0; i < rows.length; i += IDS_PER_QUERY) {
    for (const id of await storedIdsOf(events, rows.slice(i, i + IDS_PER_QUERY))) stored.add(id)
  }
  return stored
}

/** `storedEventIds` of at most `IDS_PER_QUERY` rows, one query. */
async function storedIdsOf(
  events: EventsStore,
  rows: readonly Pick<EventRow, 'event_id' | 'site_id' | 'timestamp'>[],
): Promise<string[]> {
  let from = rows[0]?.timestamp ?? ''
  let to = from
  const sites = new Set<number>()
  for (const row of rows) {
    if (row.timestamp < from) from = row.timestamp
    if (row.timestamp > to) to = row.timestamp
    sites.add(row.site_id)
  }
  const found = await events.query<{ id: string }>(
    `SELECT toString(event_id) AS id FROM events
     WHERE site_id IN {sites:Array(UInt32)}
       AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp <= {to:DateTime64(3, 'UTC')}
       AND event_id IN {ids:Array(UUID)}`,
    {
      sites: [...sites],
      from: toClickHouseTime(from),
      to: toClickHouseTime(to),
      ids: rows.map((r) => r.event_id),
    },
  )
  return found.map((r) => r.id)
}
