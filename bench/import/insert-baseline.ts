import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { openChdbStore } from '../../packages/server/src/storage/events/chdb-store.js'
import type { EventRow } from '../../packages/server/src/storage/events/event-row.js'
import { exportedEventSchema, fromExportedEvent } from '../../packages/server/src/transfer/exported-event.js'

/**
 * The floor an import is measured against: the rows of an export file inserted straight through the
 * events store (`openChdbStore(...).insert`, chDB in this process, a fresh temporary directory) in
 * batches of `batchRows`, one insert in flight. Only the `insert()` calls are timed (reading and
 * converting the lines is not).
 * @returns rows inserted, the seconds the inserts took, and this process's CPU µs per row during them
 *   (user + system over every thread: chDB's insert and merge threads included)
 */
export async function insertBaseline(
  exportFile: string,
  batchRows: number,
): Promise<{ rows: number; seconds: number; cpuUsPerRow: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-bench-import-'))
  const store = await openChdbStore(dir)
  let rows = 0
  let nanoseconds = 0n
  let cpuMicros = 0
  let batch: EventRow[] = []
  const flush = async () => {
    const started = process.hrtime.bigint()
    const cpu = process.cpuUsage()
    await store.insert(batch)
    const used = process.cpuUsage(cpu)
    cpuMicros += used.user + used.system
    nanoseconds += process.hrtime.bigint() - started
    rows += batch.length
    batch = []
  }
  try {
    const lines = readline.createInterface({
      input: fs.createReadStream(exportFile),
      crlfDelay: Number.POSITIVE_INFINITY,
    })
    for await (const line of lines) {
      if (line === '') continue
      batch.push({ ...fromExportedEvent(exportedEventSchema.parse(JSON.parse(line))), site_id: 1 })
      if (batch.length >= batchRows) await flush()
    }
    if (batch.length > 0) await flush()
  } finally {
    await store.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
  return { rows, seconds: Number(nanoseconds) / 1e9, cpuUsPerRow: rows > 0 ? cpuMicros / rows : 0 }
}
