/**
 * Links from an anonymous visitor id (`putUserId`'s hash of salt, site, IP and user agent) to the user
 * it identified as (`POST /api/identify`), in the metadata store's `visitor_link`. The tracking pipeline
 * asks on every event, so answers are cached per process (`ttlMs`, default 30 s; a link made here is
 * seen here at once, one made on another API node within the TTL).
 */

import { type Clock, isoNow, systemClock } from '../shared/time.js'
import { createTtlCache } from '../shared/ttl-cache.js'
import type { MetadataDb } from '../storage/metadata/db.js'

export interface VisitorLinks {
  /** The user `visitorId` identified as on the site, or null. */
  userOf(siteId: number, visitorId: string): Promise<string | null>
  /** Link `visitorId` to `userId` (replacing an earlier link of that visitor). */
  link(siteId: number, visitorId: string, userId: string): Promise<void>
}

export function createVisitorLinks(
  db: MetadataDb,
  options: { ttlMs?: number; clock?: Clock } = {},
): VisitorLinks {
  const clock = options.clock ?? systemClock
  const cache = createTtlCache<string, string | null>({
    ttlMs: options.ttlMs ?? 30_000,
    maxEntries: 100_000,
    lru: true,
    clock,
  })
  return {
    userOf(siteId, visitorId) {
      return Promise.resolve(
        cache.load(`${siteId}:${visitorId}`, async () => {
          const row = await db
            .selectFrom('visitor_link')
            .select('user_id')
            .where('site_id', '=', siteId)
            .where('visitor_id', '=', visitorId)
            .executeTakeFirst()
          return row?.user_id ?? null
        }),
      )
    },
    async link(siteId, visitorId, userId) {
      await db
        .insertInto('visitor_link')
        .values({ site_id: siteId, visitor_id: visitorId, user_id: userId, linked_at: isoNow(clock) })
        .onConflict((oc) =>
          oc.columns(['site_id', 'visitor_id']).doUpdateSet({ user_id: userId, linked_at: isoNow(clock) }),
        )
        .execute()
      cache.set(`${siteId}:${visitorId}`, userId)
    },
  }
}
