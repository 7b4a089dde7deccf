/**
 * What one order for a session's events costs (`EVENT_ORDER` in `query/metrics.ts`, migration
 * `008-event-order`): the reports it touches timed on one data set both ways, interleaved in one
 * process, so that a machine shared with other work slows both alike.
 *
 * - before: the session rollups as migrations 003 and 005 made them (`session_hours_before`,
 *   `session_summaries_before`: packed UInt128 and Int64, ties broken by the text's hash), built here
 *   from the same events, and raw reports ordering by `timestamp` alone (the current SQL with the
 *   order key replaced by `timestamp`);
 * - after: the current SQL on the tables migration 008 made.
 *
 * Then the upgrade itself: `backfillEventOrder` (008's refill and fold) over the loaded events, timed.
 *
 *   BENCH_EVENTS=10000000 NODE_OPTIONS=--max-semi-space-size=64 npx tsx bench/query/event-order.ts
 *
 * Environment: `BENCH_EVENTS` (default 10,000,000), `BENCH_DAYS` (default 365), `BENCH_ITERATIONS`
 * (default 9, after 2 warm-ups of each), `BENCH_BATCH` rows per insert (default 100,000). Progress on
 * stderr; a table and one JSON line on stdout. Each row: p50 / p95 wall time and the mean CPU time
 * per run of this process (chDB's threads run in it) before and after, and whether both answered alike
 * (they differ only where a session has two events on one millisecond, which the generator rarely
 * makes).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { compileBreakdown } from '../../packages/server/src/query/breakdown.js'
import type { CompiledQuery } from '../../packages/server/src/query/compiled-query.js'
import { compileFunnelReport } from '../../packages/server/src/query/funnel-report.js'
import { compileJourneys } from '../../packages/server/src/query/journeys.js'
import { EVENT_ORDER, EVENT_ORDER_KEY } from '../../packages/server/src/query/metrics.js'
import { compileOverview } from '../../packages/server/src/query/overview.js'
import { compilePageStats } from '../../packages/server/src/query/page-stats.js'
import { parseQueryParams } from '../../packages/server/src/query/params.js'
import type { ReportScope } from '../../packages/server/src/query/report-scope.js'
import { openChdbStore } from '../../packages/server/src/storage/events/chdb-store.js'
import type { EventsStore } from '../../packages/server/src/storage/events/events-store.js'
import {
  rollupTables,
  sessionHoursInsert,
} from '../../packages/server/src/storage/events/migrations/003-rollups.js'
import {
  SUMMARY_FOLDS_005 as SESSION_FOLDS,
  sessionSummariesTables,
} from '../../packages/server/src/storage/events/migrations/005-session-summaries.js'
import { backfillEventOrder } from '../../packages/server/src/storage/events/migrations/008-event-order.js'
import { refillByMonth } from '../../packages/server/src/storage/events/migrations/refill-by-month.js'
import { positiveInteger } from '../positive-integer.js'
import { generateEvents, loadVocabulary } from './generate-events.js'
import { benchFunnel } from './reports.js'
import { settleRollups } from './settle-rollups.js'
import { percentile } from './timing.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const demoLog = path.resolve(here, '../../packages/server/demo-data/elastic-examples-apache_logs.txt')
const totalEvents = positiveInteger('BENCH_EVENTS', 10_000_000)
const DAYS = positiveInteger('BENCH_DAYS', 365)
const iterations = positiveInteger('BENCH_ITERATIONS', 9)
const batchSize = positiveInteger('BENCH_BATCH', 100_000)
const END = new Date('2026-04-01T00:00:00.000Z')
const SITE = 1
const RANGES = [30, 365].filter((days) => days <= DAYS)

const log = (message: string) => process.stderr.write(`[bench:event-order] ${message}\n`)

/** The same three filters as `reports.ts`: raw events, an entry-page filter among them. */
const FILTERS = JSON.stringify([
  { parameter: 'country', type: 'equals', value: ['US'] },
  { parameter: 'device_type', type: 'not_equals', value: ['mobile'] },
  { parameter: 'entry_page', type: 'equals', value: ['/'] },
])

/** The current session rollups' SQL as it read the layout of 003 and 005. */
function rolledBefore(sql: string): string {
  return sql
    .replaceAll(/\bsession_hours\b/g, 'session_hours_before')
    .replaceAll(/\bsession_summaries\b/g, 'session_summaries_before')
    .replaceAll("toUInt256('18446744073709551615')", "toUInt128('18446744073709551615')")
    .replaceAll(/toUInt8\(bitAnd\((\w+), 63\)\)/g, 'toUInt8(positiveModulo($1, 64))')
}

