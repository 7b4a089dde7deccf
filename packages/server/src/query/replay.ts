/**
 * The events store's SQL for session replay (`replay` table, events migration 002): how many bytes a
 * session's recording holds (the per-session cap), its batches for playback, which sessions of a list
 * have one, and the deletion of one session's or a whole site's recordings. Rows past `expires_at` are
 * never read, whether or not TTL has dropped them yet.
 */
import type { EventsStore } from '../storage/events/events-store.js'

/** One stored batch as playback lists it, without its payload. */
export interface StoredReplayBatchInfo {
  sequence: number
  /** The body as sent (compressed when gzip). */
  bytes: number
  /** The batch's JSON once inflated (`bytes` for batches stored before the column existed). */
  jsonBytes: number
  encoding: 'gzip' | 'json'
}

const LIVE = 'site_id = {site:UInt32} AND session_id = {session:String} AND expires_at > now()'

/** Bytes a session's recording holds, as sent (`bytes`) and as JSON (`jsonBytes`); 0 when it has none. */
export async function replayBytesOfSession(
  events: EventsStore,
  siteId: number,
  sessionId: string,
): Promise<{ bytes: number; jsonBytes: number }> {
  const [row] = await events.query<{ bytes: number | string; json_bytes: number | string }>(
    `SELECT sum(bytes) AS bytes, sum(json_bytes) AS json_bytes FROM replay WHERE ${LIVE}`,
    { site: siteId, session: sessionId },
  )
  return { bytes: Number(row?.bytes ?? 0), jsonBytes: Number(row?.json_bytes ?? 0) }
}

/**
 * A session's batches in sequence order, without their payloads (`replayPayloads` reads those). A
 * batch stored twice (a client retry after a lost answer) is listed once: the first one received.
 */
export async function replayBatchesOfSession(
  events: EventsStore,
  siteId: number,
  sessionId: string,
): Promise<StoredReplayBatchInfo[]> {
  const rows = await events.query<{
    sequence: number
    bytes: number
    json_bytes: number
    encoding: 'gzip' | 'json'
  }>(
    `SELECT sequence, bytes, json_bytes, encoding FROM replay WHERE ${LIVE}
     ORDER BY sequence, received_at LIMIT 1 BY sequence`,
    { site: siteId, session: sessionId },
    { label: 'session-replay' },
  )
  return rows.map((row) => ({
    sequence: Number(row.sequence),
    bytes: Number(row.bytes),
    jsonBytes: Number(row.json_bytes),
    encoding: row.encoding,
  }))
}

/**
 * The stored bodies of some of a session's batches (as sent: gzip bytes or JSON text), by sequence:
 * the first one received of each, as `replayBatchesOfSession` lists them.
 */
export async function replayPayloads(
  events: EventsStore,
  siteId: number,
  sessionId: string,
  sequences: readonly number[],
): Promise<Map<number, Buffer>> {
  if (sequences.length === 0) return new Map()
  const rows = await events.query<{ sequence: number; payload: string }>(
    `SELECT sequence, base64Encode(payload) AS payload FROM replay
     WHERE ${LIVE} AND sequence IN {sequences:Array(UInt32)}
     ORDER BY sequence, received_at LIMIT 1 BY sequence`,
    { site: siteId, session: sessionId, sequences },
    { label: 'session-replay' },
  )
  return new Map(rows.map((row) => [Number(row.sequence), Buffer.from(row.payload, 'base64')]))
}

/** Which of `sessionIds` have a recording (for the session list's `hasReplay`). */
export async function sessionsWithReplay(
  events: EventsStore,
  siteId: number,
  sessionIds: readonly string[],
): Promise<Set<string>> {
  if (sessionIds.length === 0) return new Set()
  const rows = await events.query<{ session_id: string }>(
    `SELECT DISTINCT session_id FROM replay
     WHERE site_id = {site:UInt32} AND session_id IN {sessions:Array(String)} AND expires_at > now()`,
    { site: siteId, sessions: sessionIds },
  )
  return new Set(rows.map((row) => row.session_id))
}

/** Delete a session's recording (a lightweight delete: gone from reads at once). */
export const deleteSessionReplayRows = (events: EventsStore, siteId: number, sessionId: string) =>
  events.command('DELETE FROM replay WHERE site_id = {site:UInt32} AND session_id = {session:String}', {
    site: siteId,
    session: sessionId,
  })

/** Delete every recording of a site. */
export const deleteSiteReplays = (events: EventsStore, siteId: number): Promise<void> =>
  events.command('DELETE FROM replay WHERE site_id = {site:UInt32}', { site: siteId })

/** `rows` with `hasReplay`: whether each session (`session_id`) has a recording. */
export async function withReplayFlags<Row extends { session_id: string }>(
  events: EventsStore,
  siteId: number,
  rows: readonly Row[],
): Promise<(Row & { hasReplay: boolean })[]> {
  const replayed = await sessionsWithReplay(
    events,
    siteId,
    rows.map((row) => row.session_id),
  )
  return rows.map((row) => ({ ...row, hasReplay: replayed.has(row.session_id) }))
}
