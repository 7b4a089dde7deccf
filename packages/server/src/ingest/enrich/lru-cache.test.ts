import { describe, expect, it } from 'vitest'
import { LruCache } from './lru-cache.js'

describe('LruCache', () => {
  it('returns stored values and undefined on a miss', () => {
    const cache = new LruCache<string, number>(3)
    cache.set('a', 1)
    expect(cache.get('a')).toBe(1)
    expect(cache.get('b')).toBeUndefined()
  })

  it('evicts the least recently used entry when full', () => {
    const cache = new LruCache<string, number>(2)
    cache.set('a', 1)
    cache.set('b', 2)
    cache.get('a')
    cache.set('c', 3)
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')).toBe(1)
    expect(cache.get('c')).toBe(3)
    expect(cache.size).toBe(2)
  })

  it('refreshes an existing key without evicting another', () => {
    const cache = new LruCache<string, number>(2)
    cache.set('a', 1)
    cache.set('b', 2)
    cache.set('a', 10)
    expect(cache.size).toBe(2)
    cache.set('c', 3)
    expect(cache.get('a')).toBe(10)
    expect(cache.get('b')).toBeUndefined()
  })

  it('never grows past its bound', () => {
    const cache = new LruCache<number, number>(100)
    for (let i = 0; i < 1_000; i++) cache.set(i, i)
    expect(cache.size).toBe(100)
    expect(cache.get(899)).toBeUndefined()
    expect(cache.get(900)).toBe(900)
    cache.clear()
    expect(cache.size).toBe(0)
  })

  it('rejects a bound that is not a positive integer', () => {
    expect(() => new LruCache(0)).toThrow(RangeError)
    expect(() => new LruCache(1.5)).toThrow(RangeError)
  })
})
