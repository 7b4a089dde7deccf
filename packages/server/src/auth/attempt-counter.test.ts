/**
 * The attempt counters' contract, on the in-process store and on Redis: counts per key, windows that
 * start at the first attempt and end, subtract and reset.
 */
import crypto from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { type AttemptCounter, createMemoryAttemptCounter } from './attempt-counter.js'
import { createRedisAttemptCounter } from './redis-attempt-counter.js'

const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', {
  keyPrefix: `test:attempts:${crypto.randomUUID()}:`,
  lazyConnect: true,
})
afterAll(async () => {
  const keys = await redis.keys(`${redis.options.keyPrefix}*`)
  if (keys.length > 0) await redis.unlink(...keys.map((k) => k.slice(String(redis.options.keyPrefix).length)))
  redis.disconnect()
})

describe.each([
  ['memory', () => createMemoryAttemptCounter()],
  ['Redis', () => createRedisAttemptCounter(redis)],
] as const)('attempt counter in %s', (_name, open: () => AttemptCounter) => {
  it('counts per key and reports when the window ends', async () => {
    const counter = open()
    const before = Date.now()
    const [a1, b1] = await counter.add(['a', 'b'], 60_000)
    const [a2] = await counter.add(['a'], 60_000)
    expect([a1?.count, b1?.count, a2?.count]).toEqual([1, 1, 2])
    expect(a2?.resetAt).toBeGreaterThanOrEqual(before + 59_000)
    expect(a2?.resetAt).toBeLessThanOrEqual(Date.now() + 60_000)
  })

  it('subtracts and resets one key, and never counts below zero', async () => {
    const counter = open()
    await counter.add(['s', 's', 'r'], 60_000)
    await counter.add(['s'], 60_000)
    await counter.subtract('s')
    expect((await counter.add(['s'], 60_000))[0]?.count).toBe(3)
    await counter.reset('r')
    expect((await counter.add(['r'], 60_000))[0]?.count).toBe(1)
    await counter.subtract('unknown')
    expect((await counter.add(['unknown'], 60_000))[0]?.count).toBe(1)
  })

  it('forgets a key when its window ends', async () => {
    const counter = open()
    await counter.add(['w', 'w'], 150)
    await new Promise((resolve) => setTimeout(resolve, 300))
    await counter.subtract('w') // an ended window stays ended
    expect((await counter.add(['w'], 150))[0]?.count).toBe(1)
  })
})
