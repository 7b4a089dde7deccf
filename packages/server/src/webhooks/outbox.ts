/**
 * The webhook outbox: when a fact happens (a session starts, a custom event is tracked, a goal converts,
 * an alert fires), one delivery row per subscribed, enabled webhook is written to the metadata store;
 * the worker (workers/webhook-worker.ts) sends them. Rows from concurrent facts are written together
 * (group commit), and `enqueue` resolves once they are stored, so the caller can acknowledge the fact
 * knowing its deliveries will survive a crash. Sites without subscribers cost one cached lookup; the
 * subscriptions of a site are cached `cacheTtlMs` (default 5 s), dropped at once when a webhook change
 * is announced on `changes` in this process.
 *
 * A fact may carry a key (`FactKey`): its payload id and each of its delivery ids are then derived from
 * the key (and the webhook), and a delivery whose id is already stored is not written again, so
 * enqueueing the same fact twice (journal recovery after a crash, two API nodes) stores it once.
 */
import crypto from 'node:crypto'
import type { ChangeFeed } from '../shared/change-feed.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import { createTtlCache } from '../shared/ttl-cache.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { toBool } from '../storage/metadata/schema.js'
import type { WebhookDeliveryTable } from '../storage/metadata/webhook-schema.js'
import type { WebhookEventType, WebhookPayload } from './webhook-events.js'

/** What identifies a fact, so that it is stored once however often it is enqueued. */
export interface FactKey {
  /** Unique per site and fact, e.g. `event.tracked:<event_id>`, `goal.converted:<session>:<goal>`. */
  key: string
  /** When the fact happened (ISO 8601 UTC): the payload's `createdAt`. Default now. */
  at?: string
}

export interface Outbox {
  /**
   * Enqueue a fact for every webhook of the site subscribed to its type. With `fact`, the payload and
   * delivery ids derive from its key and a delivery already stored is not stored again (idempotent).
   * @returns undefined when no webhook wants it (nothing to wait for), else a promise of the stored rows
   */
  enqueue(
    siteId: number,
    type: WebhookEventType,
    data: Record<string, unknown>,
    fact?: FactKey,
  ): Promise<void> | undefined
  /** Whether any enabled webhook of the site subscribes to the type (cached like `enqueue`). */
  wants(siteId: number, type: WebhookEventType): boolean | Promise<boolean>
  /** Forget the cached subscriptions of a site (after its webhooks change). */
  invalidate(siteId: number): void
  /** Wait for pending writes. */
  flush(): Promise<void>
}

interface Subscription {
  id: string
  events: readonly string[]
}

export function createOutbox(
  db: MetadataDb,
  options: { clock?: Clock; cacheTtlMs?: number; changes?: ChangeFeed } = {},
): Outbox {
  const clock = options.clock ?? systemClock
  const subscriptions = createTtlCache<number, Subscription[]>({
    ttlMs: options.cacheTtlMs ?? 5000,
    maxEntries: 50_000,
    clock,
  })
  options.changes?.subscribe((change) => {
    if (change.kind === 'webhooks') subscriptions.delete(change.siteId)
  })

  let queue: { row: WebhookDeliveryTable; resolve: () => void; reject: (e: unknown) => void }[] = []
  let writing: Promise<void> | undefined

  const loadHooks = async (siteId: number): Promise<Subscription[]> => {
    const rows = await db
      .selectFrom('webhook')
      .select(['id', 'events', 'enabled'])
      .where('site_id', '=', siteId)
      .execute()
    return rows
      .filter((r) => toBool(r.enabled))
      .map((r) => ({ id: r.id, events: JSON.parse(r.events) as string[] }))
  }
  /** On a miss: the (shared) pending read of the site's subscriptions. */
  const load = (siteId: number) => Promise.resolve(subscriptions.load(siteId, loadHooks))

  const write = () => {
    if (writing || queue.length === 0) return
    const batch = queue
    queue = []
    writing = db
      .insertInto('webhook_delivery')
      .values(batch.map((b) => b.row))
      // A keyed fact enqueued again (journal recovery) keeps its first delivery: same id, not stored twice.
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute()
      .then(
        () => {
          for (const b of batch) b.resolve()
        },
        (error: unknown) => {
          for (const b of batch) b.reject(error)
        },
      )
      .finally(() => {
        writing = undefined
        write()
      })
  }

  const store = (
    hooks: Subscription[],
    siteId: number,
    type: WebhookEventType,
    data: Record<string, unknown>,
    fact: FactKey | undefined,
  ) => {
    const wanted = hooks.filter((h) => h.events.includes(type))
    if (wanted.length === 0) return undefined
    const now = isoNow(clock)
    const payload: WebhookPayload = {
      id: fact ? keyedUuid(`fact:${siteId}:${fact.key}`) : crypto.randomUUID(),
      type,
      createdAt: fact?.at ?? now,
      siteId,
      data,
    }
    const body = JSON.stringify(payload)
    return Promise.all(
      wanted.map(
        (hook) =>
          new Promise<void>((resolve, reject) => {
            queue.push({
              row: {
                id: fact ? keyedUuid(`delivery:${hook.id}:${siteId}:${fact.key}`) : crypto.randomUUID(),
                webhook_id: hook.id,
                site_id: siteId,
                event_type: type,
                payload: body,
                status: 'pending',
                attempts: 0,
                next_attempt_at: now,
                locked_until: null,
                last_status_code: null,
                last_error: null,
                created_at: now,
                delivered_at: null,
              },
              resolve,
              reject,
            })
            write()
          }),
      ),
    ).then(() => undefined)
  }

  return {
    enqueue(siteId, type, data, fact) {
      const cached = subscriptions.get(siteId)
      if (cached !== undefined) return store(cached, siteId, type, data, fact)
      return load(siteId).then((hooks) => store(hooks, siteId, type, data, fact))
    },
    wants(siteId, type) {
      const cached = subscriptions.get(siteId)
      if (cached !== undefined) return cached.some((h) => h.events.includes(type))
      return load(siteId).then((hooks) => hooks.some((h) => h.events.includes(type)))
    },
    invalidate(siteId) {
      subscriptions.delete(siteId)
    },
    async flush() {
      while (writing || queue.length > 0) {
        write()
        await writing?.catch(() => undefined)
      }
    },
  }
}

/**
 * A UUID derived from `name` (the first 128 bits of its SHA-256, as a version 8 UUID): the same name
 * always gives the same id, so a keyed fact's deliveries keep their ids across enqueues.
 */
export function keyedUuid(name: string): string {
  const bytes = crypto.createHash('sha256').update(name).digest().subarray(0, 16)
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
