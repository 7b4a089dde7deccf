/**
 * Which stored events began their sessions: what journal recovery needs to re-create `session.created`
 * webhook facts, since whether an event began its session is known at ingest but not stored with it.
 */
import type { EventRow } from '../storage/events/event-row.js'
import type { EventsStore } from '../storage/events/events-store.js'

/**
 * @param rows stored events (their site and session are read)
 * @returns the `event_id`s (UUID text) of the first stored event (earliest `timestamp`) of each of the
 *   rows' sessions; some may belong to rows not passed, when a session began before them
 */
export async function sessionFirstEventIds(
  events: EventsStore,
  rows: readonly Pick<EventRow, 'site_id' | 'session_id'>[],
): Promise<Set<string>> {
  if (rows.length === 0) return new Set()
  const sites = [...new Set(rows.map((r) => r.site_id))]
  const sessions = [...new Set(rows.map((r) => r.session_id))]
  const found = await events.query<{ id: string }>(
    `SELECT toString(argMin(event_id, timestamp)) AS id FROM events
     WHERE site_id IN {sites:Array(UInt32)} AND session_id IN {sessions:Array(String)}
     GROUP BY site_id, session_id`,
    { sites, sessions },
  )
  return new Set(found.map((r) => r.id))
}
