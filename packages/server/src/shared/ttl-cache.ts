/**
 * The server's one in-process cache: a `Map` with an expiry per entry and a size bound. Used for the
 * metadata the hot path consults (sites, roles, goals, webhook subscriptions, API keys, tracker
 * configs) and, without expiry, for memoised pure work (user agents, geolocation, channels, key hashes).
 *
 * Promises: a hit costs one `Map.get` and one clock read, and allocates nothing; when full, setting a
 * new key evicts the entry set longest ago (with `lru`, the one read longest ago, nearly: see
 * `TtlCacheOptions.lru`). `undefined` means a
 * miss, so values must not be `undefined` (`null` is a fine value: "no such site"). Synchronous and
 * per process: other processes keep their own entries until these expire.
 */
import { type Clock, systemClock } from './time.js'

export interface TtlCacheOptions {
  /** How long an entry is served after `set`, in ms; `Infinity`: until evicted or deleted. */
  ttlMs: number
  /** At most this many entries (a positive integer). */
  maxEntries: number
  /**
   * Evict the least recently read entry rather than the least recently set. A hit re-inserts its entry
   * (moving it to the young end) only when at least half the cache's size in entries were inserted
   * after it: the hot entries of a busy cache are then not re-inserted on every read (a `Map` delete
   * and set each, the cost a profile of the tracking path showed), and an entry read at least once per
   * half a cache's worth of insertions is never evicted.
   */
  lru?: boolean
  /** Source of the current time for expiry; default the system clock. */
  clock?: Clock
}

export interface TtlCache<K, V> {
  /** The live value of `key`, or undefined on a miss (absent or expired). */
  get(key: K): V | undefined
  /** Store `value`, served for `ttlMs` (default the cache's own). */
  set(key: K, value: V, ttlMs?: number): void
  /**
   * The live value of `key`, or the result of `loader(key)`, stored once it resolves. Concurrent misses
   * of one key share one call; a `delete` or `clear` while it runs keeps its (stale) result out.
   * Rejections are not stored. Pass a function created once, so a hit allocates nothing.
   */
  load(key: K, loader: (key: K) => Promise<V>): V | Promise<V>
  /** Forget `key` (and ignore the result of a load of it in flight). */
  delete(key: K): void
  /** Forget every entry for which `test` is true. */
  deleteWhere(test: (value: V, key: K) => boolean): void
  /** Forget everything. */
  clear(): void
  /** Entries held, expired ones included until they are read or evicted. */
  readonly size: number
}

interface Entry<V> {
  value: V
  expires: number
  /** The insertion count when the entry was (re-)inserted. */
  inserted: number
}

/** @throws RangeError when `maxEntries` is not a positive integer or `ttlMs` is negative */
export function createTtlCache<K, V>(options: TtlCacheOptions): TtlCache<K, V> {
  const { ttlMs, maxEntries, lru = false, clock = systemClock } = options
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError(`TtlCache: maxEntries must be a positive integer, got ${maxEntries}`)
  }
  if (!(ttlMs >= 0)) throw new RangeError(`TtlCache: ttlMs must be at least 0, got ${ttlMs}`)
  const entries = new Map<K, Entry<V>>()
  const loading = new Map<K, Promise<V>>()
  /** Insertions so far (sets and LRU re-inserts). */
  let insertions = 0
  const reinsertAfter = Math.floor(maxEntries / 2)

  const get = (key: K): V | undefined => {
    const entry = entries.get(key)
    if (entry === undefined) return undefined
    if (entry.expires !== Number.POSITIVE_INFINITY && entry.expires <= clock()) {
      entries.delete(key)
      return undefined
    }
    if (lru && insertions - entry.inserted >= reinsertAfter) {
      entries.delete(key)
      entry.inserted = ++insertions
      entries.set(key, entry)
    }
    return entry.value
  }

  const set = (key: K, value: V, ttl = ttlMs) => {
    if (entries.has(key)) entries.delete(key)
    else if (entries.size >= maxEntries) {
      const oldest = entries.keys().next()
      if (!oldest.done) entries.delete(oldest.value)
    }
    entries.set(key, {
      value,
      expires: ttl === Number.POSITIVE_INFINITY ? ttl : clock() + ttl,
      inserted: ++insertions,
    })
  }

  return {
    get,
    set,
    load(key, loader) {
      const hit = get(key)
      if (hit !== undefined) return hit
      let pending = loading.get(key)
      if (pending === undefined) {
        const started: Promise<V> = loader(key).then(
          (value) => {
            if (loading.get(key) === started) {
              loading.delete(key)
              set(key, value)
            }
            return value
          },
          (error: unknown) => {
            if (loading.get(key) === started) loading.delete(key)
            throw error
          },
        )
        pending = started
        loading.set(key, pending)
      }
      return pending
    },
    delete(key) {
      entries.delete(key)
      loading.delete(key)
    },
    deleteWhere(test) {
      for (const [key, entry] of entries) if (test(entry.value, key)) entries.delete(key)
    },
    clear() {
      entries.clear()
      loading.clear()
    },
    get size() {
      return entries.size
    },
  }
}
