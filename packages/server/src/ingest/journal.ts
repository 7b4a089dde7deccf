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
   * written (and fsynced when configured). All or nothing: when it rejects (a full disk), none of the
   * lines is in the segment.
   */
  append(lines: readonly string[]): Promise<void>
  /** Close the current segment and open the next; returns the closed segment's path. */
  rotate(): Promise<string>
  /** Delete a closed segment whose rows are all committed to the events store. */
  remove(segmentPath: string): Promise<void>
  /**
   * Whether the journal's directory takes another append now: writes `bytes` to a probe file beside
   * the segments (`.probe`, which recovery ignores) and removes it. A full disk, a read-only remount or
   * an I/O error fails it as it fails an append.
   * @throws the filesystem's error (`ENOSPC: no space left on device, write`, `EROFS`, `EIO`)
   */
  probe(bytes: number): Promise<void>
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
  /** Bytes of whole lines in the current segment. */
  let size = (await handle.stat()).size

  return {
    async append(lines) {
      let text = ''
      for (const line of lines) text += `${line}\n`
      const bytes = Buffer.from(text)
      // write(2) may write part of the buffer (a disk filling up) and refuse the rest on the next
      // call: loop until all is written, and on a failure cut off what part of it got in, so that the
      // segment holds whole lines only and the next append starts a line of its own.
      try {
        for (let written = 0; written < bytes.length; ) {
          written += (await handle.write(bytes, written, bytes.length - written)).bytesWritten
        }
      } catch (error) {
        await handle.truncate(size).catch(() => undefined)
        throw error
      }
      size += bytes.length
      if (options.fsync) await handle.datasync()
    },
    async rotate() {
      const closedPath = currentPath
      await handle.close()
      number++
      currentPath = path.join(dir, segmentName(number))
      handle = await fs.promises.open(currentPath, 'a')
      size = (await handle.stat()).size
      return closedPath
    },
    async remove(segmentPath) {
      await fs.promises.rm(segmentPath, { force: true })
    },
    async probe(bytes) {
      const probePath = path.join(dir, '.probe')
      try {
        await fs.promises.writeFile(probePath, Buffer.alloc(bytes, 0x20))
      } finally {
        await fs.promises.rm(probePath, { force: true })
      }
    },
    async close() {
      await handle.close()
      // An empty current segment holds nothing to recover.
      if ((await fs.promises.stat(currentPath)).size === 0) await fs.promises.rm(currentPath, { force: true })
    },
  }
}
