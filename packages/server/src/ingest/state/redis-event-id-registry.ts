/**
 * The `event_id` registry in Redis (see `event-id-registry.ts`): one key per claimed id, set only when
 * absent (`SET NX`) and expiring after 24 hours, so every API node sees every id of the window.
 */
import type { Redis } from 'ioredis'
import { EVENT_ID_WINDOW_MS, type EventIdRegistry } from './event-id-registry.js'

/** @param redis a connected ioredis client (not closed by this registry) */
export function createRedisEventIdRegistry(redis: Redis): EventIdRegistry {
  return {
    async claim(key) {
      return (await redis.set(`pl:eid:${key}`, '1', 'PX', EVENT_ID_WINDOW_MS, 'NX')) === 'OK'
    },
    async release(key) {
      await redis.del(`pl:eid:${key}`)
    },
  }
}
