/**
 * One-at-a-time jobs per events store: a queue runs each task after the one queued before it on the
 * same store object has settled (resolved or failed), so that two runs of a job that must not overlap
 * (a fold, a seal) queue within one process. Across processes the server's pass takes a lock
 * (`workers/session-fold-pass.ts`).
 */
import type { EventsStore } from './events-store.js'

/** A queue: `(store, task)` runs `task` after the tasks queued on `store` before; its result or error. */
export type StoreQueue = <T>(store: EventsStore, task: () => Promise<T>) => Promise<T>

/** A new queue (each job keeps its own, so a fold does not wait for a seal). */
export function createStoreQueue(): StoreQueue {
  const last = new WeakMap<EventsStore, Promise<unknown>>()
  return <T>(store: EventsStore, task: () => Promise<T>): Promise<T> => {
    const previous = last.get(store) ?? Promise.resolve()
    const next = previous.catch(() => undefined).then(task)
    last.set(store, next)
    return next
  }
}
