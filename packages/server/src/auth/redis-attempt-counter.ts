/**
 * Attempt counters in Redis, so that every API node sees the same counts: one MULTI per attempt with
 * `INCR`, `PEXPIRE ... NX` (the window starts at the key's first attempt; Redis 7) and `PTTL`. Keys are
 * namespaced `pl:auth-attempts:` under the client's REDIS_KEY_PREFIX and hold no address or email in
 * clear (the throttle hashes them).
 */
import type { Redis } from 'ioredis'
import type { AttemptCount, AttemptCounter } from './attempt-counter.js'

const NAMESPACE = 'pl:auth-attempts:'

// DECR only while the key lives: a key whose window ended must not come back without an expiry.
const SUBTRACT_SCRIPT = `if redis.call('exists', KEYS[1]) == 1 and tonumber(redis.call('get', KEYS[1])) > 0 then return redis.call('decr', KEYS[1]) end return 0`

export function createRedisAttemptCounter(redis: Redis, clock: () => number = Date.now): AttemptCounter {
  return {
    async add(keys, windowMs) {
      const multi = redis.multi()
      for (const key of keys) {
        multi
          .incr(NAMESPACE + key)
          .pexpire(NAMESPACE + key, windowMs, 'NX')
          .pttl(NAMESPACE + key)
      }
      const replies = (await multi.exec()) ?? []
      const now = clock()
      return keys.map((_key, i): AttemptCount => {
        const [incrError, count] = replies[3 * i] ?? []
        if (incrError) throw incrError
        const ttl = Number(replies[3 * i + 2]?.[1] ?? windowMs)
        return { count: Number(count), resetAt: now + (ttl > 0 ? ttl : windowMs) }
      })
    },
    async subtract(key) {
      await redis.eval(SUBTRACT_SCRIPT, 1, NAMESPACE + key)
    },
    async reset(key) {
      await redis.del(NAMESPACE + key)
    },
  }
}
