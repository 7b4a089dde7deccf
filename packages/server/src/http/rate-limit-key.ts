/**
 * The rate-limit store key of a presented API key: its SHA-256 (hex), so raw keys never reach the
 * store (Redis may be shared). Remembered for the few keys a process sees, since every request asks.
 */
import crypto from 'node:crypto'
import { createTtlCache } from '../shared/ttl-cache.js'

const known = createTtlCache<string, string>({ ttlMs: Number.POSITIVE_INFINITY, maxEntries: 10_000 })

export function rateLimitKey(apiKey: string): string {
  let key = known.get(apiKey)
  if (key === undefined) {
    key = crypto.createHash('sha256').update(apiKey).digest('hex')
    known.set(apiKey, key)
  }
  return key
}
