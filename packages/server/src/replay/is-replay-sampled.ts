/**
 * Replay sampling: whether a session is recorded at a site's `replaySampleRate`. Decided from the
 * session id alone (the first 32 bits of its SHA-256 as a fraction of 2^32), so every batch of a
 * session gets the same answer on every API node, and raising the rate keeps the sessions already in.
 */
import crypto from 'node:crypto'

/** @param rate 0 (none) to 1 (every session) */
export function isReplaySampled(sessionId: string, rate: number): boolean {
  if (rate >= 1) return true
  if (!(rate > 0)) return false
  const point = crypto.createHash('sha256').update(sessionId).digest().readUInt32BE(0) / 2 ** 32
  return point < rate
}
