/**
 * The rate-limit store key of a presented API key: its SHA-256 (hex), so raw keys never reach the
 * store (Redis may be shared). Remembered for the few keys a process sees, since every request asks.
 * Every per-key limit takes its key from `keyBucketOf`, which reads the Authorization header with the
 * one bearer parser (`auth/bearer-token.ts`): `Bearer K`, `bearer K` and `Bearer\tK` are one bucket.
 */
import crypto from 'node:crypto'
import { bearerToken } from '../auth/bearer-token.js'
import { createTtlCache } from '../shared/ttl-cache.js'

const known = createTtlCache<string, string>({ ttlMs: Number.POSITIVE_INFINITY, maxEntries: 10_000 })

/** @returns the hex SHA-256 of `apiKey`, the store key of its bucket */
export function rateLimitKey(apiKey: string): string {
  let key = known.get(apiKey)
  if (key === undefined) {
    key = crypto.createHash('sha256').update(apiKey).digest('hex')
    known.set(apiKey, key)
  }
  return key
}

/**
 * The bucket of a request's API key: the hash of the bearer token of its Authorization header,
 * whatever the scheme's case or the whitespace after it.
 * @returns undefined when the header is absent or carries no bearer token
 */
export function keyBucketOf(authorization: string | undefined): string | undefined {
  const token = bearerToken(authorization)
  return token === undefined ? undefined : rateLimitKey(token)
}
