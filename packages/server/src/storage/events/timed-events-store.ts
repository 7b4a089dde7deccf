/**
 * An events store that times what it forwards: every `insert`, and every `query` that carries a
 * `label` (the report running it), reported to the observers in seconds (monotonic clock), whether
 * the call succeeds or fails. Otherwise it behaves exactly as the store it wraps.
 */
import type { EventsStore } from './events-store.js'

export interface EventsStoreTimings {
  /** One insert of `rows` rows took `seconds`. */
  insert(seconds: number, rows: number): void
  /** One labelled query took `seconds`. */
  query(label: string, seconds: number): void
}

/**
 * Wrap `store` so its inserts and labelled queries are timed.
 * @returns a store with the same `kind`, results and errors as `store`
 */
export function timeEventsStore(store: EventsStore, observe: EventsStoreTimings): EventsStore {
  const secondsSince = (started: number) => (performance.now() - started) / 1000
  return {
    kind: store.kind,
    async insert(rows) {
      const started = performance.now()
      try {
        return await store.insert(rows)
      } finally {
        observe.insert(secondsSince(started), rows.length)
      }
    },
    async insertEncoded(lines) {
      const started = performance.now()
      try {
        return await store.insertEncoded(lines)
      } finally {
        observe.insert(secondsSince(started), lines.length)
      }
    },
    async query(sql, params, options) {
      const label = options?.label
      if (label === undefined) return store.query(sql, params, options)
      const started = performance.now()
      try {
        return await store.query(sql, params, options)
      } finally {
        observe.query(label, secondsSince(started))
      }
    },
    insertReplay: (rows) => store.insertReplay(rows),
    command: (sql, params) => store.command(sql, params),
    close: () => store.close(),
  }
}
