/**
 * The ingest journal: an append-only log of accepted event rows on local disk
 * (`DATA_DIR/journal/NNNNNNNNNN.jsonl`, one row per line as the events store's insert takes it: a
 * JSONCompactEachRow line of `encodeEventRow`), in numbered segments.
 *
 * Why: an acknowledged event must survive `kill -9`, and a chDB insert costs milliseconds whatever its
 * size (43 columns), which caps a commit-per-request design at concurrency / the insert's time. A
 * journal append is one write(2), far cheaper (bench/README.md "ingest"); rows reach the events store in
 * large batches behind it, and a segment is deleted
 * only once every row in it is committed there. Data written with write(2) sits in the kernel's page
 * cache and survives the death of the process; with `fsync` it also survives power loss (chDB itself
 * does not fsync its parts by default, so the default matches the events store's own guarantee).
 */
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { decodeEventLine, type EncodedEvent } from '../storage/events/encode-event-row.js'

export interface JournalSegment {
  path: string
  rows: EncodedEvent[]
  /** Lines that were not rows (a write torn by a crash; such rows were never acknowledged). */
  tornLines: number
}

export interface Journal {
  /**
   * Append encoded rows (`encodeEventRow` lines, no newlines) to the current segment; resolves once
   * written (and fsynced when configured).
   */
  append(lines: readonly string[]): Promise<void>
  /** Close the current segment and open the next; returns the closed segment's path. */
  rotate(): Promise<string>
  /** Delete a closed segment whose rows are all committed to the events store. */
  remove(segmentPath: string): Promise<void>
  close(): Promise<void>
}

const datasync = promisify(fs.fdatasync)

const segmentName = (n: number) => `${String(n).padStart(10, '0')}.jsonl`

/** Read the segments a previous process left behind (oldest first), without deleting them. */
export function readLeftoverSegments(dir: string): JournalSegment[] {
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir)
    .filter((name) => /^\d{10}\.jsonl$/.test(name))
    .sort()
    .map((name) => {
      const file = path.join(dir, name)
      const rows: EncodedEvent[] = []
      let tornLines = 0
      for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
        if (line === '') continue
        const row = decodeEventLine(line)
        if (row) rows.push(row)
        else tornLines++
      }
      return { path: file, rows, tornLines }
    })
}

/**
 * Open the journal directory for appending, starting a segment numbered after any that exist.
 * Call `readLeftoverSegments` first to recover what a previous process left.
 */
export async function openJournal(dir: string, options: { fsync?: boolean } = {}): Promise<Journal> {
  fs.mkdirSync(dir, { recursive: true })
  const existing = fs.readdirSync(dir).filter((name) => /^\d{10}\.jsonl$/.test(name))
  let number = existing.reduce((max, name) => Math.max(max, Number.parseInt(name, 10)), 0) + 1
  let currentPath = path.join(dir, segmentName(number))
  let fd = fs.openSync(currentPath, 'a')

  return {
    // Written synchronously: one write(2) of a batch into the page cache costs less on the event loop
    // than handing it to libuv's thread pool and waking a thread for it, which on a busy machine
    // also gives that thread's CPU to the scheduler's whims (bench/README.md "ingest on both cores").
    async append(lines) {
      let text = ''
      for (const line of lines) text += `${line}\n`
      const bytes = Buffer.from(text)
      let written = 0
      while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written)
      // fdatasync waits for the disk: that one runs on the thread pool.
      if (options.fsync) await datasync(fd)
    },
    async rotate() {
      const closedPath = currentPath
      fs.closeSync(fd)
      number++
      currentPath = path.join(dir, segmentName(number))
      fd = fs.openSync(currentPath, 'a')
      return closedPath
    },
    async remove(segmentPath) {
      await fs.promises.rm(segmentPath, { force: true })
    },
    async close() {
      fs.closeSync(fd)
      // An empty current segment holds nothing to recover.
      if ((await fs.promises.stat(currentPath)).size === 0) await fs.promises.rm(currentPath, { force: true })
    },
  }
}
