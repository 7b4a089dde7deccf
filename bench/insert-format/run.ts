/**
 * Insert formats into chDB for our 43-column event rows (issue 17, item 2): the same realistic rows
 * (`bench/query/generate-events.ts`) inserted in batches of `BENCH_BATCH` rows, in one process, four
 * ways, interleaved batch by batch so that a shared machine's noise falls on all alike:
 *
 *   client-json  the insert path before issue 17: `@clickhouse/client` over `chdb/connection`,
 *                JSONEachRow objects (serialised by the client, the body handed to chDB as a string)
 *   raw-json     the body serialised by us as JSONEachRow, handed to chDB as a Buffer (`rawInsert`)
 *   raw-tsv      TabSeparated, Buffer, `rawInsert`
 *   raw-compact  JSONCompactEachRow (one array per row), Buffer, `rawInsert`
 *
 * RowBinary is not among them: chdb-node's raw insert takes text formats only (JSONEachRow,
 * JSONCompactEachRow, TSV, CSV and their WithNames forms), and `chdb/connection` concatenates the body
 * into the SQL string, which binary bytes do not survive.
 *
 * Per way: serialise ms (building the body; for client-json it is inside insert) and insert ms, summed
 * over `BENCH_ROWS` rows, `BENCH_REPEATS` passes; figures are the medians over the passes, as rows/s
 * and as time / time(client-json). Each pass checks that every way stored the same rows (count and a
 * checksum over every column). Last stdout line: the figures as JSON.
 *
 *   npx tsx bench/insert-format/run.ts
 *   BENCH_ROWS=50000 BENCH_REPEATS=3 npx tsx bench/insert-format/run.ts     # quicker
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createClient } from '@clickhouse/client'
import { Session } from 'chdb'
import { createChdbConnection } from 'chdb/connection'
import { openChdbStore } from '../../packages/server/src/storage/events/chdb-store.js'
import type { EventRow } from '../../packages/server/src/storage/events/event-row.js'
import { positiveInteger } from '../positive-integer.js'
import { generateEvents, loadVocabulary } from '../query/generate-events.js'
import {
  COLUMN_NAMES,
  encodeJsonCompactEachRow,
  encodeJsonEachRow,
  encodeTsv,
  jsonEachRowObject,
} from './encoders.js'

const ROWS = positiveInteger('BENCH_ROWS', 100_000)
const REPEATS = positiveInteger('BENCH_REPEATS', 5)
const BATCH = positiveInteger('BENCH_BATCH', 5000)
const demoLog = path.resolve(
  import.meta.dirname,
  '../../packages/server/demo-data/elastic-examples-apache_logs.txt',
)
const log = (message: string) => process.stderr.write(`[bench:insert-format] ${message}\n`)

const WAYS = ['client-json', 'raw-json', 'raw-tsv', 'raw-compact'] as const
type Way = (typeof WAYS)[number]
const RAW: Record<
  Exclude<Way, 'client-json'>,
  { format: string; encode: (rows: readonly EventRow[]) => Buffer }
> = {
  'raw-json': { format: 'JSONEachRow', encode: encodeJsonEachRow },
  'raw-tsv': { format: 'TabSeparated', encode: encodeTsv },
  'raw-compact': { format: 'JSONCompactEachRow', encode: encodeJsonCompactEachRow },
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-bench-format-'))
const store = await openChdbStore(path.join(dir, 'events'))
const session = new Session(path.join(dir, 'events'))
// chDB sessions on one data directory coexist: this one is the client path as it was before issue 17.
const client = createClient({
  connection: createChdbConnection({ path: path.join(dir, 'events') }) as unknown as NonNullable<
    Parameters<typeof createClient>[0]
  >['connection'],
})
for (const way of WAYS) {
  await store.command(`CREATE TABLE IF NOT EXISTS events_${way.replace('-', '_')} AS events`)
}
const tableOf = (way: Way) => `events_${way.replace('-', '_')}`

const rows: EventRow[] = []
await generateEvents({
  totalEvents: ROWS,
  days: 1,
  end: new Date('2026-04-01T00:00:00.000Z'),
  batchSize: 10_000,
  vocabulary: loadVocabulary(demoLog),
  seed: 7,
  sink: async (batch) => {
    rows.push(...batch)
  },
})
const batches: EventRow[][] = []
for (let i = 0; i < rows.length; i += BATCH) batches.push(rows.slice(i, i + BATCH))
log(`${rows.length} rows in ${batches.length} batches of ${BATCH}`)

/** Insert one batch one way into its own table; returns [serialise ms, insert ms]. */
async function insertBatch(way: Way, batch: readonly EventRow[]): Promise<[number, number]> {
  const table = tableOf(way)
  if (way === 'client-json') {
    const start = performance.now()
    await client.insert({ table, values: batch.map(jsonEachRowObject), format: 'JSONEachRow' })
    return [0, performance.now() - start]
  }
  const { format, encode } = RAW[way]
  const t0 = performance.now()
  const body = encode(batch)
  const t1 = performance.now()
  await session.insert({ table, values: body, format: format as 'TSV', columns: COLUMN_NAMES })
  return [t1 - t0, performance.now() - t1]
}

