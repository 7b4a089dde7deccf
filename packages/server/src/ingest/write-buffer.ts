/**
 * Group commit for event rows: callers await `add()`, which resolves only once the batch holding
 * their row is committed to the events store, and rejects if that insert fails (then nothing of the
 * batch is acknowledged). A batch flushes at `maxRows` rows or `maxDelayMs` after its first row,
 * whichever comes first; one insert runs at a time, and rows arriving meanwhile form the next batch,
 * written as soon as the previous insert ends, so under load batches grow and inserts stay few.
 */
import type { EventRow } from '../storage/events/event-row.js'

interface Waiter {
  resolve: () => void
  reject: (error: unknown) => void
}

export interface WriteBuffer {
  add(row: EventRow): Promise<void>
  /** Commit everything pending; resolves when the store has it (used at shutdown). */
  flush(): Promise<void>
  /** Rows acknowledged so far (committed), and batches written. */
  stats(): { committedRows: number; batches: number; pendingRows: number }
}

export function createWriteBuffer(
  insert: (rows: readonly EventRow[]) => Promise<void>,
  options: { maxRows: number; maxDelayMs: number },
): WriteBuffer {
  let rows: EventRow[] = []
  let waiters: Waiter[] = []
  let timer: NodeJS.Timeout | undefined
  let writing: Promise<void> | undefined
  let committedRows = 0
  let batches = 0

  const startWrite = () => {
    if (writing || rows.length === 0) return
    if (timer) {
      clearTimeout(timer)
      timer = undefined
    }
    const batch = rows
    const batchWaiters = waiters
    rows = []
    waiters = []
    writing = insert(batch).then(
      () => {
        committedRows += batch.length
        batches++
        for (const w of batchWaiters) w.resolve()
      },
      (error: unknown) => {
        for (const w of batchWaiters) w.reject(error)
      },
    )
    void writing.finally(() => {
      writing = undefined
      // Rows that arrived during the insert have waited long enough: write them now.
      if (rows.length > 0) startWrite()
    })
  }

  return {
    add(row) {
      return new Promise<void>((resolve, reject) => {
        rows.push(row)
        waiters.push({ resolve, reject })
        if (rows.length >= options.maxRows) startWrite()
        else if (!timer && !writing) timer = setTimeout(startWrite, options.maxDelayMs)
      })
    },
    async flush() {
      while (writing || rows.length > 0) {
        if (!writing) startWrite()
        await writing?.catch(() => undefined)
      }
    },
    stats: () => ({ committedRows, batches, pendingRows: rows.length }),
  }
}
