/**
 * Query benchmark: loads synthetic realistic events (default 10 million, 5 sites, 90 days) into an
 * embedded chDB store in a temporary directory, then times each read route's query function over
 * the last 30 and the last 90 days (and 365 with `BENCH_DAYS=365`) of the busiest site (40 % of the
 * events), next to the same SQL run directly on the store. Run from the repository root:
 *
 *   npx tsx bench/query/run.ts
 *   BENCH_EVENTS=1000000 BENCH_ITERATIONS=10 npx tsx bench/query/run.ts
 *
 * Environment: `BENCH_EVENTS` (default 10,000,000), `BENCH_ITERATIONS` measured runs per report and
 * range (default 15, after 2 warm-ups), `BENCH_BATCH` rows per insert (default 100,000),
 * `BENCH_OPTIMIZE` (default 1: fold the sessions and merge the tables' parts after loading, as a
 * long-running server's fold job and background merges would have: `settle-rollups.ts`; 0 skips), `BENCH_DAYS` of traffic (default 90; with 365 the reports
 * also run over the last 365 days, e.g. for issue 16's filtered long-range figures), `BENCH_MATCH` (a
 * regular expression: only the reports whose names match, e.g. `BENCH_MATCH='regions|languages'`).
 * Progress on stderr; a table, then the figures as one JSON
 * line (last stdout line). Target: p95 under 300 ms for 30-day reports at 10 M events.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseQueryParams } from '../../packages/server/src/query/params.js'
import type { ReportScope } from '../../packages/server/src/query/report-scope.js'
import { openChdbStore } from '../../packages/server/src/storage/events/chdb-store.js'
import { positiveInteger } from '../positive-integer.js'
import { generateEvents, loadVocabulary } from './generate-events.js'
import { benchReports } from './reports.js'
import { measureRollups, printRollupTable, tableSizes } from './rollups.js'
import { settleRollups } from './settle-rollups.js'
import { measure, memoryMb } from './timing.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const demoLog = path.resolve(here, '../../packages/server/demo-data/elastic-examples-apache_logs.txt')
const totalEvents = positiveInteger('BENCH_EVENTS', 10_000_000)
const iterations = positiveInteger('BENCH_ITERATIONS', 15)
const batchSize = positiveInteger('BENCH_BATCH', 100_000)
const optimize = process.env.BENCH_OPTIMIZE !== '0'
const END = new Date('2026-04-01T00:00:00.000Z')
/** Days of generated traffic; the reports run over the last 30, 90 and 365 days that fit. */
const DAYS = positiveInteger('BENCH_DAYS', 90)
const RANGES = [30, 90, 365].filter((days) => days <= DAYS)
const SITE = 1
const MATCH = new RegExp(process.env.BENCH_MATCH ?? '.')
const TARGET_P95_MS = 300

const log = (message: string) => process.stderr.write(`[bench:query] ${message}\n`)
const fmt = (ms: number) => (ms < 10 ? ms.toFixed(1) : ms.toFixed(0))

