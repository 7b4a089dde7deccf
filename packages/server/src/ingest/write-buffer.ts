/**
 * Direct group commit, of event rows with INGEST_JOURNAL=off (the default is `journaled-write-buffer.ts`)
 * and of session replay batches: callers await `add()`, which resolves only once the batch holding
 * their row is committed to the events store, and rejects if that insert fails (then nothing of the
 * batch is acknowledged). A batch flushes at `maxRows` rows or `maxDelayMs` after its first row,
 * whichever comes first. At most `maxConcurrentWrites` inserts run at once; rows arriving meanwhile form
 * the next batch, written as soon as an insert ends, so under load batches grow and inserts stay few.
 */
import type { EventRow } from '../storage/events/event-row.js'

interface Waiter {
  resolve: () => void
  reject: (error: unknown) => void
}

/** A group commit of `Row`s (event rows unless told otherwise). */
export interface WriteBuffer<Row = EventRow> {
  add(row: Row): Promise<void>
  /** Commit everything pending; resolves when the store has it (used at shutdown). */
  flush(): Promise<void>
  /** Rows acknowledged, rows committed to the events store, inserts made, rows not yet committed. */
  stats(): { acknowledgedRows: number; committedRows: number; batches: number; pendingRows: number }
  /**
   * How long the oldest row not yet committed to the events store has waited since `add()`, in ms
   * (monotonic clock); 0 when none is pending. Operators alert on it: it grows while inserts fail.
   */
  oldestPendingAgeMs(): number
  /**
   * Whether the last events-store insert failed and none has succeeded since: the store refuses writes
   * (disk full, store down). False before the first insert. Health reports it (`http/health.ts`).
   */
  lastInsertFailed(): boolean
  /**
   * Why the buffer cannot accept a row now for a reason of its own storage (the ingest journal: a full
   * disk, a read-only filesystem), checked by trying: null when it can. Absent on a buffer that keeps
   * nothing locally (rows go straight to the events store, whose health is checked apart).
   * @returns e.g. `'ENOSPC: no space left on device, write'`
   */
  localStorageProblem?(): Promise<string | null>
  /** Stop background work (call after `flush`). */
  close(): Promise<void>
}

export interface WriteBufferOptions {
  /** Flush when this many rows are pending. */
  maxRows: number
  /** Flush this long after the first pending row arrived, in ms. */
  maxDelayMs: number
  /** Inserts in flight at once (default 2): while one commits, the next batch can start. */
  maxConcurrentWrites?: number
}

export function createWriteBuffer<Row = EventRow>(
  insert: (rows: readonly Row[]) => Promise<void>,
  options: WriteBufferOptions,
): WriteBuffer<Row> {
  const maxWrites = Math.max(1, options.maxConcurrentWrites ?? 2)
  let rows: Row[] = []
  let waiters: Waiter[] = []
  /** When the first row of `rows` was added (performance.now()). */
  let rowsSince = 0
  /** Inserts in flight, each with when its first row was added. */
  const writingSince = new Map<Promise<void>, number>()
  let timer: NodeJS.Timeout | undefined
  const writing = new Set<Promise<void>>()
  let committedRows = 0
  let batches = 0
  let failing = false

  const startWrite = () => {
    if (timer) {
      clearTimeout(timer)
      timer = undefined
    }
    if (rows.length === 0 || writing.size >= maxWrites) return
    const batch = rows
    const batchWaiters = waiters
    rows = []
    waiters = []
    const write: Promise<void> = insert(batch).then(
      () => {
        writingSince.delete(write)
        failing = false
        committedRows += batch.length
        batches++
        for (const w of batchWaiters) w.resolve()
      },
      (error: unknown) => {
        writingSince.delete(write)
        failing = true
        for (const w of batchWaiters) w.reject(error)
      },
    )
    writing.add(write)
    writingSince.set(write, rowsSince)
    void write.finally(() => {
      writing.delete(write)
      // Rows that arrived during the insert have waited long enough: write them now.
      if (rows.length > 0) startWrite()
    })
  }

  return {
    add(row) {
      return new Promise<void>((resolve, reject) => {
        if (rows.length === 0) rowsSince = performance.now()
        rows.push(row)
        waiters.push({ resolve, reject })
        if (rows.length >= options.maxRows) startWrite()
        else if (!timer && writing.size < maxWrites) timer = setTimeout(startWrite, options.maxDelayMs)
      })
    },
    async flush() {
      while (writing.size > 0 || rows.length > 0) {
        startWrite()
        await Promise.allSettled([...writing])
      }
    },
    stats: () => ({ acknowledgedRows: committedRows, committedRows, batches, pendingRows: rows.length }),
    oldestPendingAgeMs() {
      const since = Math.min(...writingSince.values(), rows.length > 0 ? rowsSince : Number.POSITIVE_INFINITY)
      return since === Number.POSITIVE_INFINITY ? 0 : performance.now() - since
    },
    lastInsertFailed: () => failing,
    async close() {},
  }
}
