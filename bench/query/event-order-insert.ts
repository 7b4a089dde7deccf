/**
 * What migration 008's `session_hours` view costs each insert: the same generated events inserted in
 * batches, rounds alternating between the view as 008 makes it (four UInt256: the event's place in
 * `EVENT_ORDER` and a value) and the view as 003 made it (UInt128 and Int64, ties by the text's hash,
 * into a table of that layout). Every other view stays as it is, so the difference is the one view's.
 *
 *   npx tsx bench/query/event-order-insert.ts
 *
 * Environment: `BENCH_EVENTS` per round (default 200,000), `BENCH_BATCH` rows per insert (default
 * 5,000), `BENCH_ROUNDS` (default 6, alternating, the first of each kind a warm-up when 4 or more).
 * Prints rows/s and CPU µs per row of each round and the medians.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { openChdbStore } from '../../packages/server/src/storage/events/chdb-store.js'
import type { EventRow } from '../../packages/server/src/storage/events/event-row.js'
import { rollupTables } from '../../packages/server/src/storage/events/migrations/003-rollups.js'
import { eventOrderTables } from '../../packages/server/src/storage/events/migrations/008-event-order.js'
import { positiveInteger } from '../positive-integer.js'
import { generateEvents, loadVocabulary } from './generate-events.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const demoLog = path.resolve(here, '../../packages/server/demo-data/elastic-examples-apache_logs.txt')
const perRound = positiveInteger('BENCH_EVENTS', 200_000)
const batchSize = positiveInteger('BENCH_BATCH', 5_000)
const rounds = positiveInteger('BENCH_ROUNDS', 6)

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-bench-event-order-insert-'))
  const events = await openChdbStore(dir)
  try {
    const rows: EventRow[] = []
    await generateEvents({
      totalEvents: perRound,
      days: 30,
      end: new Date('2026-04-01T00:00:00.000Z'),
      batchSize,
      vocabulary: loadVocabulary(demoLog),
      sink: async (batch) => {
        rows.push(...batch)
      },
    })
    const oldTable = String(
      rollupTables.statements.find((s) => s.includes('CREATE TABLE IF NOT EXISTS session_hours (')),
    ).replace('session_hours (', 'session_hours_before (')
    await events.command(oldTable)
    const oldView = String(rollupTables.statements.find((s) => s.includes('session_hours_view'))).replace(
      'TO session_hours AS',
      'TO session_hours_before AS',
    )
    const newView = String(eventOrderTables.statements.find((s) => s.includes('VIEW session_hours_view')))
    const results: { kind: 'before' | 'after'; rowsPerSecond: number; cpuMicros: number }[] = []
    for (let round = 0; round < rounds; round++) {
      const kind = round % 2 === 0 ? 'after' : 'before'
      await events.command('DROP VIEW IF EXISTS session_hours_view')
      await events.command(kind === 'after' ? newView : oldView)
      // Each round's events on a site of its own, so that no round merges into another's rows.
      const site = round + 1
      const cpuBefore = process.cpuUsage()
      const start = performance.now()
      for (let i = 0; i < rows.length; i += batchSize) {
        await events.insert(rows.slice(i, i + batchSize).map((row) => ({ ...row, site_id: site })))
      }
      const seconds = (performance.now() - start) / 1000
      const cpu = process.cpuUsage(cpuBefore)
      const result = {
        kind,
        rowsPerSecond: rows.length / seconds,
        cpuMicros: (cpu.user + cpu.system) / rows.length,
      } as const
      results.push(result)
      process.stderr.write(
        `[bench:event-order-insert] round ${round + 1} ${kind}: ${Math.round(result.rowsPerSecond)} rows/s, ${result.cpuMicros.toFixed(1)} µs CPU per row\n`,
      )
    }
    const measured = rounds >= 4 ? results.slice(2) : results
    for (const kind of ['before', 'after'] as const) {
      const of = measured.filter((r) => r.kind === kind)
      console.log(
        `${kind}: median ${Math.round(median(of.map((r) => r.rowsPerSecond)))} rows/s, ${median(of.map((r) => r.cpuMicros)).toFixed(1)} µs CPU per row (${of.length} rounds)`,
      )
    }
  } finally {
    await events.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

await main()
