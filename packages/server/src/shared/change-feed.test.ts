import crypto from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { type Change, createChangeFeed, createRedisChangeFeed } from './change-feed.js'

describe('createChangeFeed', () => {
  it('tells every listener of each change, in subscription order, until it unsubscribes', () => {
    const feed = createChangeFeed()
    const seen: string[] = []
    const first = vi.fn((change: Change) => seen.push(`first ${change.kind}`))
    const unsubscribe = feed.subscribe(first)
    feed.subscribe((change) => seen.push(`second ${change.kind}`))
    feed.announce({ kind: 'site', siteId: 1 })
    unsubscribe()
    feed.announce({ kind: 'member', organizationId: 'org', userId: 'u1' })
    expect(seen).toEqual(['first site', 'second site', 'second member'])
    expect(first).toHaveBeenCalledWith({ kind: 'site', siteId: 1 })
  })
})

describe('createRedisChangeFeed', () => {
  const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
  const opened: { close(): Promise<void> }[] = []
  afterAll(async () => {
    for (const resource of opened.reverse()) await resource.close()
  })
  const connect = () => {
    const redis = new Redis(url)
    opened.push({ close: () => redis.quit().then(() => undefined) })
    return redis
  }

  it("replays one node's announcements to the other nodes' listeners, once, and to its own at once", async () => {
    const channel = `test:${crypto.randomUUID()}:changes`
    const a = await createRedisChangeFeed(connect(), channel)
    const b = await createRedisChangeFeed(connect(), channel)
    opened.push(a, b)
    const seenByA: Change[] = []
    const seenByB: Change[] = []
    a.subscribe((change) => seenByA.push(change))
    const arrived = new Promise<Change>((resolve) =>
      b.subscribe((change) => {
        seenByB.push(change)
        resolve(change)
      }),
    )
    const removed: Change = { kind: 'member', organizationId: 'org-1', userId: 'user-1' }
    const announced = a.announce(removed)
    expect(seenByA).toEqual([removed])
    await announced
    expect(await arrived).toEqual(removed)
    // A's own message is not replayed to A; a later change reaches B in order.
    const revoked = new Promise<void>((resolve) =>
      b.subscribe((change) => change.kind === 'api_key' && resolve()),
    )
    await a.announce({ kind: 'api_key', keyId: 'key-1' })
    await revoked
    expect(seenByA).toEqual([removed, { kind: 'api_key', keyId: 'key-1' }])
    expect(seenByB).toEqual([removed, { kind: 'api_key', keyId: 'key-1' }])
  })

  it('reports an unreadable message and tells no listener', async () => {
    const channel = `test:${crypto.randomUUID()}:changes`
    const problems: unknown[] = []
    const reported = new Promise<void>((resolve) => {
      void createRedisChangeFeed(connect(), channel, (error) => {
        problems.push(error)
        resolve()
      }).then((feed) => {
        opened.push(feed)
        feed.subscribe(() => problems.push('a listener ran'))
        void connect().publish(
          channel,
          JSON.stringify({ origin: 'x', change: { kind: 'member', userId: 1 } }),
        )
      })
    })
    await reported
    expect(problems).toHaveLength(1)
    expect(problems[0]).toBeInstanceOf(Error)
  })
})
