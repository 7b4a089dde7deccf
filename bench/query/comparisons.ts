/**
 * What a comparison costs: two years of generated raw events (`bench/import/raw-events.ts`, half in each
 * year before now) imported into a whole Pathlight instance in this process (SQLite, chDB,
 * `openTestInstance`), then each report of the last `BENCH_DAYS` days timed plain and with
 * `compare=previous_period` and `compare=previous_year` (the stats with a daily series; the series; the
 * pages, countries and referrers breakdowns), `BENCH_ITERATIONS` times each after 2 warm-ups, interleaved
 * so that the machine's load moves all alike. Printed: p50 / p95 wall ms and each compared report's p50
 * as a ratio to the plain one's in the same run.
 *
 *   NODE_OPTIONS=--max-semi-space-size=64 npx tsx bench/query/comparisons.ts
 *
 * Environment: `BENCH_EVENTS` (default 1,000,000 in all), `BENCH_VISITORS` (100,000), `BENCH_PATHS`
 * (300), `BENCH_DAYS` (30), `BENCH_ITERATIONS` (10). Progress on stderr; a table, then one JSON line.
 */
import os from 'node:os'
import { Readable } from 'node:stream'
import { openTestInstance } from '../../packages/server/src/testing/test-instance.js'
import { rawEventLines } from '../import/raw-events.js'
import { positiveInteger } from '../positive-integer.js'
import { percentile } from './timing.js'

const count = positiveInteger('BENCH_EVENTS', 1_000_000)
const visitors = positiveInteger('BENCH_VISITORS', 100_000)
const paths = positiveInteger('BENCH_PATHS', 300)
const days = positiveInteger('BENCH_DAYS', 30)
const iterations = positiveInteger('BENCH_ITERATIONS', 10)
const YEAR_MS = 365 * 86_400_000
const LINES_PER_CHUNK = 2000

const log = (message: string) => process.stderr.write(`[bench:compare] ${message}\n`)
const fmt = (ms: number) => (ms < 10 ? ms.toFixed(1) : ms.toFixed(0))

/** The reports timed, by name: the path after the site's prefix and its own query. */
const REPORTS: [string, string][] = [
  ['stats, daily series', 'stats?bucket=day&'],
  ['series (visitors)', 'series?bucket=day&metrics=visitors&'],
  ['pages breakdown', 'breakdown/pages?limit=8&'],
  ['countries breakdown', 'breakdown/countries?limit=8&'],
  ['referrers breakdown', 'breakdown/referrers?limit=8&'],
]
const MODES = ['', 'compare=previous_period&', 'compare=previous_year&'] as const

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

/** Both years' lines: the year before now, then the year before that. */
function* twoYears(end: number, hostname: string): Generator<string> {
  const half = Math.floor(count / 2)
  yield* rawEventLines({ count: half, end: end - 3_600_000, hostname, visitors, paths })
  yield* rawEventLines({ count: count - half, end: end - YEAR_MS, hostname, visitors, paths, seed: 8 })
}

async function main() {
  const instance = await openTestInstance({ validateResponses: false })
  try {
    const { app } = instance
    const { site, cookie } = await instance.seed()
    const end = Date.now()
    const endDate = new Date(end).toISOString().slice(0, 10)
    const startDate = new Date(end - (days - 1) * 86_400_000).toISOString().slice(0, 10)
    const range = `start_date=${startDate}&end_date=${endDate}`

    log(`importing ${count.toLocaleString('en')} events over two years into site ${site.siteId}`)
    const importStart = performance.now()
    const imported = await app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/import`,
      headers: { cookie, 'content-type': 'application/x-ndjson' },
      payload: Readable.from(ndjsonChunks(twoYears(end, site.domain))),
    })
    if (imported.statusCode !== 200) throw new Error(`import: HTTP ${imported.statusCode} ${imported.body}`)
    log(`import answered in ${((performance.now() - importStart) / 1000).toFixed(1)} s`)

    const get = async (url: string): Promise<number> => {
      const started = performance.now()
      const answer = await app.inject({ method: 'GET', url, headers: { cookie } })
      const ms = performance.now() - started
      if (answer.statusCode !== 200)
        throw new Error(`${url}: HTTP ${answer.statusCode} ${answer.body.slice(0, 300)}`)
      return ms
    }
    const figures = []
    for (const [name, path] of REPORTS) {
      const samples: number[][] = MODES.map(() => [])
      for (let i = 0; i < iterations + 2; i++) {
        for (const [m, mode] of MODES.entries()) {
          const ms = await get(`/api/sites/${site.siteId}/${path}${mode}${range}`)
          if (i >= 2) samples[m]?.push(ms)
        }
      }
      const [plain, period, year] = samples.map((s) => ({ p50: percentile(s, 50), p95: percentile(s, 95) }))
      if (!plain || !period || !year) throw new Error('no samples')
      figures.push({ name, plain, period, year })
      log(
        `${name}: plain p50 ${fmt(plain.p50)} ms, previous period ${fmt(period.p50)}, previous year ${fmt(year.p50)}`,
      )
    }

    console.log(`\n${count.toLocaleString('en')} events over two years, reports of the last ${days} days`)
    console.log(
      '\n| report | plain p50 / p95 | previous_period p50 / p95 | ratio | previous_year p50 / p95 | ratio |',
    )
    console.log('|---|---|---|---|---|---|')
    for (const f of figures) {
      const cell = (x: { p50: number; p95: number }) => `${fmt(x.p50)} / ${fmt(x.p95)} ms`
      console.log(
        `| ${f.name} | ${cell(f.plain)} | ${cell(f.period)} | ${(f.period.p50 / f.plain.p50).toFixed(2)} | ${cell(f.year)} | ${(f.year.p50 / f.plain.p50).toFixed(2)} |`,
      )
    }
    console.log(
      JSON.stringify({
        benchmark: 'comparisons',
        events: count,
        visitors,
        paths,
        days,
        iterations,
        cpus: os.availableParallelism(),
        loadAverage: os.loadavg(),
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
