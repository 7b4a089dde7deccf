/**
 * A year of reports right after an import: a whole Pathlight instance in this process (SQLite, chDB,
 * `openTestInstance`, with its background workers), `BENCH_EVENTS` generated raw events over the last
 * 365 days (`bench/import/raw-events.ts`: one site, `BENCH_VISITORS` visitors, `BENCH_PATHS` paths)
 * imported through `POST /api/sites/{siteId}/import`, then:
 *
 * 1. a timeline: the v1 stats over 365 days, timed at 0, 5, 10, ... 60 s after the import answered;
 * 2. every unfiltered 365-day report (v1 stats and pages, and the breakdowns) `BENCH_ITERATIONS` times
 *    each after 2 warm-ups, interleaved with a baseline query timed in the same loop
 *    (`SELECT count() FROM events WHERE site_id = ...` straight on the store), p50 / p95 wall ms
 *    printed against each report's target (150 ms; 100 ms for stats, pages and countries) and as a
 *    ratio to the baseline's p50, since the machine is shared and wall times move with its load; each
 *    request's CPU time (this process, all threads, chDB included) is printed too, steadier than wall
 *    time on a busy machine (background merges after the import add to it).
 *
 * Reports are requests through `app.inject` with an API key (no sockets: the figures are the route's
 * work). Run from the repository root:
 *
 *   NODE_OPTIONS=--max-semi-space-size=64 npx tsx bench/query/year-reports.ts
 *
 * Environment: `BENCH_EVENTS` (default 2,000,000), `BENCH_VISITORS` (200,000), `BENCH_PATHS` (300),
 * `BENCH_ITERATIONS` (10). Progress on stderr; tables, then one JSON line (last stdout line).
 */
import os from 'node:os'
import { Readable } from 'node:stream'
import { openTestInstance } from '../../packages/server/src/testing/test-instance.js'
import { rawEventLines } from '../import/raw-events.js'
import { positiveInteger } from '../positive-integer.js'
import { percentile } from './timing.js'

const count = positiveInteger('BENCH_EVENTS', 2_000_000)
const visitors = positiveInteger('BENCH_VISITORS', 200_000)
const paths = positiveInteger('BENCH_PATHS', 300)
const iterations = positiveInteger('BENCH_ITERATIONS', 10)
const LINES_PER_CHUNK = 2000
const TIMELINE_STEP_S = 5
const TIMELINE_END_S = 60

const log = (message: string) => process.stderr.write(`[bench:year] ${message}\n`)
const fmt = (ms: number) => (ms < 10 ? ms.toFixed(1) : ms.toFixed(0))

/** The reports timed: name, target p95 (ms), request path and query after the site's prefix. */
const REPORTS: { name: string; target: number; path: (site: number) => string }[] = [
  { name: 'v1 stats', target: 100, path: (s) => `/api/v1/sites/${s}/stats?` },
  { name: 'v1 pages', target: 100, path: (s) => `/api/v1/sites/${s}/pages?` },
  ...(
    [
      ['pages', 100],
      ['entry_pages', 150],
      ['exit_pages', 150],
      ['channels', 150],
      ['referrers', 150],
      ['countries', 100],
      ['regions', 150],
      ['browsers', 150],
      ['languages', 150],
      ['utm_source', 150],
      ['utm_campaign', 150],
    ] as const
  ).map(([name, target]) => ({
    name: `${name} breakdown`,
    target,
    path: (s: number) => `/api/sites/${s}/breakdown/${name}?`,
  })),
]

