/**
 * One row of the `replay` table (`migrations/002-replay.ts`): a batch of a session recording as the
 * recorder sent it. Timestamps are ISO 8601 UTC strings with milliseconds.
 */
export interface ReplayRow {
  site_id: number
  session_id: string
  sequence: number
  /** The batch's first event. */
  timestamp: string
  received_at: string
  /** When TTL deletes the row: `received_at` plus the site's replay retention. */
  expires_at: string
  /** Bytes of `payload` as sent (compressed when the body was gzip). */
  bytes: number
  /** Bytes of the batch's JSON text (inflated, for gzip); absent: the store takes `bytes`. */
  json_bytes?: number
  encoding: 'gzip' | 'json'
  /** The body as sent. */
  payload: Buffer
}

/** The columns an insert names, in order: `payload` is computed from the ephemeral `payload_base64`. */
export const replayInsertColumns = [
  'site_id',
  'session_id',
  'sequence',
  'timestamp',
  'received_at',
  'expires_at',
  'bytes',
  'json_bytes',
  'encoding',
  'payload_base64',
] as const

/** The row as a JSONEachRow insert sends it (`payload` base64 into the ephemeral `payload_base64`). */
export function toReplayInsertRow(row: ReplayRow, time: (iso: string) => string): Record<string, unknown> {
  const { payload, ...rest } = row
  return {
    ...rest,
    timestamp: time(row.timestamp),
    received_at: time(row.received_at),
    expires_at: time(row.expires_at).slice(0, 19),
    payload_base64: payload.toString('base64'),
  }
}
