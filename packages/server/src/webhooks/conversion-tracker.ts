/**
 * "For the first time": which (session, goal) pairs already fired `goal.converted`. In process, a Map
 * swept of pairs older than two hours (sessions end after 30 minutes of inactivity); with Redis, a
 * SET NX key per pair with a two-hour expiry, so several API nodes fire once between them.
 */
import type { Redis } from 'ioredis'

export interface ConversionTracker {
  /** True exactly once per (site, session, goal): the first time it is asked. */
  firstTime(siteId: number, sessionId: string, goalId: number): Promise<boolean>
}

const TTL_MS = 2 * 3_600_000

export function createConversionTracker(redis?: Redis): ConversionTracker {
  if (redis) {
    return {
      async firstTime(siteId, sessionId, goalId) {
        const set = await redis.set(`pl:conv:${siteId}:${sessionId}:${goalId}`, '1', 'PX', TTL_MS, 'NX')
        return set === 'OK'
      },
    }
  }
  const seen = new Map<string, number>()
  let lastSweep = Date.now()
  return {
    async firstTime(siteId, sessionId, goalId) {
      const now = Date.now()
      if (now - lastSweep > 60_000) {
        for (const [key, at] of seen) if (now - at > TTL_MS) seen.delete(key)
        lastSweep = now
      }
      const key = `${siteId}:${sessionId}:${goalId}`
      if (seen.has(key)) return false
      seen.set(key, now)
      return true
    },
  }
}
