import { describe, expect, it, vi } from 'vitest'
import { createTtlCache } from './ttl-cache.js'

const clockAt = (start = 0) => {
  const clock = { now: start, read: () => clock.now }
  return clock
}

describe('createTtlCache', () => {
  it('serves a value for ttlMs, then misses', () => {
    const clock = clockAt()
    const cache = createTtlCache<string, number | null>({ ttlMs: 1000, maxEntries: 10, clock: clock.read })
    cache.set('a', 1)
    cache.set('none', null)
    clock.now = 999
    expect(cache.get('a')).toBe(1)
    expect(cache.get('none')).toBeNull()
    expect(cache.get('b')).toBeUndefined()
    clock.now = 1000
    expect(cache.get('a')).toBeUndefined()
    expect(cache.size).toBe(1)
  })

  it('takes a shorter lifetime per entry, and Infinity for no expiry', () => {
    const clock = clockAt()
    const cache = createTtlCache<string, number>({ ttlMs: 1000, maxEntries: 10, clock: clock.read })
    cache.set('short', 1, 10)
    cache.set('forever', 2, Number.POSITIVE_INFINITY)
    clock.now = 10
    expect(cache.get('short')).toBeUndefined()
    clock.now = 1e12
    expect(cache.get('forever')).toBe(2)
  })

  it('evicts the entry set longest ago when full, refreshing a key that is set again', () => {
    const cache = createTtlCache<string, number>({ ttlMs: 1000, maxEntries: 2 })
    cache.set('a', 1)
    cache.set('b', 2)
    cache.get('a')
    cache.set('b', 20)
    cache.set('c', 3)
    expect(cache.get('a')).toBeUndefined()
    expect(cache.get('b')).toBe(20)
    expect(cache.get('c')).toBe(3)
    expect(cache.size).toBe(2)
  })

  it('with lru, evicts the entry read longest ago', () => {
    const cache = createTtlCache<string, number>({
      ttlMs: Number.POSITIVE_INFINITY,
      maxEntries: 2,
      lru: true,
    })
    cache.set('a', 1)
    cache.set('b', 2)
    cache.get('a')
    cache.set('c', 3)
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')).toBe(1)
    expect(cache.get('c')).toBe(3)
  })

  it('with lru, keeps an entry read once per half a cache of insertions, however many keys pass', () => {
    const cache = createTtlCache<string, number>({
      ttlMs: Number.POSITIVE_INFINITY,
      maxEntries: 100,
      lru: true,
    })
    cache.set('hot', 0)
    for (let i = 0; i < 10_000; i++) {
      cache.set(`cold-${i}`, i)
      if (i % 50 === 0) expect(cache.get('hot')).toBe(0)
    }
    expect(cache.get('hot')).toBe(0)
    expect(cache.size).toBe(100)
    // A key not read is evicted after a cache's worth of insertions, as without lru.
    expect(cache.get('cold-9899')).toBeUndefined()
    expect(cache.get('cold-9999')).toBe(9999)
  })

  it('never grows past its bound', () => {
    const cache = createTtlCache<number, number>({ ttlMs: Number.POSITIVE_INFINITY, maxEntries: 100 })
    for (let i = 0; i < 1_000; i++) cache.set(i, i)
    expect(cache.size).toBe(100)
    expect(cache.get(899)).toBeUndefined()
    expect(cache.get(900)).toBe(900)
    cache.clear()
    expect(cache.size).toBe(0)
  })

  it('deletes one key, or every entry a test picks', () => {
    const cache = createTtlCache<string, number>({ ttlMs: 1000, maxEntries: 10 })
    for (const [key, value] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const)
      cache.set(key, value)
    cache.delete('a')
    cache.deleteWhere((value) => value === 3)
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, undefined])
  })

  it('load: one loader call for concurrent misses, then hits without calling it', async () => {
    const cache = createTtlCache<number, string>({ ttlMs: 1000, maxEntries: 10 })
    const loader = vi.fn(async (key: number) => `site ${key}`)
    const [a, b] = await Promise.all([cache.load(7, loader), cache.load(7, loader)])
    expect([a, b]).toEqual(['site 7', 'site 7'])
    expect(cache.load(7, loader)).toBe('site 7')
    expect(loader).toHaveBeenCalledTimes(1)
  })

  it('load: a delete during the load keeps its stale result out; rejections are not stored', async () => {
    const cache = createTtlCache<number, string>({ ttlMs: 1000, maxEntries: 10 })
    let release = (_value: string) => {}
    const slow = cache.load(1, () => new Promise<string>((resolve) => (release = resolve)))
    cache.delete(1)
    release('before the change')
    expect(await slow).toBe('before the change')
    expect(cache.get(1)).toBeUndefined()

    await expect(cache.load(2, async () => Promise.reject(new Error('down')))).rejects.toThrow('down')
    expect(await cache.load(2, async () => 'up')).toBe('up')
  })

  it('rejects a bound that is not a positive integer, and a negative lifetime', () => {
    expect(() => createTtlCache({ ttlMs: 1, maxEntries: 0 })).toThrow(RangeError)
    expect(() => createTtlCache({ ttlMs: 1, maxEntries: 1.5 })).toThrow(RangeError)
    expect(() => createTtlCache({ ttlMs: -1, maxEntries: 1 })).toThrow(RangeError)
  })
})
