import { describe, expect, it, vi } from 'vitest'
import { type Change, createChangeFeed } from './change-feed.js'

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
