/**
 * One visitor's events in the events store (a data subject's access and erasure requests): their
 * events a page at a time for the export, and the erasure of their events, of every other event of
 * their sessions and of those sessions' replay recordings, with the rollups kept exact
 * (`rollups/erased-sessions.ts`).
 *
 * A visitor is a value of `events.user_id`: the `user_id` a site sent when tracking, or else the
 * anonymous id ingest derived (`ingest/stages/put-user-id.ts`). Every query reads the site's rows by
 * `user_id`, which is not in the table's sort key: a scan of the site's events.
 */
import { fromClickHouseTime, toClickHouseTime } from '../storage/events/clickhouse-time.js'
import type { EventRow } from '../storage/events/event-row.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { EXPORT_PAGE_ROWS, type ExportCursor } from './export-events.js'
import { EVENT_ORDER } from './metrics.js'
import { eraseSessionsFromRollups, leftoverHours, SESSIONS_PER_STATEMENT } from './rollups/erased-sessions.js'

const VISITOR = 'site_id = {site:UInt32} AND user_id = {user:String}'
const SESSIONS = 'site_id = {site:UInt32} AND session_id IN {sessions:Array(String)}'

/** Session ids in slices of `SESSIONS_PER_STATEMENT` (a ClickHouse server takes parameters in the URL). */
const sliced = (sessions: readonly string[]): string[][] => {
  const slices: string[][] = []
  for (let i = 0; i < sessions.length; i += SESSIONS_PER_STATEMENT) {
    slices.push(sessions.slice(i, i + SESSIONS_PER_STATEMENT))
  }
  return slices
}

/**
 * One page of the visitor's events (`user_id` equal to `userId`) in `EVENT_ORDER` (oldest first, ties
 * by event id as its text sorts): the rows of the site export (`export-events.ts`), in its order, keyed
 * by `(timestamp, event_id)` after `after`.
 * @param after the last row of the previous page; null for the first page
 */
export async function visitorEventsPage(
  events: EventsStore,
  siteId: number,
  userId: string,
  after: ExportCursor | null,
  limit = EXPORT_PAGE_ROWS,
): Promise<EventRow[]> {
  const params: Record<string, unknown> = { site: siteId, user: userId, limit }
  let where = VISITOR
  if (after) {
    // The first condition alone lets the primary key skip the pages already sent.
    where +=
      " AND timestamp >= {at:DateTime64(3, 'UTC')} AND (timestamp, toUInt128(event_id)) > ({at:DateTime64(3, 'UTC')}, toUInt128({id:UUID}))"
    params.at = toClickHouseTime(after.timestamp)
    params.id = after.eventId
  }
  // The UUID as text under `id`: an alias `event_id` would shadow the column in WHERE and ORDER BY.
  const rows = await events.query<Omit<EventRow, 'event_id'> & { id?: string; event_id: string }>(
    `SELECT toString(event_id) AS id, * EXCEPT (event_id) FROM events WHERE ${where}
     ORDER BY ${EVENT_ORDER} LIMIT {limit:UInt32}`,
    params,
  )
  for (const row of rows) {
    row.event_id = row.id as string
    delete row.id
    row.timestamp = fromClickHouseTime(row.timestamp)
  }
  return rows
}

/** What an erasure removed. */
export interface ErasedVisitor {
  /** Events deleted: the visitor's own and every other event of their sessions. */
  deleted: number
  /** Distinct session ids of those events. */
  sessions: number
  /** Replay batches of those sessions deleted. */
  replayBatches: number
}

/** What an erasure removed, and the ids of the sessions it removed. */
export type ErasedVisitorSessions = ErasedVisitor & { sessionIds: string[] }

/**
 * Delete every event of the visitor and of their sessions (the session ids their events carry), the
 * sessions' replay recordings, and their share of the rollups (lightweight deletes: gone from every
 * read when this resolves; merges reclaim the space later). Idempotent: a visitor with nothing stored
 * answers zeros and changes nothing.
 * @returns the counts, and the erased session ids (for what else names them: webhook deliveries)
 * @throws the store's error; what was deleted before it stays deleted, and erasing again finishes the
 *   rest (the rollups' rows of the visitor name what is left to correct)
 */
export async function eraseVisitorEvents(
  events: EventsStore,
  siteId: number,
  userId: string,
): Promise<ErasedVisitorSessions> {
  const sessions = (
    await events.query<{ session_id: string }>(
      `SELECT DISTINCT session_id FROM events WHERE ${VISITOR} AND session_id != ''`,
      { site: siteId, user: userId },
    )
  ).map((row) => row.session_id)
  // The visitor's own events, then the other events of their sessions, a slice of sessions at a time.
  const parts = [
    { where: VISITOR, params: { site: siteId, user: userId } },
    ...sliced(sessions).map((slice) => ({
      where: `${SESSIONS} AND user_id != {user:String}`,
      params: { site: siteId, user: userId, sessions: slice },
    })),
  ]
  let deleted = 0
  const hours = new Set<string>()
  for (const part of parts) {
    const [found] = await events.query<{ events: number | string; hours: string[] }>(
      `SELECT count() AS events, groupUniqArray(toString(toDateTime(toStartOfHour(timestamp), 'UTC'))) AS hours
       FROM events WHERE ${part.where}`,
      part.params,
    )
    deleted += Number(found?.events ?? 0)
    for (const hour of found?.hours ?? []) hours.add(hour)
  }
  let replayBatches = 0
  for (const slice of sliced(sessions)) {
    const params = { site: siteId, sessions: slice }
    const [batches] = await events.query<{ n: number | string }>(
      `SELECT count() AS n FROM replay WHERE ${SESSIONS}`,
      params,
    )
    if (Number(batches?.n ?? 0) === 0) continue
    replayBatches += Number(batches?.n)
    await events.command(`DELETE FROM replay WHERE ${SESSIONS}`, params)
  }
  if (deleted > 0) {
    for (const part of parts) await events.command(`DELETE FROM events WHERE ${part.where}`, part.params)
  }
  // The visitor's rows the rollups still hold: those of the events just deleted, or what an erasure cut
  // off by a failure left (its events already gone).
  const leftover = await leftoverHours(events, siteId, userId)
  for (const hour of leftover.hours) hours.add(hour)
  if (hours.size > 0 || leftover.summaries) {
    await eraseSessionsFromRollups(events, { siteId, userId, sessions, hours: [...hours] })
  }
  return { deleted, sessions: sessions.length, replayBatches, sessionIds: sessions }
}
