/**
 * A small bounded least-recently-used cache on top of `Map` (whose iteration order is insertion order).
 *
 * Used by the enrichment modules for hot, repetitive inputs (user-agent strings). Not thread-shared:
 * one instance per process, synchronous access only.
 */

/**
 * Bounded LRU cache mapping keys of type `K` to values of type `V`.
 *
 * - `get` marks the entry as most recently used and returns `undefined` on a miss.
 * - `set` inserts or refreshes an entry and evicts the least recently used one when `size` would exceed
 *   `maxEntries`.
 *
 * Errors: the constructor throws `RangeError` if `maxEntries` is not a positive integer.
 */
export class LruCache<K, V> {
  readonly #entries = new Map<K, V>()
  readonly #maxEntries: number

  /** @param maxEntries upper bound on the number of entries kept (positive integer). */
  constructor(maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`LruCache: maxEntries must be a positive integer, got ${maxEntries}`)
    }
    this.#maxEntries = maxEntries
  }

  /** Number of entries currently held (0..maxEntries). */
  get size(): number {
    return this.#entries.size
  }

  /** Returns the cached value for `key` (and marks it most recently used), or `undefined` on a miss. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key)
    if (value === undefined) return undefined
    this.#entries.delete(key)
    this.#entries.set(key, value)
    return value
  }

  /** Stores `value` under `key` as the most recently used entry, evicting the oldest entry if full. */
  set(key: K, value: V): void {
    if (this.#entries.has(key)) this.#entries.delete(key)
    else if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next()
      if (!oldest.done) this.#entries.delete(oldest.value)
    }
    this.#entries.set(key, value)
  }

  /** Removes every entry. */
  clear(): void {
    this.#entries.clear()
  }
}
