/**
 * 002: the `replay` table, session recordings (rrweb events) in batches as the recorder sent them.
 *
 * Why this layout: a recording is only ever read whole, one session at a time, and deleted per session
 * or per site; ORDER BY (site_id, session_id, sequence) keeps a session's batches contiguous and in
 * playback order. `timestamp` is the batch's first event, `received_at` when the server stored it.
 * `payload` holds the batch's body as sent: gzip bytes or JSON text (`encoding` says which); ZSTD
 * compresses the JSON well and costs gzip little. Inserts go through JSONEachRow, which cannot carry
 * raw bytes, so rows bring `payload_base64` (an EPHEMERAL column: never stored) and `payload` is
 * decoded from it on insert. Each row expires at `expires_at` (received + the site's
 * `replayRetentionDays`): TTL drops it in a background merge, so a recording outlives its period by
 * at most a merge interval.
 */
export const replayTable = {
  name: '002-replay',
  statements: [
    `CREATE TABLE IF NOT EXISTS replay (
      site_id UInt32,
      session_id String,
      sequence UInt32,
      timestamp DateTime64(3, 'UTC'),
      received_at DateTime64(3, 'UTC'),
      expires_at DateTime('UTC'),
      bytes UInt32,
      encoding LowCardinality(String),
      payload_base64 String EPHEMERAL,
      payload String DEFAULT base64Decode(payload_base64) CODEC(ZSTD)
    )
    ENGINE = MergeTree
    ORDER BY (site_id, session_id, sequence)
    TTL expires_at DELETE`,
  ],
} as const
