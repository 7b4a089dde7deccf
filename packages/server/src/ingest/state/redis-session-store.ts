/**
 * Sessions in Redis, shared by every API node: one key per visitor holding `<session id> <epoch ms of
 * the visitor's latest event>`. The event's own time decides, by the rule of the in-process store
 * (`continuesSession`: a gap of at most 30:00 joins), so both stores draw the boundary at the same
 * millisecond; the key's expiry (the timeout plus a minute, renewed on each event) only clears
 * visitors who left. A Lua script makes read-extend-or-create atomic. A key holding only an id (as
 * written before the time was kept) counts as a live session.
 */
import crypto from 'node:crypto'
import type { Redis } from 'ioredis'
import { SESSION_TIMEOUT_MS, type SessionStore } from './session-store.js'

/** How long a key outlives its session's timeout, so that expiry never decides a boundary. */
const EXPIRY_MARGIN_MS = 60_000

// ARGV: new id, event time (ms), timeout (ms), key expiry (ms)
const touchScript = `
local now = tonumber(ARGV[2])
local value = redis.call('GET', KEYS[1])
if value then
  local sep = string.find(value, ' ', 1, true)
  local id = value
  local last = now
  if sep then
    id = string.sub(value, 1, sep - 1)
    last = tonumber(string.sub(value, sep + 1))
  end
  if now - last <= tonumber(ARGV[3]) then
    if now > last then last = now end
    redis.call('SET', KEYS[1], id .. ' ' .. string.format('%d', last), 'PX', ARGV[4])
    return {id, 0}
  end
end
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. ARGV[2], 'PX', ARGV[4])
return {ARGV[1], 1}
`

/** @param redis a connected ioredis client (not closed by this store) */
export function createRedisSessionStore(redis: Redis, timeoutMs = SESSION_TIMEOUT_MS): SessionStore {
  return {
    async touch(visitorKey, now) {
      const result = (await redis.eval(
        touchScript,
        1,
        `pl:session:${visitorKey}`,
        crypto.randomUUID(),
        String(Math.floor(now)),
        String(timeoutMs),
        String(timeoutMs + EXPIRY_MARGIN_MS),
      )) as [string, number]
      return { sessionId: result[0], isNew: result[1] === 1 }
    },
    async close() {},
  }
}
