/**
 * Events-adapter benchmark: the same chDB engine and data directory reached two ways, in one process,
 * interleaved, so that a shared machine's noise falls on both alike:
 *
 *   (a) direct  a chDB session (`Session.insert`, `queryBindAsync`): the adapter Pathlight had until
 *               issue 12, item 5, kept in `direct-chdb-store.ts`
 *   (b) client  `@clickhouse/client` over `chdb/connection`: the events store now (`openChdbStore`)
 *
 * Inserts: `BENCH_INSERT_ROWS` realistic rows (`bench/query/generate-events.ts`, one day of traffic, so
 * one monthly partition as live ingest has) go through `EventsStore.insert`, one insert in flight, in
 * batches of 5,000 (the write buffer's flush size) and of 50 (a quiet site: a flush every 250 ms). A
 * pass truncates the table, then both adapters insert every row, alternating which goes first every
 * 10,000 rows; `BENCH_INSERT_REPEATS` passes per batch size. Figures: rows/s per adapter (median of the
 * passes) and the median over the passes of time(client) / time(direct).
 *
 * Queries: `BENCH_EVENTS` rows (90 days, 5 sites) are loaded and merged (`OPTIMIZE TABLE events FINAL`),
 * then every report of `bench/query/reports.ts` runs through the query layer for site 1 over the last 30
 * and 90 days: 2 unmeasured runs per adapter, then `BENCH_ITERATIONS` pairs of runs, alternating which
 * adapter goes first. Figures: median ms per adapter, the median over the pairs of time(client) /
 * time(direct), and the geometric mean of those ratios over the reports.
 *
 * Every ratio is time(client) / time(direct): 1.00 = equal, above 1 = the client is slower. Verdict
 * (issue 12, item 5): the client is within 10 % of direct when the insert ratio is at most 1.10 at both
 * batch sizes and the geometric mean of the query ratios is at most 1.10.
 *
 *   npx tsx bench/events-adapter/run.ts
 *   BENCH_EVENTS=200000 BENCH_INSERT_REPEATS=3 npx tsx bench/events-adapter/run.ts    # quicker
 *
 * Environment (defaults): BENCH_INSERT_ROWS (100,000), BENCH_INSERT_REPEATS (5), BENCH_EVENTS
 * (1,000,000), BENCH_ITERATIONS (15). Progress on stderr; tables, then the figures as one JSON line
 * (last stdout line). Takes 3 to 7 minutes on 2 shared CPUs. Compare ratios, not absolute figures.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseQueryParams } from '../../packages/server/src/query/params.js'
import type { ReportScope } from '../../packages/server/src/query/report-scope.js'
import { openChdbStore } from '../../packages/server/src/storage/events/chdb-store.js'
import type { EventRow } from '../../packages/server/src/storage/events/event-row.js'
import type { EventsStore } from '../../packages/server/src/storage/events/events-store.js'
import { positiveInteger } from '../positive-integer.js'
import { generateEvents, loadVocabulary } from '../query/generate-events.js'
import { benchReports } from '../query/reports.js'
import { memoryMb, percentile } from '../query/timing.js'
import { openDirectChdbStore } from './direct-chdb-store.js'

type Adapter = 'direct' | 'client'

const here = path.dirname(fileURLToPath(import.meta.url))
const demoLog = path.resolve(here, '../../packages/server/demo-data/elastic-examples-apache_logs.txt')
const insertRows = positiveInteger('BENCH_INSERT_ROWS', 100_000)
const insertRepeats = positiveInteger('BENCH_INSERT_REPEATS', 5)
const queryEvents = positiveInteger('BENCH_EVENTS', 1_000_000)
const iterations = positiveInteger('BENCH_ITERATIONS', 15)
const BATCH_SIZES = [5000, 50] as const
/** Rows per interleaving step of the insert passes. */
const INSERT_CHUNK = 10_000
const END = new Date('2026-04-01T00:00:00.000Z')
const SITE = 1
const LIMIT = 0.1

