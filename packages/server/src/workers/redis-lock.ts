/**
 * One runner at a time across processes: `withRedisLock` runs a pass only while it holds a Redis key
 * set with a random token and an expiry (`SET key token PX ttl NX`), and deletes the key afterwards
 * only if the token is still its own (a pass that outlived the expiry does not delete a later holder's
 * lock). A pass that finds the key taken does not run. The same scheme as the session fold's lock.
 */
import crypto from 'node:crypto'
import type { Redis } from 'ioredis'

const RELEASE =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"

/**
 * Run `pass` under the lock `key` (the client's key prefix applies).
 * @param ttlMs how long the lock holds if the process dies mid-pass
 * @returns the pass's result, or null when another runner held the lock
 * @throws what the pass or Redis throws (the lock is released first)
 */
export async function withRedisLock<T>(
  redis: Redis,
  key: string,
  ttlMs: number,
  pass: () => Promise<T>,
): Promise<T | null> {
  const token = crypto.randomUUID()
  if ((await redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') return null
  try {
    return await pass()
  } finally {
    await redis.eval(RELEASE, 1, key, token)
  }
}
