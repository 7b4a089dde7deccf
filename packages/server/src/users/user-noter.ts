/**
 * Gives every identified user a profile as their first event is committed (`noteUser`), writing once
 * per user per process and hour: the set of users noted is remembered (at most 100,000, least recently
 * used forgotten first), so the tracking hot path costs no query for a known user.
 */
import { createTtlCache } from '../shared/ttl-cache.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { noteUser } from './user-profiles.js'

/** @returns undefined when the user was noted already, else the write's promise */
export type UserNoter = (siteId: number, userId: string, at: string) => Promise<void> | undefined

export function createUserNoter(db: MetadataDb): UserNoter {
  const noted = createTtlCache<string, true>({ ttlMs: 60 * 60_000, maxEntries: 100_000, lru: true })
  return (siteId, userId, at) => {
    const key = `${siteId}:${userId}`
    if (noted.get(key)) return undefined
    return noteUser(db, siteId, userId, at).then(() => noted.set(key, true))
  }
}
