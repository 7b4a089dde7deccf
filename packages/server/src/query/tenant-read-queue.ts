/**
 * Report queries queued per organization, so that one tenant's load cannot take the events store's
 * read capacity from the others: at most `concurrency` read queries of one organization run at once,
 * the next ones wait here in arrival order (at most `maxQueued` of them, each at most `maxWaitMs`), and
 * beyond that the query is refused with 429 and `Retry-After`. Organizations do not wait for each
 * other here: each has its own count and its own line.
 *
 * Which organization a query belongs to is the async context it runs in: `runAs(organizationId, work)`
 * marks everything `work` does (Node's AsyncLocalStorage), and the store `wrap` returns reads the mark
 * at each `query`. Queries outside any `runAs` (workers, health, ingest's lookups) pass straight
 * through, and so do inserts and statements: tracking never waits here.
 *
 * Why per query and not per request: one report batch runs its parts side by side, so a cap on
 * requests would still let one tenant put many queries in front of everyone else's in the store's
 * own line of sessions (`storage/events/chdb-store.ts`).
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { AppError } from '../shared/errors.js'
import type { EventsStore } from '../storage/events/events-store.js'

export interface TenantReadQueueOptions {
  /** Read queries of one organization running at once (a positive integer). */
  concurrency: number
  /** Queries of one organization waiting at once beyond those; the next is refused (≥ 0). */
  maxQueued: number
  /** How long a query may wait for its turn, in ms; then it is refused. */
  maxWaitMs: number
}

/** What the queue holds for one organization now. */
export interface TenantReadLoad {
  running: number
  waiting: number
}

export interface TenantReadQueue {
  /**
   * Run `work` with its events-store queries counted as `organizationId`'s.
   * @returns what `work` returns; its errors, and the 429 of a query refused here
   */
  runAs<T>(organizationId: string, work: () => Promise<T>): Promise<T>
  /** `store` with its `query` queued per organization (everything else as it is). */
  wrap(store: EventsStore): EventsStore
  /** The queries of `organizationId` running and waiting now (for tests and metrics). */
  load(organizationId: string): TenantReadLoad
}

interface Waiter {
  start: () => void
  timer: NodeJS.Timeout
}

interface Line {
  running: number
  waiting: Waiter[]
}

/**
 * The 429 of a query refused by the queue, with `Retry-After` in whole seconds.
 * @param reason `full` (too many waiting) or `waited` (its turn did not come within `maxWaitMs`)
 */
export function readQueueRefusal(reason: 'full' | 'waited', retryAfterSeconds: number): AppError {
  const message =
    reason === 'full'
      ? 'Too many report queries of this organization are waiting: retry later'
      : 'The report queries of this organization did not get their turn in time: retry later'
  return new AppError(429, message, undefined, { 'retry-after': String(retryAfterSeconds) })
}

/** A queue with the given bounds. @throws Error when a bound is out of range */
export function createTenantReadQueue(options: TenantReadQueueOptions): TenantReadQueue {
  const { concurrency, maxQueued, maxWaitMs } = options
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('concurrency must be ≥ 1')
  if (!Number.isInteger(maxQueued) || maxQueued < 0) throw new Error('maxQueued must be ≥ 0')
  const retryAfter = Math.max(1, Math.ceil(maxWaitMs / 1000))
  const tenant = new AsyncLocalStorage<string>()
  const lines = new Map<string, Line>()

  const release = (organizationId: string, line: Line) => {
    const next = line.waiting.shift()
    if (next) {
      clearTimeout(next.timer)
      next.start()
      return
    }
    line.running--
    if (line.running === 0) lines.delete(organizationId)
  }

  /** Resolves once a query of `organizationId` may run (the slot is then taken). */
  const acquire = (organizationId: string): Promise<Line> => {
    let line = lines.get(organizationId)
    if (!line) {
      line = { running: 0, waiting: [] }
      lines.set(organizationId, line)
    }
    const current = line
    if (current.running < concurrency) {
      current.running++
      return Promise.resolve(current)
    }
    if (current.waiting.length >= maxQueued) return Promise.reject(readQueueRefusal('full', retryAfter))
    return new Promise<Line>((resolve, reject) => {
      const waiter: Waiter = {
        // A released slot passes straight to the waiter: `running` stays as it is.
        start: () => resolve(current),
        timer: setTimeout(() => {
          const at = current.waiting.indexOf(waiter)
          if (at !== -1) current.waiting.splice(at, 1)
          reject(readQueueRefusal('waited', retryAfter))
        }, maxWaitMs),
      }
      current.waiting.push(waiter)
    })
  }

  return {
    runAs: (organizationId, work) => tenant.run(organizationId, work),
    wrap(store) {
      return {
        kind: store.kind,
        insert: (rows) => store.insert(rows),
        insertEncoded: (lines) => store.insertEncoded(lines),
        insertReplay: (rows) => store.insertReplay(rows),
        command: (sql, params) => store.command(sql, params),
        close: () => store.close(),
        async query(sql, params, queryOptions) {
          const organizationId = tenant.getStore()
          if (organizationId === undefined) return store.query(sql, params, queryOptions)
          const line = await acquire(organizationId)
          try {
            return await store.query(sql, params, queryOptions)
          } finally {
            release(organizationId, line)
          }
        },
      }
    },
    load(organizationId) {
      const line = lines.get(organizationId)
      return { running: line?.running ?? 0, waiting: line?.waiting.length ?? 0 }
    },
  }
}
