/** Which of a set of event rows the events store already holds: what journal recovery must not insert twice. */
import { toClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { EventRow } from '../storage/events/event-row.js'
import type { EventsStore } from '../storage/events/events-store.js'

/**
 * @returns the `event_id`s (UUID text) of `rows` that are stored; the search is bounded by the rows'
 * sites and time span, so it reads only the parts that can hold them
 */
export async function storedEventIds(
  events: EventsStore,
  rows: readonly Pick<EventRow, 'event_id' | 'site_id' | 'timestamp'>[],
): Promise<Set<string>> {
  if (rows.length === 0) return new Set()
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
  return new Set(found.map((r) => r.id))
}
