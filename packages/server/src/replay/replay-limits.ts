/**
 * What session replay may cost, in the bytes of a recording's JSON once inflated (a gzip batch of a
 * few KB can inflate to megabytes: the bound is on what the server and the player must handle, not
 * on what was sent). Operator settings (`REPLAY_MAX_BATCH_BYTES`, `REPLAY_MAX_SESSION_BYTES`), and
 * the fixed budget of one read.
 */

export interface ReplayLimits {
  /** The most one batch's JSON may take once inflated, in bytes: a larger batch answers 413. */
  maxBatchBytes: number
  /**
   * The most one session's batches may take together, as JSON, in bytes. Once a session holds it,
   * later batches are acknowledged and dropped (the batch that crosses it is kept, so a session holds
   * at most this plus one batch).
   */
  maxSessionBytes: number
}

export const DEFAULT_REPLAY_LIMITS: ReplayLimits = {
  maxBatchBytes: 8 * 1024 * 1024,
  maxSessionBytes: 64 * 1024 * 1024,
}

/**
 * How long one read of a recording may run, in ms. The answer is streamed, so a read past it (a very
 * slow client, a store under load) ends the events there, with `meta.truncated`.
 */
export const REPLAY_READ_MAX_MS = 30_000

/** `8 MiB` for 8,388,608: a limit as an answer names it. */
export const mebibytes = (bytes: number): string => `${Number((bytes / 1024 / 1024).toFixed(2))} MiB`
