/**
 * Fixed-window attempt counters, the storage of the authentication throttle (`auth-throttle.ts`).
 * A counter's window starts at its first attempt and the counter is forgotten when the window ends.
 * `add` counts and reads in one step, so that concurrent attempts cannot all slip under a limit. This
 * file holds the port and the in-process store; `redis-attempt-counter.ts` shares counters between nodes.
 */
import { createTtlCache } from '../shared/ttl-cache.js'

/** One counter's state: attempts counted in its window, and when the window ends (epoch ms). */
export interface AttemptCount {
  count: number
  resetAt: number
}

export interface AttemptCounter {
  /** Count one attempt on each key; a key's window (`windowMs`) starts at its first attempt. @returns the counts after it, in order */
  add(keys: readonly string[], windowMs: number): Promise<AttemptCount[]>
  /** Take one attempt back from a key that still has its window (an attempt that succeeded). */
  subtract(key: string): Promise<void>
  /** Forget a key. */
  reset(key: string): Promise<void>
}

/**
 * Counters in this process's memory (`shared/ttl-cache.ts`): an entry lives for its window; beyond
 * 100,000 live counters the oldest is dropped.
 */
export function createMemoryAttemptCounter(clock: () => number = Date.now): AttemptCounter {
  const counts = createTtlCache<string, AttemptCount>({ ttlMs: 0, maxEntries: 100_000, clock })
  return {
    async add(keys, windowMs) {
      return keys.map((key) => {
        let entry = counts.get(key)
        if (entry === undefined) {
          entry = { count: 0, resetAt: clock() + windowMs }
          counts.set(key, entry, windowMs)
        }
        entry.count++
        return { ...entry }
      })
    },
    async subtract(key) {
      const entry = counts.get(key)
      if (entry && entry.count > 0) entry.count--
    },
    async reset(key) {
      counts.delete(key)
    },
  }
}
