/** Both session stores, on the same assertions: the in-process Map and real Redis. */
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { createRedisSessionStore } from './redis-session-store.js'
import { createMemorySessionStore, SESSION_TIMEOUT_MS, type SessionStore } from './session-store.js'

const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', {
  keyPrefix: `test:sessions:${process.pid}:${Date.now()}:`,
  lazyConnect: true,
})
afterAll(() => redis.quit())

const stores: [string, (timeoutMs: number) => SessionStore][] = [
  ['in process', (timeoutMs) => createMemorySessionStore(timeoutMs)],
  ['Redis', (timeoutMs) => createRedisSessionStore(redis, timeoutMs)],
]

describe.each(stores)('session store: %s', (_name, make) => {
  it('starts a session, keeps it while events come, and starts a new one after the timeout', async () => {
    const store = make(300)
    const t0 = Date.now()
    const first = await store.touch('1:alice', t0)
    expect(first.isNew).toBe(true)
    const again = await store.touch('1:alice', t0 + 100)
    expect(again).toEqual({ sessionId: first.sessionId, isNew: false })
    const other = await store.touch('1:bob', t0 + 100)
    expect(other.sessionId).not.toBe(first.sessionId)
    await new Promise((resolve) => setTimeout(resolve, 450))
    const later = await store.touch('1:alice', Date.now())
    expect(later.isNew).toBe(true)
    expect(later.sessionId).not.toBe(first.sessionId)
    await store.close()
  })

  it('joins an event 29:59 or 30:00 after the latest one, and starts a new session at 30:01', async () => {
    const store = make(SESSION_TIMEOUT_MS)
    const t0 = Date.now()
    const second = 1000
    for (const [gap, joins] of [
      [29 * 60 * second + 59 * second, true],
      [30 * 60 * second, true],
      [30 * 60 * second + 1, false],
      [30 * 60 * second + 1 * second, false],
    ] as const) {
      const visitor = `3:gap-${gap}`
      const first = await store.touch(visitor, t0)
      const next = await store.touch(visitor, t0 + gap)
      expect({ gap, joins: next.sessionId === first.sessionId, isNew: next.isNew }).toEqual({
        gap,
        joins,
        isNew: !joins,
      })
    }
    // The gap counts from the latest event: 30:00 after an event that itself came 30:00 late.
    const chain = await store.touch('3:chain', t0)
    expect((await store.touch('3:chain', t0 + SESSION_TIMEOUT_MS)).sessionId).toBe(chain.sessionId)
    expect((await store.touch('3:chain', t0 + 2 * SESSION_TIMEOUT_MS)).sessionId).toBe(chain.sessionId)
    expect((await store.touch('3:chain', t0 + 3 * SESSION_TIMEOUT_MS + 1)).isNew).toBe(true)
    await store.close()
  })

  it('gives concurrent first events of one visitor one session', async () => {
    const store = make(60_000)
    const now = Date.now()
    const results = await Promise.all(Array.from({ length: 20 }, () => store.touch('2:carol', now)))
    expect(new Set(results.map((r) => r.sessionId)).size).toBe(1)
    expect(results.filter((r) => r.isNew)).toHaveLength(1)
    await store.close()
  })
})
