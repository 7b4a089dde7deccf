/**
 * The Query API's target read: a year of daily visitors by country (`POST /api/v2/query` with
 * `metrics: [visitors]`, `dimensions: [time:day, visit:country]`, `date_range: 12mo`) over
 * `BENCH_EVENTS` generated raw events (`bench/import/raw-events.ts`, a year before now) imported into
 * a whole Pathlight instance in this process (SQLite, chDB, `openTestInstance`). Timed through the
 * route (the planner picks the rollups) and in-process with `runQueryApi(..., {rollups: false})`
 * (raw events), `BENCH_ITERATIONS` times each after 2 warm-ups, interleaved. Prints p50 / p95 wall
 * ms of both, of the dashboard's countries breakdown over the same days (the baseline: a rolled
 * report of the same rollup), and the ratios of p50s in the same run; checks that both answer alike.
 * Also the process's CPU time per call (user + system, chDB's threads included: p50 ms), which a
 * loaded machine stretches far less than the wall time.
 *
 *   NODE_OPTIONS=--max-semi-space-size=64 npx tsx bench/query-api/year-by-country.ts
 *
 * Environment: `BENCH_EVENTS` (default 2,000,000), `BENCH_VISITORS` (200,000), `BENCH_ITERATIONS`
 * (20). Progress on stderr; a table, then JSON (the target and the figures: bench/README.md).
 */
import os from 'node:os'
import { Readable } from 'node:stream'
import { queryApiBody } from '../../packages/protocol/src/query-api-request.js'
import { runQueryApi } from '../../packages/server/src/query-api/run-query-api.js'
import { openTestInstance } from '../../packages/server/src/testing/test-instance.js'
import { rawEventLines } from '../import/raw-events.js'
import { positiveInteger } from '../positive-integer.js'
import { percentile } from '../query/timing.js'

const count = positiveInteger('BENCH_EVENTS', 2_000_000)
const visitors = positiveInteger('BENCH_VISITORS', 200_000)
const iterations = positiveInteger('BENCH_ITERATIONS', 20)
const LINES_PER_CHUNK = 2000

const log = (message: string) => process.stderr.write(`[bench:query-api] ${message}\n`)
const fmt = (ms: number) => (ms < 10 ? ms.toFixed(1) : ms.toFixed(0))

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