/** count and a checksum over every column, per table. @throws when a table has no checksum */
async function fingerprint(table: string): Promise<string> {
  const [row] = await store.query<{ n: string; h: string }>(
    // Over the text of every column's value: cityHash64 of a NULL argument would be NULL.
    `SELECT count() AS n, toString(sum(cityHash64(toString(tuple(${COLUMN_NAMES.join(', ')}))))) AS h FROM ${table}`,
  )
  if (typeof row?.h !== 'string') throw new Error(`no checksum of ${table}`)
  return `${row.n}/${row.h}`
}

const figures: Record<Way, { serialiseMs: number[]; insertMs: number[] }> = Object.fromEntries(
  WAYS.map((way) => [way, { serialiseMs: [], insertMs: [] }]),
) as never

// Unmeasured warm-up: JIT, first parts.
for (const way of WAYS) await insertBatch(way, batches[0] ?? [])

for (let pass = 0; pass < REPEATS; pass++) {
  for (const way of WAYS) await store.command(`TRUNCATE TABLE ${tableOf(way)}`)
  const sums = Object.fromEntries(WAYS.map((way) => [way, [0, 0]])) as Record<Way, [number, number]>
  for (const [i, batch] of batches.entries()) {
    const order = [...WAYS.slice((i + pass) % WAYS.length), ...WAYS.slice(0, (i + pass) % WAYS.length)]
    for (const way of order) {
      const [serialise, insert] = await insertBatch(way, batch)
      sums[way][0] += serialise
      sums[way][1] += insert
    }
  }
  const reference = await fingerprint(tableOf('client-json'))
  for (const way of WAYS.slice(1)) {
    const got = await fingerprint(tableOf(way))
    if (got !== reference) throw new Error(`${way} stored ${got}, the client ${reference}`)
  }
  for (const way of WAYS) {
    figures[way].serialiseMs.push(sums[way][0])
    figures[way].insertMs.push(sums[way][1])
  }
  log(
    `pass ${pass + 1}: ${WAYS.map((way) => `${way} ${Math.round(rows.length / ((sums[way][0] + sums[way][1]) / 1000))} rows/s`).join(', ')}`,
  )
}

const summary = WAYS.map((way) => {
  const serialise = median(figures[way].serialiseMs)
  const insert = median(figures[way].insertMs)
  return {
    way,
    serialiseMs: serialise,
    insertMs: insert,
    rowsPerSecond: rows.length / ((serialise + insert) / 1000),
  }
})
const base = summary[0]
console.log(
  `way           serialise ms   insert ms   rows/s    time / client-json   (${rows.length} rows, ${BATCH}-row batches, ${os.availableParallelism()} CPUs)`,
)
for (const s of summary) {
  const ratio = (s.serialiseMs + s.insertMs) / ((base?.serialiseMs ?? 0) + (base?.insertMs ?? 1))
  console.log(
    `${s.way.padEnd(12)}${s.serialiseMs.toFixed(0).padStart(14)}${s.insertMs.toFixed(0).padStart(12)}${Math.round(s.rowsPerSecond).toString().padStart(9)}${ratio.toFixed(2).padStart(21)}`,
  )
}
console.log(JSON.stringify({ rows: rows.length, batch: BATCH, repeats: REPEATS, summary }))
session.close()
await client.close()
await store.close()
fs.rmSync(dir, { recursive: true, force: true })
