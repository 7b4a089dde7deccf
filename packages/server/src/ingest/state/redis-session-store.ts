/**
 * Sessions in Redis, shared by every API node: one key per visitor holding the session id, with a
 * 30-minute expiry renewed on each event. A Lua script makes read-extend-or-create atomic.
 */
import crypto from 'node:crypto'
import type { Redis } from 'ioredis'
import { SESSION_TIMEOUT_MS, type SessionStore } from './session-store.js'

const touchScript = `
local id = redis.call('GET', KEYS[1])
if id then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {id, 0}
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return {ARGV[1], 1}
`

/** @param redis a connected ioredis client (not closed by this store) */
export function createRedisSessionStore(redis: Redis, timeoutMs = SESSION_TIMEOUT_MS): SessionStore {
  return {
    async touch(visitorKey) {
      const result = (await redis.eval(
        touchScript,
        1,
        `pl:session:${visitorKey}`,
        crypto.randomUUID(),
        String(timeoutMs),
      )) as [string, number]
      return { sessionId: result[0], isNew: result[1] === 1 }
    },
    async close() {},
  }
}
