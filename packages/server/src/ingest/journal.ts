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
  let handle = await fs.promises.open(currentPath, 'a')

  return {
    async append(lines) {
      let text = ''
      for (const line of lines) text += `${line}\n`
      await handle.write(text)
      if (options.fsync) await handle.datasync()
    },
    async rotate() {
      const closedPath = currentPath
      await handle.close()
      number++
      currentPath = path.join(dir, segmentName(number))
      handle = await fs.promises.open(currentPath, 'a')
      return closedPath
    },
    async remove(segmentPath) {
      await fs.promises.rm(segmentPath, { force: true })
    },
    async close() {
      await handle.close()
      // An empty current segment holds nothing to recover.
      if ((await fs.promises.stat(currentPath)).size === 0) await fs.promises.rm(currentPath, { force: true })
    },
  }
}