/** The generated lines as NDJSON chunks. */
function* ndjsonChunks(lines: Iterable<string>): Generator<string> {
  let chunk: string[] = []
  for (const line of lines) {
    chunk.push(line)
    if (chunk.length === LINES_PER_CHUNK) {
      yield `${chunk.join('\n')}\n`
      chunk = []
    }
  }
  if (chunk.length > 0) yield `${chunk.join('\n')}\n`
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function main() {
  const instance = await openTestInstance({ validateResponses: false })
  try {
    const { app, services } = instance
    const { site, apiKey, cookie } = await instance.seed()
    const end = Date.now()
    const endDate = new Date(end).toISOString().slice(0, 10)
    const startDate = new Date(end - 364 * 86_400_000).toISOString().slice(0, 10)
    const range = `start_date=${startDate}&end_date=${endDate}`
    /** The last request's CPU ms (this process, every thread: chDB runs in it). */
    let lastCpu = 0
    const get = async (url: string): Promise<number> => {
      const cpu = process.cpuUsage()
      const started = performance.now()
      // The v1 API takes the API key, the dashboard's routes the session cookie.
      const headers = url.startsWith('/api/v1/') ? { authorization: `Bearer ${apiKey}` } : { cookie }
      const answer = await app.inject({ method: 'GET', url, headers })
      const ms = performance.now() - started
      const used = process.cpuUsage(cpu)
      lastCpu = (used.user + used.system) / 1000
      if (answer.statusCode !== 200)
        throw new Error(`${url}: HTTP ${answer.statusCode} ${answer.body.slice(0, 300)}`)
      return ms
    }
    const baseline = async (): Promise<number> => {
      const started = performance.now()
      await services.events.query('SELECT count() AS n FROM events WHERE site_id = {site:UInt32}', {
        site: site.siteId,
      })
      return performance.now() - started
    }

    log(
      `importing ${count.toLocaleString('en')} events (${visitors} visitors, ${paths} paths) into site ${site.siteId}`,
    )
    const importStart = performance.now()
    const imported = await app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/import`,
      headers: { cookie, 'content-type': 'application/x-ndjson' },
      payload: Readable.from(
        ndjsonChunks(rawEventLines({ count, end: end - 3_600_000, hostname: site.domain, visitors, paths })),
      ),
    })
    const importSeconds = (performance.now() - importStart) / 1000
    if (imported.statusCode !== 200) throw new Error(`import: HTTP ${imported.statusCode} ${imported.body}`)
    const answered = performance.now()
    log(`import answered in ${importSeconds.toFixed(1)} s: ${imported.body.slice(0, 200)}`)

    const timeline: { at: number; ms: number; cpu: number; baseline: number }[] = []
    for (let at = 0; at <= TIMELINE_END_S; at += TIMELINE_STEP_S) {
      const wait = answered + at * 1000 - performance.now()
      if (wait > 0) await sleep(wait)
      const ms = await get(`/api/v1/sites/${site.siteId}/stats?${range}`)
      const cpu = lastCpu
      const base = await baseline()
      timeline.push({ at, ms, cpu, baseline: base })
      log(`+${at} s: v1 stats ${fmt(ms)} ms, CPU ${fmt(cpu)} ms (baseline ${fmt(base)} ms)`)
    }

    const figures = []
    for (const report of REPORTS) {
      const url = `${report.path(site.siteId)}${range}`
      const samples: number[] = []
      const cpus: number[] = []
      const baselines: number[] = []
      for (let i = 0; i < iterations + 2; i++) {
        const ms = await get(url)
        const cpu = lastCpu
        const base = await baseline()
        if (i >= 2) {
          samples.push(ms)
          cpus.push(cpu)
          baselines.push(base)
        }
      }
      const p50 = percentile(samples, 50)
      const p95 = percentile(samples, 95)
      const base = percentile(baselines, 50)
      const cpu = percentile(cpus, 50)
      figures.push({
        name: report.name,
        target: report.target,
        p50,
        p95,
        cpu,
        baseline: base,
        pass: p95 < report.target,
      })
      log(
        `${report.name}: p50 ${fmt(p50)} ms, p95 ${fmt(p95)} ms (target ${report.target}), CPU ${fmt(cpu)} ms, baseline ${fmt(base)} ms`,
      )
    }

    console.log(`\nimport of ${count.toLocaleString('en')} events answered in ${importSeconds.toFixed(1)} s`)
    console.log('\n| after the import | v1 stats, 365 d | CPU | baseline count() | ratio | target |')
    console.log('|---|---|---|---|---|---|')
    for (const t of timeline) {
      console.log(
        `| +${t.at} s | ${fmt(t.ms)} ms | ${fmt(t.cpu)} ms | ${fmt(t.baseline)} ms | ${(t.ms / t.baseline).toFixed(1)} | ${t.ms < 100 ? 'PASS' : 'FAIL'} (< 100 ms) |`,
      )
    }
    console.log('\n| 365-day report | p50 | p95 | CPU p50 | target p95 | | p95 / baseline p50 |')
    console.log('|---|---|---|---|---|---|---|')
    for (const f of figures) {
      console.log(
        `| ${f.name} | ${fmt(f.p50)} ms | ${fmt(f.p95)} ms | ${fmt(f.cpu)} ms | < ${f.target} ms | ${f.pass ? 'PASS' : 'FAIL'} | ${(f.p95 / f.baseline).toFixed(1)} (baseline ${fmt(f.baseline)} ms) |`,
      )
    }
    console.log(
      JSON.stringify({
        benchmark: 'year-reports',
        events: count,
        visitors,
        paths,
        iterations,
        cpus: os.availableParallelism(),
        loadAverage: os.loadavg(),
        importSeconds,
        timeline,
        figures,
      }),
    )
  } finally {
    await instance.close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