const log = (message: string) => process.stderr.write(`[bench:events-adapter] ${message}\n`)
const median = (samples: readonly number[]) => percentile(samples, 50)
const fmt = (ms: number) => (ms < 10 ? ms.toFixed(1) : ms.toFixed(0))
const geomean = (xs: readonly number[]) => Math.exp(xs.reduce((sum, x) => sum + Math.log(x), 0) / xs.length)
/** a, b for even passes, b, a for odd ones. */
const order = (pass: number): Adapter[] => (pass % 2 === 0 ? ['direct', 'client'] : ['client', 'direct'])

interface InsertFigure {
  batch: number
  direct: { rowsPerSecond: number[]; median: number }
  client: { rowsPerSecond: number[]; median: number }
  ratio: number
}

interface QueryFigure {
  report: string
  days: number
  direct: number
  client: number
  ratio: number
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-bench-adapter-'))
  // chDB binds one data directory per process; both adapters open sessions on the same one.
  const stores: Record<Adapter, EventsStore> = {
    direct: await openDirectChdbStore(dir),
    client: await openChdbStore(dir),
  }
  try {
    const vocabulary = loadVocabulary(demoLog)
    const inserts = await benchInserts(stores, await collect(vocabulary, insertRows, 1))
    const queries = await benchQueries(stores, vocabulary)
    const memory = await memoryMb()
    printInserts(inserts)
    printQueries(queries)
    const insertPass = inserts.every((f) => f.ratio <= 1 + LIMIT)
    const queryGeomean = geomean(queries.map((f) => f.ratio))
    const queryPass = queryGeomean <= 1 + LIMIT
    console.log(
      `\nclient within 10 % of direct: inserts ${insertPass ? 'yes' : 'NO'} (${inserts.map((f) => `${f.batch}-row ${f.ratio.toFixed(2)}`).join(', ')}), ` +
        `queries ${queryPass ? 'yes' : 'NO'} (geometric mean ${queryGeomean.toFixed(2)}, worst ${Math.max(...queries.map((f) => f.ratio)).toFixed(2)}); ` +
        `rss ${memory.rss} MB, peak ${memory.peak} MB, ${os.availableParallelism()} CPUs`,
    )
    console.log(
      JSON.stringify({
        insertRows,
        insertRepeats,
        queryEvents,
        iterations,
        cpus: os.availableParallelism(),
        memoryMb: memory,
        inserts,
        queries,
        queryGeomean,
        within10Percent: insertPass && queryPass,
      }),
    )
  } finally {
    await stores.client.close()
    await stores.direct.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** Generated rows held in memory, so that generation stays out of the insert timings. */
async function collect(vocabulary: ReturnType<typeof loadVocabulary>, total: number, days: number) {
  const rows: EventRow[] = []
  await generateEvents({
    totalEvents: total,
    days,
    end: END,
    batchSize: 10_000,
    vocabulary,
    seed: 7,
    sink: async (batch) => {
      rows.push(...batch)
    },
  })
  return rows
}

async function benchInserts(stores: Record<Adapter, EventsStore>, rows: readonly EventRow[]) {
  const chunks: (readonly EventRow[])[] = []
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) chunks.push(rows.slice(i, i + INSERT_CHUNK))
  const figures: InsertFigure[] = []
  for (const batch of BATCH_SIZES) {
    const insertChunk = async (adapter: Adapter, chunk: readonly EventRow[]) => {
      const start = performance.now()
      for (let i = 0; i < chunk.length; i += batch) await stores[adapter].insert(chunk.slice(i, i + batch))
      return performance.now() - start
    }
    // Unmeasured: JIT, the client's first inserts.
    for (const adapter of order(0)) await insertChunk(adapter, chunks[0] ?? [])
    const rates: Record<Adapter, number[]> = { direct: [], client: [] }
    const ratios: number[] = []
    for (let pass = 0; pass < insertRepeats; pass++) {
      await stores.direct.command('TRUNCATE TABLE events')
      const ms: Record<Adapter, number> = { direct: 0, client: 0 }
      for (const [c, chunk] of chunks.entries()) {
        for (const adapter of order(pass + c)) ms[adapter] += await insertChunk(adapter, chunk)
      }
      const [stored] = await stores.direct.query<{ c: number }>('SELECT count() AS c FROM events')
      if (stored?.c !== 2 * rows.length)
        throw new Error(`expected ${2 * rows.length} rows, found ${stored?.c}`)
      rates.direct.push(rows.length / (ms.direct / 1000))
      rates.client.push(rows.length / (ms.client / 1000))
      ratios.push(ms.client / ms.direct)
      log(
        `insert ${batch}-row batches, pass ${pass + 1}: direct ${Math.round(rows.length / (ms.direct / 1000))} rows/s, client ${Math.round(rows.length / (ms.client / 1000))} rows/s`,
      )
    }
    figures.push({
      batch,
      direct: { rowsPerSecond: rates.direct.map(Math.round), median: median(rates.direct) },
      client: { rowsPerSecond: rates.client.map(Math.round), median: median(rates.client) },
      ratio: median(ratios),
    })
  }
  return figures
}

async function benchQueries(
  stores: Record<Adapter, EventsStore>,
  vocabulary: ReturnType<typeof loadVocabulary>,
) {
  await stores.direct.command('TRUNCATE TABLE events')
  const loadStart = performance.now()
  const loaded = await generateEvents({
    totalEvents: queryEvents,
    days: 90,
    end: END,
    batchSize: 100_000,
    vocabulary,
    sink: (batch) => stores.direct.insert(batch),
  })
  await stores.direct.command('OPTIMIZE TABLE events FINAL')
  log(
    `loaded and merged ${loaded.toLocaleString('en')} rows in ${((performance.now() - loadStart) / 1000).toFixed(1)} s`,
  )

  const figures: QueryFigure[] = []
  for (const days of [30, 90]) {
    const startDate = new Date(END.getTime() - days * 86_400_000).toISOString().slice(0, 10)
    for (const report of benchReports) {
      const query: Record<string, string> = { start_date: startDate, end_date: '2026-03-31' }
      if (report.filters) query.filters = report.filters
      const scope: ReportScope = { siteId: SITE, params: parseQueryParams(query, END.getTime()) }
      const samples: Record<Adapter, number[]> = { direct: [], client: [] }
      const ratios: number[] = []
      const results: Record<Adapter, string> = { direct: '', client: '' }
      for (let i = -2; i < iterations; i++) {
        const ms: Record<Adapter, number> = { direct: 0, client: 0 }
        for (const adapter of order(i)) {
          const start = performance.now()
          const result = await report.run(stores[adapter], scope)
          ms[adapter] = performance.now() - start
          if (i < 0) results[adapter] = JSON.stringify(result)
        }
        if (i < 0) continue
        samples.direct.push(ms.direct)
        samples.client.push(ms.client)
        ratios.push(ms.client / ms.direct)
      }
      // Rows tied in a report's ORDER BY may come back in either order; a difference is worth a look.
      if (results.direct !== results.client) log(`${days} d ${report.name}: the adapters' results differ`)
      const direct = median(samples.direct)
      const client = median(samples.client)
      figures.push({ report: report.name, days, direct, client, ratio: median(ratios) })
      log(`${days} d ${report.name}: direct ${fmt(direct)} ms, client ${fmt(client)} ms`)
    }
  }
  return figures
}

function printInserts(figures: InsertFigure[]) {
  console.log(`Inserts of ${insertRows.toLocaleString('en')} rows, median of ${insertRepeats} passes each`)
  printTable(
    ['batch', 'direct rows/s', 'client rows/s', 'time client / direct'],
    figures.map((f) => [
      String(f.batch),
      Math.round(f.direct.median).toLocaleString('en'),
      Math.round(f.client.median).toLocaleString('en'),
      f.ratio.toFixed(2),
    ]),
  )
}

function printQueries(figures: QueryFigure[]) {
  console.log(
    `\nReports on ${queryEvents.toLocaleString('en')} events, site 1, median of ${iterations} runs each`,
  )
  printTable(
    ['report', 'days', 'direct p50', 'client p50', 'time client / direct'],
    figures.map((f) => [
      f.report,
      String(f.days),
      `${fmt(f.direct)} ms`,
      `${fmt(f.client)} ms`,
      f.ratio.toFixed(2),
    ]),
  )
}

function printTable(header: string[], lines: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)))
  const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`
  console.log(row(header))
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
  for (const l of lines) console.log(row(l))
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
