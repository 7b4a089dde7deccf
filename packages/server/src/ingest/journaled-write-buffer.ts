/**
 * The default write buffer: acknowledge after the journal, commit to the events store in batches.
 *
 * `add(row)` serialises the row once (`encodeEventRow`) and resolves once that line is appended to the
 * journal (group commit: rows that arrive while an append runs share the next one), so a 200 costs one
 * write(2), not an events-store insert. The same lines are what the insert sends. Every
 * `maxDelayMs` (or at `maxRows` rows) the journal segment is rotated and its rows are inserted into the
 * events store; the segment file is deleted only after that insert succeeds. A failed insert is retried
 * with backoff (1 s doubling to 30 s) and nothing is dropped; if the backlog reaches `maxPendingRows`,
 * `add` rejects (the endpoint answers 503) rather than grow memory without bound.
 * After a crash, `recoverJournal` inserts what the segments hold and the store lacks.
 */
import { encodeEventRow } from '../storage/events/encode-event-row.js'
import type { Journal } from './journal.js'
import type { WriteBuffer } from './write-buffer.js'

export interface JournaledWriteBufferOptions {
  maxRows: number
  maxDelayMs: number
  /** Rows acknowledged but not yet in the events store, beyond which `add` rejects. Default 1,000,000. */
  maxPendingRows?: number
  onInsertError?: (error: unknown) => void
}

export class BacklogFullError extends Error {}

/**
 * What the journal must still take for health to call it writable: one tracking body's worth (the
 * largest an append of one event needs, `TRACK_BODY_LIMIT`).
 */
export const JOURNAL_PROBE_BYTES = 64 * 1024

interface Waiter {
  /** The row, encoded. */
  line: string
  /** When `add` was called (performance.now()). */
  at: number
  resolve: () => void
  reject: (error: unknown) => void
}

export function createJournaledWriteBuffer(
  journal: Journal,
  /** Inserts encoded rows into the events store (`EventsStore.insertEncoded`). */
  insert: (lines: readonly string[]) => Promise<void>,
  options: JournaledWriteBufferOptions,
): WriteBuffer {
  const maxPending = options.maxPendingRows ?? 1_000_000
  let queue: Waiter[] = []
  /** Journaled into the current segment, not yet inserted. */
  let unsaved: string[] = []
  /** When the first row of `unsaved` was added (performance.now()). */
  let unsavedSince = 0
  /**
   * Closed segments awaiting insert, oldest first; `done` rows of the first are already inserted;
   * `since`: when the segment's first row was added.
   */
  const closed: { segment: string; rows: string[]; done: number; since: number }[] = []
  let closedRows = 0
  let acknowledgedRows = 0
  let committedRows = 0
  let batches = 0
  let stopped = false
  /** The last insert failed and none has succeeded since. */
  let failing = false

  // Journal operations (appends and rotations) run one at a time, in order.
  let chain: Promise<unknown> = Promise.resolve()
  const serial = <T>(op: () => Promise<T>): Promise<T> => {
    const next = chain.then(op)
    chain = next.catch(() => undefined)
    return next
  }

  let appendScheduled = false
  const scheduleAppend = () => {
    if (appendScheduled) return
    appendScheduled = true
    void serial(async () => {
      appendScheduled = false
      const batch = queue
      queue = []
      if (batch.length === 0) return
      const rows = batch.map((w) => w.line)
      try {
        await journal.append(rows)
      } catch (error) {
        for (const w of batch) w.reject(error)
        return
      }
      if (unsaved.length === 0) unsavedSince = batch[0]?.at ?? performance.now()
      for (const row of rows) unsaved.push(row)
      acknowledgedRows += rows.length
      for (const w of batch) w.resolve()
      if (unsaved.length >= options.maxRows) void drain().catch(() => undefined)
    })
  }

  const rotate = () =>
    serial(async () => {
      if (unsaved.length === 0) return
      const rows = unsaved
      const since = unsavedSince
      unsaved = []
      const segment = await journal.rotate()
      closed.push({ segment, rows, done: 0, since })
      closedRows += rows.length
    })

  let draining: Promise<void> | undefined
  /** Rotate, then insert every closed segment in order. Rejects on the first failed insert. */
  const drain = (): Promise<void> => {
    draining ??= (async () => {
      await rotate()
      for (let head = closed[0]; head; head = closed[0]) {
        while (head.done < head.rows.length) {
          const chunk = head.rows.slice(head.done, head.done + options.maxRows)
          try {
            await insert(chunk)
          } catch (error) {
            failing = true
            throw error
          }
          failing = false
          head.done += chunk.length
          committedRows += chunk.length
          closedRows -= chunk.length
          batches++
        }
        closed.shift()
        await journal.remove(head.segment)
      }
    })().finally(() => {
      draining = undefined
    })
    return draining
  }

  let delay = options.maxDelayMs
  let timer: NodeJS.Timeout | undefined
  const tick = async () => {
    timer = undefined
    try {
      if (unsaved.length > 0 || closed.length > 0) await drain()
      delay = options.maxDelayMs
    } catch (error) {
      options.onInsertError?.(error)
      delay = Math.min(Math.max(delay * 2, 1000), 30_000)
    }
    if (!stopped) {
      timer = setTimeout(tick, delay)
      timer.unref()
    }
  }
  timer = setTimeout(tick, delay)
  timer.unref()

  return {
    add(row) {
      if (queue.length + unsaved.length + closedRows >= maxPending) {
        return Promise.reject(new BacklogFullError('ingest backlog is full'))
      }
      return new Promise<void>((resolve, reject) => {
        queue.push({ line: encodeEventRow(row), at: performance.now(), resolve, reject })
        scheduleAppend()
      })
    },
    async flush() {
      await serial(async () => undefined)
      while (unsaved.length > 0 || closed.length > 0 || queue.length > 0) {
        await serial(async () => undefined)
        await drain()
      }
    },
    stats: () => ({
      acknowledgedRows,
      committedRows,
      batches,
      pendingRows: queue.length + unsaved.length + closedRows,
    }),
    oldestPendingAgeMs() {
      // Rows move queue -> unsaved -> closed in order, so the oldest is at the head of the first non-empty.
      const since = closed[0]?.since ?? (unsaved.length > 0 ? unsavedSince : queue[0]?.at)
      return since === undefined ? 0 : performance.now() - since
    },
    lastInsertFailed: () => failing,
    async localStorageProblem() {
      try {
        await journal.probe(JOURNAL_PROBE_BYTES)
        return null
      } catch (error) {
        return error instanceof Error ? error.message : String(error)
      }
    },
    async close() {
      stopped = true
      if (timer) clearTimeout(timer)
      await journal.close()
    },
  }
}
