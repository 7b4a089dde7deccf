/**
 * Ingest benchmark: `POST /api/track` throughput, latency, memory and durability of Pathlight against a
 * bare Fastify baseline on the same machine. Run from the repo root:
 *
 *   npx tsx bench/ingest/run.ts            (or: npm run bench:ingest)
 *
 * Environment: `BENCH_SECONDS` measured seconds per server (default 10), `BENCH_WARMUP_SECONDS`
 * (default 2, 0 to skip), `BENCH_CONNECTIONS` (default 50). Prints progress on stderr, then a table and,
 * as the last stdout line, the same figures as one JSON object (see `IngestSummary`). Exit code 0 when
 * the run completed (targets are reported, not enforced), 1 on a crash. See bench/README.md.
 */
import { availableParallelism } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { formatSummary, type PathlightFigures, type ServerFigures, summarize } from './format-summary.js'
import { loadStartServerProcess, type ServerProcess, serverContractPath } from './load-server-contract.js'
import { type LoadResult, runLoad } from './run-load.js'
import { sampleRss } from './sample-rss.js'
import { startBaselineServer } from './start-baseline-server.js'
import { buildTrackBodies } from './track-bodies.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const demoLog = path.resolve(here, '../../packages/server/demo-data/elastic-examples-apache_logs.txt')
const seconds = positiveNumber('BENCH_SECONDS', 10)
const warmupSeconds = positiveNumber('BENCH_WARMUP_SECONDS', 2)
const connections = positiveNumber('BENCH_CONNECTIONS', 50)
const BODY_COUNT = 200
const COMMIT_WAIT_MS = 60_000
const COMMIT_STABLE_MS = 3_000

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0, got ${raw}`)
  return value
}

function log(message: string): void {
  process.stderr.write(`[bench:ingest] ${message}\n`)
}

function figures(result: LoadResult, rssMb: number | null): ServerFigures {
  return {
    reqPerSec: result.reqPerSec,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    rssMb,
    statuses: result.statuses,
    errors: result.errors + result.timeouts,
  }
}

/** Warm-up (not measured) then measured load; returns the measured run and acks of both. */
async function warmThenLoad(
  opts: Omit<Parameters<typeof runLoad>[0], 'seconds' | 'connections'>,
): Promise<{ measured: LoadResult; acknowledged: number }> {
  let acknowledged = 0
  if (warmupSeconds > 0) {
    const warm = await runLoad({ ...opts, seconds: warmupSeconds, connections })
    acknowledged += warm.acknowledged
  }
  const measured = await runLoad({ ...opts, seconds, connections })
  return { measured, acknowledged: acknowledged + measured.acknowledged }
}

async function benchBaseline(): Promise<{ figures: ServerFigures; distinctBodies: number }> {
  const requests = buildTrackBodies(demoLog, { siteId: 1, domain: 'bench.example', count: BODY_COUNT })
  log(`baseline: starting bare Fastify child process (${requests.length} distinct bodies)`)
  const server = await startBaselineServer()
  const rss = sampleRss(server.pid)
  try {
    log(`baseline: ${server.baseUrl} pid ${server.pid}; load ${warmupSeconds}+${seconds} s`)
    const { measured } = await warmThenLoad({ baseUrl: server.baseUrl, requests })
    return { figures: figures(measured, await rss.stop()), distinctBodies: requests.length }
  } finally {
    await rss.stop()
    await server.stop()
  }
}

/** Polls `countEvents()` until it reaches `expected` or stops changing for 3 s (at most 60 s). */
async function waitForCommitted(server: ServerProcess, expected: number): Promise<number> {
  const deadline = Date.now() + COMMIT_WAIT_MS
  let count = await server.countEvents()
  let changedAt = Date.now()
  while (count < expected && Date.now() < deadline && Date.now() - changedAt < COMMIT_STABLE_MS) {
    await new Promise((resolve) => setTimeout(resolve, 250))
    const next = await server.countEvents()
    if (next !== count) changedAt = Date.now()
    count = next
  }
  return count
}

async function readIngestStats(server: ServerProcess): Promise<unknown> {
  try {
    const response = await fetch(`${server.baseUrl}/api/admin/ingest-stats`, {
      headers: { Authorization: `Bearer ${server.apiKey}` },
      signal: AbortSignal.timeout(5_000),
    })
    if (!response.ok) return { unavailable: `HTTP ${response.status}` }
    return (await response.json()) as unknown
  } catch (error) {
    return { unavailable: error instanceof Error ? error.message : String(error) }
  }
}

async function benchPathlight(): Promise<
  { figures: PathlightFigures; ingestStats: unknown } | { skipped: string }
> {
  const start = await loadStartServerProcess()
  if (!start) return { skipped: `${path.relative(process.cwd(), serverContractPath)} does not exist yet` }
  log('pathlight: starting server child process')
  // LOG_LEVEL as `npm start` ships it (the test harness's default is warn).
  const server = await start({
    env: { PATHLIGHT_TRACK_KEY_LIMIT: '100000000', LOG_LEVEL: 'info' },
    entry: 'build',
  })
  const rss = sampleRss(server.pid)
  try {
    const requests = buildTrackBodies(demoLog, {
      siteId: server.siteId,
      domain: server.domain,
      count: BODY_COUNT,
    })
    const where = `${server.baseUrl} pid ${server.pid} site ${server.siteId}`
    log(`pathlight: ${where}; load ${warmupSeconds}+${seconds} s`)
    const headers = { authorization: `Bearer ${server.apiKey}` }
    const { measured, acknowledged } = await warmThenLoad({ baseUrl: server.baseUrl, requests, headers })
    log(`pathlight: ${acknowledged} acknowledged; waiting for the events store`)
    const committed = await waitForCommitted(server, acknowledged)
    const ingestStats = await readIngestStats(server)
    const result: PathlightFigures = {
      ...figures(measured, await rss.stop()),
      acknowledged,
      committed,
      missing: Math.max(0, acknowledged - committed),
      extra: Math.max(0, committed - acknowledged),
    }
    return { figures: result, ingestStats }
  } finally {
    await rss.stop()
    await server.stop()
  }
}

async function main(): Promise<void> {
  const baseline = await benchBaseline()
  const pathlight = await benchPathlight()
  const summary = summarize({
    benchmark: 'ingest',
    seconds,
    warmupSeconds,
    connections,
    distinctBodies: baseline.distinctBodies,
    cpus: availableParallelism(),
    node: process.version,
    baseline: baseline.figures,
    pathlight: 'figures' in pathlight ? pathlight.figures : null,
    ...('skipped' in pathlight
      ? { pathlightSkipped: pathlight.skipped }
      : { ingestStats: pathlight.ingestStats }),
  })
  process.stdout.write(`\n${formatSummary(summary)}`)
  process.stdout.write(`${JSON.stringify(summary)}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(
    `[bench:ingest] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  process.exitCode = 1
})
