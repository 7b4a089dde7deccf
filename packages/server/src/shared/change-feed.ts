/**
 * The change feed: domain commands announce what they changed in the metadata store, and every cache
 * of that metadata subscribes and drops its entries at once. One feed per process, created in
 * `services.ts`; it reaches this process's caches only, so other API nodes see a change when their
 * entries expire (site lookup 2 s, tracker config 5 s, goals and webhook subscriptions 5 s, roles 30 s).
 *
 * Listeners run synchronously, in subscription order, after the change is committed; they must not
 * throw (they only delete cache entries).
 */

/** What changed: a site row (config, limit, private link, deletion), a site's goals or webhooks, a membership. */
export type Change =
  | { kind: 'site'; siteId: number }
  | { kind: 'goals'; siteId: number }
  | { kind: 'webhooks'; siteId: number }
  | { kind: 'member'; organizationId: string; userId: string }

export type ChangeListener = (change: Change) => void

export interface ChangeFeed {
  /** Tell every listener about a committed change. */
  announce(change: Change): void
  /** @returns a function that ends the subscription */
  subscribe(listener: ChangeListener): () => void
}

export function createChangeFeed(): ChangeFeed {
  const listeners = new Set<ChangeListener>()
  return {
    announce(change) {
      for (const listener of listeners) listener(change)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
