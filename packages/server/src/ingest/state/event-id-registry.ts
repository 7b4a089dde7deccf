/**
 * Idempotent tracking: the `event_id`s (UUIDs a client sends with an event, the same on every retry)
 * seen in the last 24 hours, per site. `claim` answers whether an id is new and remembers it; a claim
 * whose event could not be stored is released, so the client's retry is stored. The in-process
 * registry holds at most `MAX_REMEMBERED_EVENT_IDS` ids (the oldest are forgotten first: the window is
 * 24 hours or the last 200,000 ids with an `event_id`, whichever is shorter); `redis-event-id-registry.ts`
 * holds every id for 24 hours and shares them between API nodes.
 */
import { type Clock, systemClock } from '../../shared/time.js'
import { createTtlCache } from '../../shared/ttl-cache.js'

/** How long a repeated `event_id` is recognised, ms. */
export const EVENT_ID_WINDOW_MS = 24 * 60 * 60_000
/** Ids the in-process registry remembers (about 150 bytes each). */
export const MAX_REMEMBERED_EVENT_IDS = 200_000

export interface EventIdRegistry {
  /**
   * @param key `${siteId}:${eventId}`
   * @returns true when the id was not seen in the window (it is remembered from now on), false for a repeat
   */
  claim(key: string): Promise<boolean>
  /** Forget a claimed id (its event was not stored). */
  release(key: string): Promise<void>
}

/** @param clock the ingest clock (the window counts from the claim) */
export function createMemoryEventIdRegistry(clock: Clock = systemClock): EventIdRegistry {
  const seen = createTtlCache<string, true>({
    ttlMs: EVENT_ID_WINDOW_MS,
    maxEntries: MAX_REMEMBERED_EVENT_IDS,
    clock,
  })
  return {
    async claim(key) {
      if (seen.get(key)) return false
      seen.set(key, true)
      return true
    },
    async release(key) {
      seen.delete(key)
    },
  }
}
