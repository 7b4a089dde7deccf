/**
 * The dashboard overview as one request: loads synthetic events (default 1 M over 365 days,
 * `generate-events.ts`) into an embedded chDB store, then times `runReportBatch` (what
 * `POST /api/sites/{siteId}/reports` runs after the access check) with the overview's parts
 * (`overview-parts.ts`) over the last 30 days (daily chart) and the last 365 days (weekly chart) of the
 * busiest site (40 % of the events), next to the same parts awaited one after another. Run from the
 * repository root:
 *
 *   NODE_OPTIONS=--max-semi-space-size=64 BENCH_EVENTS=1000000 npx tsx bench/query/overview-page.ts
 *
 * Environment: `BENCH_EVENTS` (default 1,000,000), `BENCH_ITERATIONS` (default 15, after 2 warm-ups),
 * `BENCH_STORE` (a data directory to keep: filled on the first run, reused as it is by the next ones,
 * which saves the ~7 min of loading 10 M events; default a temporary directory, deleted at the end).
 * Prints a table and one JSON line (last stdout line); `CPU` is the process's CPU time per page
 * (`timing.ts`), steadier than wall time on a shared machine.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { runReportBatch } from '../../packages/server/src/http/report-batch.js'
import { openChdbStore } from '../../packages/server/src/storage/events/chdb-store.js'
import type { EventsStore } from '../../packages/server/src/storage/events/events-store.js'
import { positiveInteger } from '../positive-integer.js'
import { generateEvents, loadVocabulary } from './generate-events.js'
import { overviewBatch } from './overview-parts.js'
import { settleRollups } from './settle-rollups.js'
import { measure } from './timing.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const demoLog = path.resolve(here, '../../packages/server/demo-data/elastic-examples-apache_logs.txt')
const totalEvents = positiveInteger('BENCH_EVENTS', 1_000_000)
const iterations = positiveInteger('BENCH_ITERATIONS', 15)
const END = new Date('2026-04-01T00:00:00.000Z')
const SITE = 1

const log = (message: string) => process.stderr.write(`[bench:overview] ${message}\n`)
const fmt = (ms: number) => (ms < 10 ? ms.toFixed(1) : ms.toFixed(0))

/** Load `totalEvents` generated events and settle the rollups. @returns the rows loaded */
async function load(events: EventsStore): Promise<number> {
  const rows = await generateEvents({
    totalEvents,
    days: 365,
    end: END,
    batchSize: 100_000,
    vocabulary: loadVocabulary(demoLog),
    sink: (batch) => events.insert(batch),
  })
  await settleRollups(events)
  return rows
}

async function main() {
  const kept = process.env.BENCH_STORE
  const dir = kept ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-bench-overview-'))
  const events = await openChdbStore(dir)
  try {
    const loadStart = performance.now()
    const [stored] = await events.query<{ n: number }>('SELECT count() AS n FROM events')
    const rows = Number(stored?.n ?? 0) > 0 ? Number(stored?.n) : await load(events)
    log(`${rows.toLocaleString('en')} rows ready in ${((performance.now() - loadStart) / 1000).toFixed(1)} s`)
    const deps = { events, clock: () => END.getTime() }
    const figures = []
    for (const days of [30, 365]) {
      const query = {
        start_date: new Date(END.getTime() - days * 86_400_000).toISOString().slice(0, 10),
        end_date: '2026-03-31',
      }
      const body = overviewBatch(days <= 92 ? 'day' : 'week')
      const batch = await measure(() => runReportBatch(deps, SITE, query, body), iterations)
      const oneByOne = await measure(async () => {
        for (const part of body.reports) await runReportBatch(deps, SITE, query, { reports: [part] })
      }, iterations)
      figures.push({ days, parts: body.reports.length, batch, oneByOne })
      log(
        `${days} d: batch p50 ${fmt(batch.p50)} ms, p95 ${fmt(batch.p95)} ms, CPU ${fmt(batch.cpu)} ms; one by one p50 ${fmt(oneByOne.p50)} ms`,
      )
    }
    console.log('| range | parts | batch p50 | batch p95 | batch CPU | one by one p50 | one by one p95 |')
    console.log('|---|---|---|---|---|---|---|')
    for (const f of figures) {
      console.log(
        `| ${f.days} d | ${f.parts} | ${fmt(f.batch.p50)} ms | ${fmt(f.batch.p95)} ms | ${fmt(f.batch.cpu)} ms | ${fmt(f.oneByOne.p50)} ms | ${fmt(f.oneByOne.p95)} ms |`,
      )
    }
    console.log(JSON.stringify({ events: rows, iterations, cpus: os.availableParallelism(), figures }))
  } finally {
    await events.close()
    if (!kept) fs.rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
