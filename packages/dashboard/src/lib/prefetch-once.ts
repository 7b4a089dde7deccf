/**
 * A request started early for a page that mounts later: `start` begins it under a key (unless one for
 * that key is already under way and fresh), `take` hands it over once, if it is younger than
 * `maxAgeMs`; otherwise `take` answers null and the page asks again. A started request that nobody
 * takes never reports as unhandled, and stale ones are dropped at the next `start`.
 */
export interface PrefetchOnce<T> {
  start(key: string, load: () => Promise<T>): void
  take(key: string): Promise<T> | null
}

export function createPrefetchOnce<T>(maxAgeMs = 5000, now: () => number = Date.now): PrefetchOnce<T> {
  const pending = new Map<string, { at: number; answer: Promise<T> }>()
  const fresh = (entry: { at: number }) => now() - entry.at < maxAgeMs
  return {
    start(key, load) {
      for (const [other, entry] of pending) if (!fresh(entry)) pending.delete(other)
      if (pending.has(key)) return
      const answer = load()
      // Nobody may take it: a failure must not be reported as unhandled.
      answer.catch(() => undefined)
      pending.set(key, { at: now(), answer })
    },
    take(key) {
      const entry = pending.get(key)
      pending.delete(key)
      return entry && fresh(entry) ? entry.answer : null
    },
  }
}
