/**
 * The change feed: domain commands announce what they changed in the metadata store, and every cache
 * of that metadata subscribes and drops its entries at once. One feed per process, created in
 * `services.ts`. With Redis (`createRedisChangeFeed`) every announcement is also published on one
 * channel and replayed to the listeners of every other API node, so their caches drop the entry as
 * soon as the message arrives; without, other nodes see a change when their entries expire (site
 * lookup 2 s, tracker config 5 s, goals and webhook subscriptions 5 s, roles 30 s, API keys 60 s).
 * A message lost to a Redis outage falls back to those expiries.
 *
 * Listeners run synchronously, in subscription order, after the change is committed; they must not
 * throw (they only delete cache entries).
 */
import crypto from 'node:crypto'
import type { Redis } from 'ioredis'
import { z } from 'zod'

/**
 * What changed: a site row (config, limit, private link, deletion), a site's goals or webhooks, a
 * membership (added, role changed, removed), an API key (deleted), every membership of an organization
 * (the organization deleted) or everything of a user (the account deleted: memberships and keys).
 */
export type Change =
  | { kind: 'site'; siteId: number }
  | { kind: 'goals'; siteId: number }
  | { kind: 'webhooks'; siteId: number }
  | { kind: 'member'; organizationId: string; userId: string }
  | { kind: 'api_key'; keyId: string }
  | { kind: 'organization'; organizationId: string }
  | { kind: 'user'; userId: string }

export type ChangeListener = (change: Change) => void

export interface ChangeFeed {
  /**
   * Tell every listener about a committed change: this process's at once, before this returns; with
   * Redis, the other nodes' once the promise resolves (the message is published). The promise never
   * rejects: a failed publish is reported and left to the caches' expiry.
   */
  announce(change: Change): Promise<void>
  /** @returns a function that ends the subscription */
  subscribe(listener: ChangeListener): () => void
}

/** A feed shared with other processes; `close` ends its subscription connection. */
export interface SharedChangeFeed extends ChangeFeed {
  close(): Promise<void>
}

const settled = Promise.resolve()

/** The feed of one process alone. */
export function createChangeFeed(): ChangeFeed {
  const listeners = new Set<ChangeListener>()
  return {
    announce(change) {
      for (const listener of listeners) listener(change)
      return settled
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

const id = z.string().min(1).max(200)
const siteId = z.number().int().nonnegative()
/** A change as published: the same union, parsed again since it crosses processes. */
const changeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('site'), siteId }),
  z.object({ kind: z.literal('goals'), siteId }),
  z.object({ kind: z.literal('webhooks'), siteId }),
  z.object({ kind: z.literal('member'), organizationId: id, userId: id }),
  z.object({ kind: z.literal('api_key'), keyId: id }),
  z.object({ kind: z.literal('organization'), organizationId: id }),
  z.object({ kind: z.literal('user'), userId: id }),
])
const messageSchema = z.object({ origin: z.string(), change: changeSchema })

/**
 * A change feed shared through Redis pub/sub on `channel` (Redis key prefixes do not apply to
 * channels: include the instance's prefix in the name). Subscribes on a connection of its own (a
 * duplicate of `redis`) and resolves once the subscription is active, so no change published after
 * that is missed. A node ignores its own messages (its listeners ran when it announced).
 * @param onError told of a failed publish or an unreadable message; default `console.error`
 */
export async function createRedisChangeFeed(
  redis: Redis,
  channel: string,
  onError: (error: unknown) => void = (error) => console.error('change feed:', error),
): Promise<SharedChangeFeed> {
  const local = createChangeFeed()
  const origin = crypto.randomUUID()
  const subscriber = redis.duplicate()
  subscriber.on('message', (from: string, text: string) => {
    if (from !== channel) return
    let message: z.infer<typeof messageSchema>
    try {
      message = messageSchema.parse(JSON.parse(text))
    } catch (error) {
      onError(error)
      return
    }
    if (message.origin !== origin) void local.announce(message.change)
  })
  // Errors of the subscription connection are retried by ioredis; report them rather than crash.
  subscriber.on('error', onError)
  await subscriber.subscribe(channel)
  return {
    async announce(change) {
      await local.announce(change)
      try {
        await redis.publish(channel, JSON.stringify({ origin, change }))
      } catch (error) {
        onError(error)
      }
    },
    subscribe: local.subscribe,
    async close() {
      await subscriber.quit().catch(() => subscriber.disconnect())
    },
  }
}