/** The current raw SQL as it ordered by `timestamp` alone (journeys: ties by pathname). */
function rawBefore(sql: string): string {
  return sql
    .replaceAll(
      `arraySort((p, k) -> k, groupArray(pathname), groupArray(${EVENT_ORDER_KEY}))`,
      'arraySort((p, t) -> (t, p), groupArray(pathname), groupArray(toUnixTimestamp64Milli(timestamp)))',
    )
    .replaceAll(EVENT_ORDER_KEY, 'timestamp')
    .replaceAll(EVENT_ORDER, 'timestamp')
}

interface Report {
  name: string
  /** The current query over a scope. */
  compile(scope: ReportScope): CompiledQuery
  /** The same report as before the change. */
  before(sql: string): string
  /** Raw reports read every session of the range; the longest are left to 30 days. */
  maxDays?: number
  filters?: string
  rollups?: false
}

const reports: Report[] = [
  { name: 'overview (rolled)', compile: compileOverview, before: rolledBefore },
  ...(['channels', 'referrers', 'entry_pages', 'exit_pages'] as const).map((name) => ({
    name: `${name} (rolled)`,
    compile: (scope: ReportScope) => compileBreakdown(scope, name),
    before: rolledBefore,
  })),
  {
    name: 'entry_pages (raw)',
    compile: (scope) => compileBreakdown(scope, 'entry_pages'),
    before: rawBefore,
    rollups: false,
  },
  { name: 'overview, 3 filters (raw)', compile: compileOverview, before: rawBefore, filters: FILTERS },
  {
    name: 'pages v1 (raw)',
    compile: (scope) => {
      const compiled = compilePageStats(scope)
      if (!('raw' in compiled)) throw new Error('pages v1 (raw): the scope reads the rollups')
      return compiled.raw
    },
    before: rawBefore,
    rollups: false,
  },
  {
    name: 'journeys (raw)',
    compile: (scope) => compileJourneys(scope, { steps: 4, limit: 20 }),
    before: rawBefore,
    maxDays: 30,
  },
  {
    name: 'funnel by entry page (raw)',
    compile: (scope) => compileFunnelReport(scope, benchFunnel, 'entry_page'),
    before: rawBefore,
  },
]

/** Build the session rollups as 003 and 005 laid them out, from the stored events. */
async function buildBefore(events: EventsStore): Promise<void> {
  const create = (statements: readonly string[], table: string) =>
    String(statements.find((s) => s.includes(`CREATE TABLE IF NOT EXISTS ${table} (`))).replace(
      `${table} (`,
      `${table}_before (`,
    )
  await events.command(create(rollupTables.statements, 'session_hours'))
  await events.command(create(sessionSummariesTables.statements, 'session_summaries'))
  await refillByMonth(events, ['session_hours_before'], (where) => [
    sessionHoursInsert(where).replace('INSERT INTO session_hours ', 'INSERT INTO session_hours_before '),
  ])
  const columns = Object.keys(SESSION_FOLDS)
  const folds = Object.entries(SESSION_FOLDS).map(([column, fold]) => `${fold}(${column})`)
  const sites = await events.query<{ site_id: number }>('SELECT DISTINCT site_id FROM session_hours_before')
  for (const { site_id } of sites) {
    // Every session folded, as the current summaries hold them after `settleRollups`.
    await events.command(
      `INSERT INTO session_summaries_before (site_id, session_key, start_hour, end_hour, ${columns.join(', ')})
       SELECT site_id, session_key, min(hour), max(hour), ${folds.join(', ')} FROM session_hours_before
       WHERE site_id = {site:UInt32} AND session_key IN (SELECT session_key FROM session_summaries WHERE site_id = {site:UInt32})
       GROUP BY site_id, session_key`,
      { site: Number(site_id) },
    )
  }
  for (const table of ['session_hours_before', 'session_summaries_before']) {
    await events.command(`OPTIMIZE TABLE ${table} FINAL`)
  }
}

interface Timing {
  p50: number
  p95: number
  cpu: number
}

