/**
 * Fixed-window attempt counters, the storage of the authentication throttle (`auth-throttle.ts`).
 * A counter's window starts at its first attempt and the counter is forgotten when the window ends.
 * `add` counts and reads in one step, so that concurrent attempts cannot all slip under a limit. This
 * file holds the port and the in-process store; `redis-attempt-counter.ts` shares counters between nodes.
 */

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

/** Counters in this process's memory, pruned when their window has ended. */
export function createMemoryAttemptCounter(clock: () => number = Date.now): AttemptCounter {
  const counts = new Map<string, AttemptCount>()
  const live = (key: string, now: number) => {
    const entry = counts.get(key)
    if (entry && entry.resetAt <= now) {
      counts.delete(key)
      return undefined
    }
    return entry
  }
  return {
    async add(keys, windowMs) {
      const now = clock()
      if (counts.size > 100_000) for (const key of counts.keys()) live(key, now)
      return keys.map((key) => {
        const entry = live(key, now) ?? { count: 0, resetAt: now + windowMs }
        entry.count++
        counts.set(key, entry)
        return { ...entry }
      })
    },
    async subtract(key) {
      const entry = live(key, clock())
      if (entry && entry.count > 0) entry.count--
    },
    async reset(key) {
      counts.delete(key)
    },
  }
}