interface Figure {
  report: string
  route: string
  days: number
  layer: { p50: number; p95: number }
  direct: { p50: number; p95: number }
  ratio: number
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-bench-query-'))
  const events = await openChdbStore(dir)
  try {
    const vocabulary = loadVocabulary(demoLog)
    log(
      `vocabulary: ${vocabulary.paths.length} paths, ${vocabulary.agents.length} user agents, ${vocabulary.referrers.length} referrers`,
    )
    const loadStart = performance.now()
    let lastLog = loadStart
    let loaded = 0
    const rows = await generateEvents({
      totalEvents,
      days: DAYS,
      end: END,
      batchSize,
      vocabulary,
      sink: async (batch) => {
        await events.insert(batch)
        loaded += batch.length
        if (performance.now() - lastLog > 5000) {
          lastLog = performance.now()
          const rate = loaded / ((lastLog - loadStart) / 1000)
          log(`loaded ${loaded.toLocaleString('en')} rows (${Math.round(rate).toLocaleString('en')} rows/s)`)
        }
      },
    })
    const loadSeconds = (performance.now() - loadStart) / 1000
    log(`loaded ${rows.toLocaleString('en')} rows in ${loadSeconds.toFixed(1)} s`)
    let optimizeSeconds: number | null = null
    if (optimize) {
      const start = performance.now()
      await settleRollups(events)
      optimizeSeconds = (performance.now() - start) / 1000
      log(`merged parts in ${optimizeSeconds.toFixed(1)} s`)
    }
    const [stats] = await events.query<{ rows: number; site_rows: number; parts: number; bytes: number }>(
      `SELECT (SELECT count() FROM events) AS rows, (SELECT count() FROM events WHERE site_id = {site:UInt32}) AS site_rows,
        (SELECT count() FROM system.parts WHERE table = 'events' AND active) AS parts,
        (SELECT sum(bytes_on_disk) FROM system.parts WHERE table = 'events' AND active) AS bytes`,
      { site: SITE },
    )
    log(`table: ${JSON.stringify(stats)}`)

    const figures: Figure[] = []
    for (const days of RANGES) {
      const endDate = '2026-03-31'
      const startDate = new Date(END.getTime() - days * 86_400_000).toISOString().slice(0, 10)
      for (const report of benchReports.filter((r) => MATCH.test(r.name))) {
        const query: Record<string, string> = { start_date: startDate, end_date: endDate }
        if (report.filters) query.filters = report.filters
        const scope: ReportScope = { siteId: SITE, params: parseQueryParams(query, END.getTime()) }
        const compiled = report.compile(scope)
        const layer = await measure(() => report.run(events, scope), iterations)
        const direct = await measure(() => events.query(compiled.sql, compiled.params), iterations)
        const figure = {
          report: report.name,
          route: report.route,
          days,
          layer,
          direct,
          ratio: layer.p50 / direct.p50,
        }
        figures.push(figure)
        log(
          `${days} d ${report.name}: p50 ${fmt(layer.p50)} ms, p95 ${fmt(layer.p95)} ms (direct p50 ${fmt(direct.p50)} ms)`,
        )
      }
    }
    const rollups = await measureRollups(events, SITE, END, RANGES, iterations, log, MATCH)
    const sizes = await tableSizes(events)
    const memory = await memoryMb()
    printTable(figures)
    console.log('\nUnfiltered reports from the rollups and from raw events (issue 16):')
    printRollupTable(rollups)
    console.log(
      `\non disk: ${sizes.map((t) => `${t.table} ${t.rows.toLocaleString('en')} rows, ${(t.bytes / 1e6).toFixed(0)} MB`).join('; ')}`,
    )
    const pass = figures.filter((f) => f.days === 30).every((f) => f.layer.p95 < TARGET_P95_MS)
    console.log(
      `\n30-day p95 < ${TARGET_P95_MS} ms on every report: ${pass ? 'PASS' : 'FAIL'}; rss ${memory.rss} MB, peak ${memory.peak} MB`,
    )
    console.log(
      JSON.stringify({
        events: rows,
        siteEvents: stats?.site_rows,
        parts: stats?.parts,
        bytesOnDisk: stats?.bytes,
        loadSeconds,
        rowsPerSecond: Math.round(rows / loadSeconds),
        optimizeSeconds,
        iterations,
        cpus: os.availableParallelism(),
        memoryMb: memory,
        pass,
        figures,
        rollups,
        tables: sizes,
      }),
    )
  } finally {
    await events.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

function printTable(figures: Figure[]) {
  const header = ['report', 'days', 'layer p50', 'layer p95', 'direct p50', 'direct p95', 'ratio p50']
  const lines = figures.map((f) => [
    f.report,
    String(f.days),
    `${fmt(f.layer.p50)} ms`,
    `${fmt(f.layer.p95)} ms`,
    `${fmt(f.direct.p50)} ms`,
    `${fmt(f.direct.p95)} ms`,
    f.ratio.toFixed(2),
  ])
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