/** Time two queries alternately (ABBA), `iterations` runs each after 2 warm-ups each. */
async function measurePair(
  events: EventsStore,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<[Timing, Timing]> {
  for (let i = 0; i < 2; i++) {
    await a()
    await b()
  }
  const samples: [number[], number[]] = [[], []]
  const cpu = [0, 0]
  for (let i = 0; i < iterations; i++) {
    const order = i % 2 === 0 ? [0, 1] : [1, 0]
    for (const which of order) {
      const cpuBefore = process.cpuUsage()
      const start = performance.now()
      await (which === 0 ? a() : b())
      samples[which]?.push(performance.now() - start)
      const used = process.cpuUsage(cpuBefore)
      cpu[which] = (cpu[which] ?? 0) + (used.user + used.system) / 1000
    }
  }
  void events
  const timing = (which: 0 | 1): Timing => ({
    p50: percentile(samples[which], 50),
    p95: percentile(samples[which], 95),
    cpu: (cpu[which] ?? 0) / iterations,
  })
  return [timing(0), timing(1)]
}

async function tableSize(events: EventsStore, table: string) {
  const [row] = await events.query<{ rows: number; bytes: number }>(
    'SELECT sum(rows) AS rows, sum(bytes_on_disk) AS bytes FROM system.parts WHERE table = {table:String} AND active',
    { table },
  )
  return { table, rows: Number(row?.rows ?? 0), bytes: Number(row?.bytes ?? 0) }
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-bench-event-order-'))
  const events = await openChdbStore(dir)
  try {
    const vocabulary = loadVocabulary(demoLog)
    const loadStart = performance.now()
    await generateEvents({
      totalEvents,
      days: DAYS,
      end: END,
      batchSize,
      vocabulary,
      sink: (batch) => events.insert(batch),
    })
    log(
      `loaded ${totalEvents.toLocaleString('en')} events in ${((performance.now() - loadStart) / 1000).toFixed(1)} s`,
    )
    await settleRollups(events)
    const beforeStart = performance.now()
    await buildBefore(events)
    log(`built the 003/005 layout in ${((performance.now() - beforeStart) / 1000).toFixed(1)} s`)
    const [ties] = await events.query<{ n: number }>(
      `SELECT count() AS n FROM (SELECT session_id, timestamp FROM events GROUP BY session_id, timestamp HAVING count() > 1)`,
    )
    log(`(session, millisecond) pairs with more than one event: ${Number(ties?.n)}`)

    const figures = []
    for (const days of RANGES) {
      const startDate = new Date(END.getTime() - days * 86_400_000).toISOString().slice(0, 10)
      for (const report of reports) {
        if (report.maxDays !== undefined && days > report.maxDays) continue
        const query: Record<string, string> = { start_date: startDate, end_date: '2026-03-31' }
        if (report.filters) query.filters = report.filters
        const scope: ReportScope = {
          siteId: SITE,
          params: parseQueryParams(query, END.getTime()),
          ...(report.rollups === false ? { rollups: false } : {}),
        }
        const after = report.compile(scope)
        const beforeSql = report.before(after.sql)
        if (beforeSql === after.sql) throw new Error(`${report.name}: nothing to compare`)
        const answers: [unknown, unknown] = [null, null]
        const [before, now] = await measurePair(
          events,
          async () => {
            answers[0] = await events.query(beforeSql, after.params)
          },
          async () => {
            answers[1] = await events.query(after.sql, after.params)
          },
        )
        const same = JSON.stringify(answers[0]) === JSON.stringify(answers[1])
        const figure = { report: report.name, days, before, after: now, same }
        figures.push(figure)
        log(
          `${days} d ${report.name}: before ${before.p50.toFixed(0)} / ${before.p95.toFixed(0)} ms (cpu ${before.cpu.toFixed(0)}), after ${now.p50.toFixed(0)} / ${now.p95.toFixed(0)} ms (cpu ${now.cpu.toFixed(0)}), same answer: ${same}`,
        )
      }
    }
    const sizes = []
    for (const table of [
      'session_hours_before',
      'session_hours',
      'session_summaries_before',
      'session_summaries',
    ]) {
      sizes.push(await tableSize(events, table))
    }
    const upgradeStart = performance.now()
    await backfillEventOrder(events)
    const upgradeSeconds = (performance.now() - upgradeStart) / 1000
    log(`008's backfill over ${totalEvents.toLocaleString('en')} events: ${upgradeSeconds.toFixed(1)} s`)

    console.log(
      '| report | days | before p50 / p95 (cpu) ms | after p50 / p95 (cpu) ms | p50 after/before | cpu after/before | same answer |',
    )
    console.log('|---|---|---|---|---|---|---|')
    for (const f of figures) {
      const t = (x: Timing) => `${x.p50.toFixed(0)} / ${x.p95.toFixed(0)} (${x.cpu.toFixed(0)})`
      console.log(
        `| ${f.report} | ${f.days} | ${t(f.before)} | ${t(f.after)} | ${(f.after.p50 / f.before.p50).toFixed(2)} | ${(f.after.cpu / f.before.cpu).toFixed(2)} | ${f.same} |`,
      )
    }
    console.log(
      `\non disk: ${sizes.map((s) => `${s.table} ${s.rows.toLocaleString('en')} rows, ${(s.bytes / 1e6).toFixed(0)} MB`).join('; ')}`,
    )
    console.log(`008 backfill: ${upgradeSeconds.toFixed(1)} s for ${totalEvents.toLocaleString('en')} events`)
    console.log(JSON.stringify({ figures, sizes, upgradeSeconds, ties: Number(ties?.n) }))
  } finally {
    await events.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

await main()