async function main() {
  const instance = await openTestInstance({ validateResponses: false })
  try {
    const { app } = instance
    const { site, cookie, apiKey, userId } = await instance.seed()
    const end = Date.now()
    log(`importing ${count.toLocaleString('en')} events over the year before now into site ${site.siteId}`)
    const importStart = performance.now()
    const imported = await app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/import`,
      headers: { cookie, 'content-type': 'application/x-ndjson' },
      payload: Readable.from(
        ndjsonChunks(rawEventLines({ count, end: end - 3_600_000, hostname: site.domain, visitors })),
      ),
    })
    if (imported.statusCode !== 200) throw new Error(`import: HTTP ${imported.statusCode} ${imported.body}`)
    log(`import answered in ${((performance.now() - importStart) / 1000).toFixed(1)} s`)

    const body = {
      site_id: site.siteId,
      metrics: ['visitors'],
      date_range: '12mo',
      dimensions: ['time:day', 'visit:country'],
    }
    const deps = {
      db: instance.services.metadata.db,
      events: instance.services.events,
      clock: () => Date.now(),
    }
    let rolledAnswer = ''
    let rawAnswer = ''
    /** A call's wall and CPU milliseconds. */
    const timed = async (call: () => Promise<void>) => {
      const cpu = process.cpuUsage()
      const started = performance.now()
      await call()
      const wall = performance.now() - started
      const used = process.cpuUsage(cpu)
      return { wall, cpu: (used.user + used.system) / 1000 }
    }
    const viaRoute = async () => {
      const started = performance.now()
      const answer = await app.inject({
        method: 'POST',
        url: '/api/v2/query',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        payload: body,
      })
      const ms = performance.now() - started
      if (answer.statusCode !== 200)
        throw new Error(`query: HTTP ${answer.statusCode} ${answer.body.slice(0, 300)}`)
      rolledAnswer = JSON.stringify(answer.json().results)
      return ms
    }
    const raw = async () => {
      const started = performance.now()
      const answer = await runQueryApi(deps, { userId }, queryApiBody.parse(body), { rollups: false })
      const ms = performance.now() - started
      rawAnswer = JSON.stringify(answer.results)
      return ms
    }
    const first = new Date(end - 365 * 86_400_000).toISOString().slice(0, 10)
    const last = new Date(end).toISOString().slice(0, 10)
    const dashboard = async () => {
      const started = performance.now()
      const answer = await app.inject({
        method: 'GET',
        url: `/api/sites/${site.siteId}/breakdown/countries?start_date=${first}&end_date=${last}&limit=300`,
        headers: { cookie },
      })
      if (answer.statusCode !== 200) throw new Error(`breakdown: HTTP ${answer.statusCode}`)
      return performance.now() - started
    }
    const samples: { rollup: number[]; raw: number[]; dashboard: number[] } = {
      rollup: [],
      raw: [],
      dashboard: [],
    }
    const cpuSamples: typeof samples = { rollup: [], raw: [], dashboard: [] }
    for (let i = 0; i < iterations + 2; i++) {
      const a = await timed(async () => void (await viaRoute()))
      const b = await timed(async () => void (await raw()))
      const c = await timed(async () => void (await dashboard()))
      if (i >= 2) {
        samples.rollup.push(a.wall)
        samples.raw.push(b.wall)
        samples.dashboard.push(c.wall)
        cpuSamples.rollup.push(a.cpu)
        cpuSamples.raw.push(b.cpu)
        cpuSamples.dashboard.push(c.cpu)
      }
    }
    const rows = JSON.parse(rolledAnswer).length
    const same = rolledAnswer === rawAnswer
    const figure = (s: number[]) => ({ p50: percentile(s, 50), p95: percentile(s, 95) })
    const rollup = figure(samples.rollup)
    const rawFigures = figure(samples.raw)
    console.log(
      `\n${count.toLocaleString('en')} events over a year: daily visitors by country (${rows} rows)`,
    )
    console.log('\n| path | p50 / p95 |\n|---|---|')
    console.log(`| rollups (route) | ${fmt(rollup.p50)} / ${fmt(rollup.p95)} ms |`)
    console.log(`| raw events (in-process) | ${fmt(rawFigures.p50)} / ${fmt(rawFigures.p95)} ms |`)
    const baseline = figure(samples.dashboard)
    console.log(
      `| dashboard countries breakdown, same days (baseline) | ${fmt(baseline.p50)} / ${fmt(baseline.p95)} ms |`,
    )
    const cpu = {
      rollup: percentile(cpuSamples.rollup, 50),
      raw: percentile(cpuSamples.raw, 50),
      baseline: percentile(cpuSamples.dashboard, 50),
    }
    console.log(
      `\nraw / rollup p50: ${(rawFigures.p50 / rollup.p50).toFixed(2)}; rollup / baseline p50: ${(rollup.p50 / baseline.p50).toFixed(2)}; answers equal: ${same}`,
    )
    console.log(
      `CPU p50: rollups ${fmt(cpu.rollup)} ms, raw ${fmt(cpu.raw)} ms, baseline ${fmt(cpu.baseline)} ms; rollup / baseline ${(cpu.rollup / cpu.baseline).toFixed(2)}`,
    )
    console.log(
      JSON.stringify({
        benchmark: 'query-api-year-by-country',
        events: count,
        visitors,
        iterations,
        rows,
        same,
        cpus: os.availableParallelism(),
        loadAverage: os.loadavg(),
        rollup,
        raw: rawFigures,
        baseline,
        cpuP50: cpu,
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
