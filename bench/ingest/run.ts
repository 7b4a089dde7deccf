/**
 * Ingest benchmark (GitHub issue 17): `POST /api/track` throughput, latency, memory and durability of
 * Pathlight, keyless and keyed, against a bare Fastify baseline on the same machine. Run from the repo
 * root (the compiled server must exist: `npm run build -w @pathlight/server`):
 *
 *   npx tsx bench/ingest/run.ts            (or: npm run bench:ingest)
 *
 * Both servers start up front and stay up; the loads are interleaved per connection count (baseline,
 * Pathlight keyless, Pathlight keyed, baseline again; see plan-runs.ts), so that ratios compare runs
 * made minutes, not a whole benchmark, apart. Environment: see read-settings.ts. Prints progress on
 * stderr, then a table and, as the last stdout line, the same figures as one JSON object
 * (`IngestSummary`). Exit code 0 when the run completed (targets are reported, not enforced), 1 on a
 * failure. See bench/README.md.
 */
import { availableParallelism } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkKeyless } from './check-keyless.js'
import type { Durability, ServerMemory } from './format-summary.js'
import { formatSummary } from './format-summary.js'
import type { ServerProcess } from './load-server-contract.js'
import { planRuns, type RunSpec } from './plan-runs.js'
import { readIngestStats } from './read-ingest-stats.js'
import { readSettings } from './read-settings.js'
import { runPlan } from './run-plan.js'
import { readRssMb, sampleRss } from './sample-rss.js'
import { startBaselineServer } from './start-baseline-server.js'
import { startPathlight } from './start-pathlight.js'
import { summarize } from './summarize.js'
import { buildTrackBodies } from './track-bodies.js'
import { trackHeaders } from './track-headers.js'
import { waitForCommitted } from './wait-for-committed.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const demoLog = path.resolve(here, '../../packages/server/demo-data/elastic-examples-apache_logs.txt')
const BODY_COUNT = 200
/** Quiet time after start-up (and seeding) before idle RSS is read. */
const IDLE_QUIET_MS = 5_000

function log(message: string): void {
  process.stderr.write(`[bench:ingest] ${message}\n`)
}

function describe(spec: RunSpec): string {
  const name = spec.server === 'baseline' ? `baseline#${spec.round}` : `pathlight ${spec.mode}`
  return `${name} @${spec.connections}`
}

async function main(): Promise<void> {
  const settings = readSettings()
  const stops: (() => Promise<unknown>)[] = []
  try {
    log('baseline: starting bare Fastify child process')
    const baselineBegan = performance.now()
    const baseline = await startBaselineServer()
    const baselineReadyMs = Math.round(performance.now() - baselineBegan)
    stops.unshift(() => baseline.stop())
    log(`baseline: ${baseline.baseUrl} pid ${baseline.pid}, ready in ${baselineReadyMs} ms`)

    log('pathlight: starting the compiled server in a child process')
    const started = await startPathlight()
    const pathlight: ServerProcess | null = 'server' in started ? started.server : null
    const pathlightReadyMs = 'readyMs' in started ? started.readyMs : null
    if (pathlight) {
      stops.unshift(() => pathlight.stop())
      log(
        `pathlight: ${pathlight.baseUrl} pid ${pathlight.pid} site ${pathlight.siteId} ` +
          `(${pathlight.domain}), ready and seeded in ${pathlightReadyMs} ms`,
      )
    }
    const skipped = 'skipped' in started ? started.skipped : undefined
    if (skipped) log(`pathlight: skipped (${skipped})`)

    const site = pathlight ?? { siteId: 1, domain: 'example.com', apiKey: '' }
    const requests = buildTrackBodies(demoLog, {
      siteId: site.siteId,
      domain: site.domain,
      count: BODY_COUNT,
      properties: process.env.BENCH_TRACK_PROPERTIES === '1',
    })
    const [firstRequest] = requests
    if (!firstRequest) throw new Error(`no tracking requests could be built from ${demoLog}`)

    log(`both servers up; ${IDLE_QUIET_MS / 1000} s quiet before reading idle RSS`)
    await new Promise((resolve) => setTimeout(resolve, IDLE_QUIET_MS))
    const idleBaseline = await readRssMb(baseline.pid)
    const idlePathlight = pathlight ? await readRssMb(pathlight.pid) : null

    // The check's event is stored too, so it counts as acknowledged.
    let acknowledged = 0
    if (pathlight) {
      await checkKeyless(pathlight.baseUrl, firstRequest, trackHeaders('keyless', pathlight))
      acknowledged += 1
      log('pathlight: a keyless request is recorded (200 {success:true})')
    }

    const baselineRss = sampleRss(baseline.pid)
    const pathlightRss = pathlight ? sampleRss(pathlight.pid) : null
    stops.unshift(async () => {
      await baselineRss.stop()
      await pathlightRss?.stop()
    })
    const plan = planRuns(settings.connections, pathlight !== null)
    log(
      `${plan.length} runs of ${settings.warmupSeconds}+${settings.seconds} s, ` +
        `${requests.length} distinct bodies`,
    )
    const { runs, pathlightAcknowledged } = await runPlan({
      plan,
      servers: { baseline, pathlight },
      site,
      requests,
      timing: settings,
      onRun: (run) =>
        log(
          `${describe(run)}: ${Math.round(run.reqPerSec)} req/s, ` +
            `p99 ${run.p99Ms.toFixed(2)} ms, errors ${run.errors}`,
        ),
    })
    acknowledged += pathlightAcknowledged
    const baselineMemory: ServerMemory = {
      readyMs: baselineReadyMs,
      idleRssMb: idleBaseline,
      peakRssMb: await baselineRss.stop(),
    }
    const pathlightPeak = pathlightRss ? await pathlightRss.stop() : null

    let durability: Durability | null = null
    let ingestStats: unknown
    if (pathlight) {
      log(`pathlight: ${acknowledged} acknowledged in all; waiting for the events store`)
      const committed = await waitForCommitted(pathlight, acknowledged)
      durability = {
        acknowledged,
        committed,
        missing: Math.max(0, acknowledged - committed),
        extra: Math.max(0, committed - acknowledged),
      }
      ingestStats = await readIngestStats(pathlight)
    }

    const summary = summarize({
      benchmark: 'ingest',
      seconds: settings.seconds,
      warmupSeconds: settings.warmupSeconds,
      connections: settings.connections,
      distinctBodies: requests.length,
      cpus: availableParallelism(),
      node: process.version,
      runs,
      memory: {
        baseline: baselineMemory,
        pathlight:
          pathlightReadyMs === null
            ? null
            : { readyMs: pathlightReadyMs, idleRssMb: idlePathlight, peakRssMb: pathlightPeak },
      },
      durability,
      ...(skipped ? { pathlightSkipped: skipped } : { ingestStats }),
    })
    process.stdout.write(`\n${formatSummary(summary)}`)
    process.stdout.write(`${JSON.stringify(summary)}\n`)
  } finally {
    for (const stop of stops) await stop().catch(() => {})
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `[bench:ingest] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  process.exitCode = 1
})
