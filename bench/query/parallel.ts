/**
 * Does chDB run two queries of one process at the same time? Loads synthetic events (default 1 M,
 * `generate-events.ts`) into a chDB data directory, opens a second store on the same directory, then
 * times, interleaved round by round:
 *
 * - `alone`: one report query by itself;
 * - `serial pair`: two of them one after the other;
 * - `pair, one store`: two at once through one store (`Promise.all`; the store spreads its reads over
 *   its own sessions, `chdb-store.ts`);
 * - `pair, two stores`: two at once, one through each store.
 *
 * If two at once take about as long as one alone, the engine runs them in parallel; if they take as
 * long as the serial pair, it does not (or the CPUs are already busy: a query uses `max_threads` = the
 * CPU count by default, hence the `max_threads 1` variant, and `sleep 100 ms`, which uses no CPU at
 * all). The store writes query parameters into the SQL as literals on chDB: chdb-node runs queries
 * with bound parameters one at a time process-wide, whatever the session (`inline-query-params.ts`);
 * the `bound` variant binds them, to show that. Run from the repository root:
 *
 *   BENCH_EVENTS=1000000 BENCH_ITERATIONS=15 npx tsx bench/query/parallel.ts
 *
 * Environment: `BENCH_EVENTS` (default 1,000,000), `BENCH_ITERATIONS` rounds (default 15, after 2
 * warm-ups), `BENCH_DAYS` range of the timed query (default 30). Prints medians per query and mode, and
 * one JSON line (last stdout line).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { queryBreakdown } from '../../packages/server/src/query/breakdown.js'
import { compileOverview, queryOverview } from '../../packages/server/src/query/overview.js'
import { parseQueryParams } from '../../packages/server/src/query/params.js'
import type { ReportScope } from '../../packages/server/src/query/report-scope.js'
import { queryTimeseries } from '../../packages/server/src/query/timeseries.js'
import { openChdbStore } from '../../packages/server/src/storage/events/chdb-store.js'
import type { EventsStore } from '../../packages/server/src/storage/events/events-store.js'
import { positiveInteger } from '../positive-integer.js'
import { generateEvents, loadVocabulary } from './generate-events.js'
import { settleRollups } from './settle-rollups.js'
import { percentile } from './timing.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const demoLog = path.resolve(here, '../../packages/server/demo-data/elastic-examples-apache_logs.txt')
const totalEvents = positiveInteger('BENCH_EVENTS', 1_000_000)
const iterations = positiveInteger('BENCH_ITERATIONS', 15)
const days = positiveInteger('BENCH_DAYS', 30)
const END = new Date('2026-04-01T00:00:00.000Z')
const SITE = 1

const log = (message: string) => process.stderr.write(`[bench:parallel] ${message}\n`)
const fmt = (ms: number) => (ms < 10 ? ms.toFixed(1) : ms.toFixed(0))

/** The queries timed: one SQL statement each. */
const queries: { name: string; run: (events: EventsStore, scope: ReportScope) => Promise<unknown> }[] = [
  { name: 'overview totals', run: (events, scope) => queryOverview(events, scope) },
  {
    name: 'overview totals, max_threads 1',
    run: (events, scope) => {
      const { sql, params } = compileOverview(scope)
      return events.query(`${sql} SETTINGS max_threads = 1`, params)
    },
  },
  { name: 'breakdown pages', run: (events, scope) => queryBreakdown(events, scope, 'pages') },
  { name: 'daily series', run: (events, scope) => queryTimeseries(events, scope, 'day') },
  {
    // Bound parameters reach chdb-node, which chains such queries process-wide.
    name: 'overview totals, bound',
    run: (events, scope) => {
      const { sql, params } = compileOverview(scope)
      return events.command(sql, params)
    },
  },
  // Uses no CPU: shows whether the engine overlaps two queries at all, whatever the CPUs.
  { name: 'sleep 100 ms', run: (events) => events.query('SELECT sleep(0.1) AS slept') },
]

const modes = ['alone', 'serial pair', 'pair, one store', 'pair, two stores'] as const
type Mode = (typeof modes)[number]

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await fn()
  return performance.now() - start
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-bench-parallel-'))
  const first = await openChdbStore(dir)
  let second: EventsStore | undefined
  try {
    const loadStart = performance.now()
    const rows = await generateEvents({
      totalEvents,
      days: 90,
      end: END,
      batchSize: 100_000,
      vocabulary: loadVocabulary(demoLog),
      sink: (batch) => first.insert(batch),
    })
    await settleRollups(first)
    log(
      `loaded ${rows.toLocaleString('en')} rows in ${((performance.now() - loadStart) / 1000).toFixed(1)} s`,
    )
    second = await openChdbStore(dir)
    const other = second
    const [seen] = await other.query<{ n: number }>('SELECT count() AS n FROM events')
    log(`second session sees ${seen?.n.toLocaleString('en')} rows`)

    const startDate = new Date(END.getTime() - days * 86_400_000).toISOString().slice(0, 10)
    const scope: ReportScope = {
      siteId: SITE,
      params: parseQueryParams({ start_date: startDate, end_date: '2026-03-31' }, END.getTime()),
    }
    const figures: { query: string; mode: Mode; median: number; p95: number }[] = []
    for (const query of queries) {
      const run = (events: EventsStore) => () => query.run(events, scope)
      const plans: Record<Mode, () => Promise<unknown>> = {
        alone: run(first),
        'serial pair': async () => {
          await query.run(first, scope)
          await query.run(first, scope)
        },
        'pair, one store': () => Promise.all([query.run(first, scope), query.run(first, scope)]),
        'pair, two stores': () => Promise.all([query.run(first, scope), query.run(other, scope)]),
      }
      const samples: Record<Mode, number[]> = {
        alone: [],
        'serial pair': [],
        'pair, one store': [],
        'pair, two stores': [],
      }
      for (let round = -2; round < iterations; round++) {
        for (const mode of modes) {
          const ms = await timed(plans[mode])
          if (round >= 0) samples[mode].push(ms)
        }
      }
      for (const mode of modes) {
        const figure = {
          query: query.name,
          mode,
          median: percentile(samples[mode], 50),
          p95: percentile(samples[mode], 95),
        }
        figures.push(figure)
        log(`${query.name}, ${mode}: median ${fmt(figure.median)} ms, p95 ${fmt(figure.p95)} ms`)
      }
    }
    console.log(`| query | ${modes.join(' | ')} | two stores / alone |`)
    console.log(`|---|${modes.map(() => '---').join('|')}|---|`)
    for (const query of queries) {
      const of = (mode: Mode) => figures.find((f) => f.query === query.name && f.mode === mode)?.median ?? NaN
      const cells = modes.map((mode) => `${fmt(of(mode))} ms`)
      console.log(
        `| ${query.name} | ${cells.join(' | ')} | ${(of('pair, two stores') / of('alone')).toFixed(2)} |`,
      )
    }
    console.log(JSON.stringify({ events: rows, days, iterations, cpus: os.availableParallelism(), figures }))
  } finally {
    await second?.close()
    await first.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
