import { describe, expect, it } from 'vitest'
import { createPrefetchOnce } from './prefetch-once'

describe('createPrefetchOnce', () => {
  it('hands a fresh request over once, for its own key only', async () => {
    let clock = 0
    let loads = 0
    const prefetch = createPrefetchOnce<number>(5000, () => clock)
    prefetch.start('a', async () => ++loads)
    prefetch.start('a', async () => ++loads)
    expect(loads).toBe(1)
    expect(prefetch.take('b')).toBeNull()
    clock = 4999
    await expect(prefetch.take('a')).resolves.toBe(1)
    expect(prefetch.take('a')).toBeNull()
  })

  it('answers null for a stale request and starts anew after it', async () => {
    let clock = 0
    let loads = 0
    const prefetch = createPrefetchOnce<number>(5000, () => clock)
    prefetch.start('a', async () => ++loads)
    clock = 5000
    prefetch.start('a', async () => ++loads)
    expect(loads).toBe(2)
    await expect(prefetch.take('a')).resolves.toBe(2)
    prefetch.start('b', async () => ++loads)
    clock = 10_000
    expect(prefetch.take('b')).toBeNull()
  })

  it('keeps a failed request that nobody takes from surfacing', async () => {
    const prefetch = createPrefetchOnce<number>()
    prefetch.start('a', () => Promise.reject(new Error('offline')))
    await expect(prefetch.take('a')).rejects.toThrow('offline')
  })
})
