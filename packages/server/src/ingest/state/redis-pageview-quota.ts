/**
 * Monthly pageview counts in Redis, shared by API nodes: key `pl:pv:{site}:{YYYY-MM}`, seeded from the
 * events store with SET NX (first node wins), incremented on commit, expiring after 40 days.
 */
import type { Redis } from 'ioredis'
import { countMonthPageviews, monthOf } from '../../query/month-pageviews.js'
import type { EventsStore } from '../../storage/events/events-store.js'
import type { PageviewQuota } from './pageview-quota.js'

const TTL_SECONDS = 40 * 86_400

export function createRedisPageviewQuota(redis: Redis, events: EventsStore): PageviewQuota {
  const key = (siteId: number, now: number) => `pl:pv:${siteId}:${monthOf(now)}`
  return {
    async isOver(siteId, limit, now) {
      const k = key(siteId, now)
      let value = await redis.get(k)
      if (value === null) {
        const seeded = await countMonthPageviews(events, siteId, now)
        await redis.set(k, String(seeded), 'EX', TTL_SECONDS, 'NX')
        value = (await redis.get(k)) ?? String(seeded)
      }
      return Number(value) >= limit
    },
    async add(siteId, count, now) {
      const k = key(siteId, now)
      if ((await redis.exists(k)) === 1) await redis.incrby(k, count)
    },
  }
}
