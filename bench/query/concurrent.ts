/**
 * Concurrent readers and writers (issue 16, item 4): the built server in a child process
 * (`startServerProcess`, `entry: 'build'`), preloaded with events over the last 365 days through
 * `POST /api/sites/{id}/import` (raw NDJSON lines), then left to fold them into session summaries and
 * seal the pages' months (the server's fold every 2 s, hours settled after 3 s) until the admin backlog
 * (`rollups` of `GET /api/admin/ingest-stats`) is 0: a fixed 10 s wait let that work run into the
 * measured phases on a slow day (readers alone at 6 s p95 in one run, the mix at 2.4 s in another).
 * Then three phases of `BENCH_SECONDS` each:
 *
 * 1. readers alone: 5 simulated dashboard users, each POSTing the overview batch (`overview-parts.ts`,
 *    last 30 days) every 2 s (the next one 2 s after the previous one started, or at once if it took
 *    longer);
 * 2. ingest alone: `POST /api/track` paced at 2,000 events per second (20 requests every 10 ms, with the
 *    site's API key), each a pageview of one of 5,000 visitors;
 * 3. both at once.
 *
 * Prints the report p95 and the ingest p99 of each phase and their ratios mix / alone (target: both at
 * most 2). The load generator shares the machine with the server. Run from the repository root after
 * `npm run build -w @pathlight/server`:
 *
 *   npx tsx bench/query/concurrent.ts
 *
 * Environment: `BENCH_PRELOAD` events imported first (default 300,000), `BENCH_SECONDS` per phase
 * (default 30), `BENCH_RATE` events per second (default 2,000), `BENCH_USERS` (default 5).
 */
import os from 'node:os'
import { startServerProcess } from '../../packages/server/src/testing/start-server-process.js'
import { positiveInteger } from '../positive-integer.js'
import { seededRandom } from './generate-events.js'
import { overviewBatch } from './overview-parts.js'
import { percentile } from './timing.js'

const preload = positiveInteger('BENCH_PRELOAD', 300_000)
const seconds = positiveInteger('BENCH_SECONDS', 30)
const rate = positiveInteger('BENCH_RATE', 2_000)
const users = positiveInteger('BENCH_USERS', 5)
const TICK_MS = 10
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const PATHS = Array.from({ length: 200 }, (_, i) => `/page/${i}`)
const REFERRERS = ['', 'https://www.google.com/', 'https://news.ycombinator.com/', 'https://twitter.com/']

const log = (message: string) => process.stderr.write(`[bench:concurrent] ${message}\n`)
const fmt = (ms: number) => (ms < 10 ? ms.toFixed(1) : ms.toFixed(0))
/** The longest wait for the fold pass to catch up after the import. */
const FOLD_TIMEOUT_MS = 300_000

/**
 * Wait until `GET /api/admin/ingest-stats` says the fold pass has nothing left (`rollups` 0 and 0).
 * @returns the last backlog read (not 0 when the wait timed out)
 */
async function waitForFold(baseUrl: string, auth: Record<string, string>): Promise<unknown> {
  const end = performance.now() + FOLD_TIMEOUT_MS
  for (;;) {
    const stats = (await (await fetch(`${baseUrl}/api/admin/ingest-stats`, { headers: auth })).json()) as {
      rollups?: { hoursToFold: number; monthsToSeal: number }
    }
    const done = stats.rollups?.hoursToFold === 0 && stats.rollups.monthsToSeal === 0
    if (done || performance.now() > end) return stats.rollups
    await sleep(1_000)
  }
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Phase {
  reports: number[]
  ingest: number[]
  failures: number
}

async function main() {
  const server = await startServerProcess({
    entry: 'build',
    env: {
      PATHLIGHT_TRACK_KEY_LIMIT: '100000000',
      // The imported history folded into session summaries within seconds of the import, as within
      // minutes in production. Its batches touch every hour of the year, so each hour settles only
      // once the import is done (a shorter settling time refolds sessions while the import runs).
      SESSION_FOLD_INTERVAL_MS: '2000',
      SESSION_FOLD_SETTLE_MS: '3000',
      ...(process.env.INGEST_FLUSH_MS ? { INGEST_FLUSH_MS: process.env.INGEST_FLUSH_MS } : {}),
    },
  })
  const auth = { authorization: `Bearer ${server.apiKey}` }
  try {
    const random = seededRandom(7)
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T
    const now = Date.now()
    const lines: string[] = []
    for (let i = 0; i < preload; i++) {
      lines.push(
        JSON.stringify({
          type: 'pageview',
          hostname: 'example.com',
          pathname: pick(PATHS),
          referrer: pick(REFERRERS),
          user_agent: CHROME,
          user_id: `visitor-${Math.floor(random() * preload * 0.3)}`,
          timestamp: new Date(now - Math.floor(random() * 365 * 86_400_000)).toISOString(),
        }),
      )
    }
    const importStart = performance.now()
    const imported = await fetch(`${server.baseUrl}/api/sites/${server.siteId}/import`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-ndjson' },
      body: `${lines.join('\n')}\n`,
    })
    log(
      `import: ${imported.status} ${(await imported.text()).slice(0, 200)} in ${((performance.now() - importStart) / 1000).toFixed(1)} s`,
    )

    // Settled, folded, sealed: the summaries hold every imported session closed an hour ago and the
    // pages' months are sealed, as on a server that has run a while since (the admin backlog at 0).
    const foldStart = performance.now()
    const backlog = await waitForFold(server.baseUrl, auth)
    log(
      `fold after the import: ${JSON.stringify(backlog)} in ${((performance.now() - foldStart) / 1000).toFixed(1)} s`,
    )

    const body = JSON.stringify(overviewBatch('day'))
    const reportUrl = `${server.baseUrl}/api/sites/${server.siteId}/reports`
    const trackUrl = `${server.baseUrl}/api/track`
    const run = async (withReaders: boolean, withIngest: boolean): Promise<Phase> => {
      const phase: Phase = { reports: [], ingest: [], failures: 0 }
      const end = performance.now() + seconds * 1000
      const timed = async (samples: number[], request: () => Promise<Response>) => {
        const start = performance.now()
        try {
          const response = await request()
          await response.arrayBuffer()
          if (!response.ok) phase.failures++
        } catch {
          phase.failures++
        }
        samples.push(performance.now() - start)
      }
      const reader = async (offset: number) => {
        await sleep(offset)
        while (performance.now() < end) {
          const started = performance.now()
          await timed(phase.reports, () =>
            fetch(reportUrl, {
              method: 'POST',
              headers: { ...auth, 'content-type': 'application/json' },
              body,
            }),
          )
          await sleep(Math.max(0, 2000 - (performance.now() - started)))
        }
      }
      const ingest = async () => {
        const perTick = Math.round((rate * TICK_MS) / 1000)
        const inFlight: Promise<void>[] = []
        let next = performance.now()
        while (performance.now() < end) {
          for (let i = 0; i < perTick; i++) {
            const event = JSON.stringify({
              site_id: String(server.siteId),
              type: 'pageview',
              hostname: 'example.com',
              pathname: pick(PATHS),
              referrer: pick(REFERRERS),
              user_agent: CHROME,
              user_id: `live-${Math.floor(random() * 5000)}`,
            })
            inFlight.push(
              timed(phase.ingest, () =>
                fetch(trackUrl, {
                  method: 'POST',
                  headers: { ...auth, 'content-type': 'application/json' },
                  body: event,
                }),
              ),
            )
          }
          next += TICK_MS
          await sleep(Math.max(0, next - performance.now()))
        }
        await Promise.all(inFlight)
      }
      await Promise.all([
        ...(withReaders ? Array.from({ length: users }, (_, i) => reader((i * 2000) / users)) : []),
        ...(withIngest ? [ingest()] : []),
      ])
      return phase
    }
    await run(true, false) // warm-up of the reports (caches, JIT), unmeasured
    const readers = await run(true, false)
    log(`readers alone: ${readers.reports.length} batches, p95 ${fmt(percentile(readers.reports, 95))} ms`)
    const writers = await run(false, true)
    log(`ingest alone: ${writers.ingest.length} events, p99 ${fmt(percentile(writers.ingest, 99))} ms`)
    const mix = await run(true, true)
    const figures = {
      reportP95: { alone: percentile(readers.reports, 95), mix: percentile(mix.reports, 95) },
      reportP50: { alone: percentile(readers.reports, 50), mix: percentile(mix.reports, 50) },
      ingestP99: { alone: percentile(writers.ingest, 99), mix: percentile(mix.ingest, 99) },
      ingestP50: { alone: percentile(writers.ingest, 50), mix: percentile(mix.ingest, 50) },
      ingestRate: { alone: writers.ingest.length / seconds, mix: mix.ingest.length / seconds },
      batches: { alone: readers.reports.length, mix: mix.reports.length },
      failures: { readers: readers.failures, ingest: writers.failures, mix: mix.failures },
    }
    const ratio = (f: { alone: number; mix: number }) => f.mix / f.alone
    console.log('| figure | alone | under the mix | ratio (target ≤ 2) |')
    console.log('|---|---|---|---|')
    for (const [name, f] of [
      ['report p95 (overview batch)', figures.reportP95],
      ['report p50', figures.reportP50],
      ['ingest p99 (POST /api/track)', figures.ingestP99],
      ['ingest p50', figures.ingestP50],
    ] as const) {
      console.log(`| ${name} | ${fmt(f.alone)} ms | ${fmt(f.mix)} ms | ${ratio(f).toFixed(2)} |`)
    }
    console.log(
      `ingest ${Math.round(figures.ingestRate.alone)}/s alone, ${Math.round(figures.ingestRate.mix)}/s mixed; failures ${JSON.stringify(figures.failures)}`,
    )
    const pass = ratio(figures.reportP95) <= 2 && ratio(figures.ingestP99) <= 2
    console.log(`report p95 and ingest p99 within 2 x alone: ${pass ? 'PASS' : 'FAIL'}`)
    console.log(
      JSON.stringify({ preload, seconds, rate, users, cpus: os.availableParallelism(), pass, figures }),
    )
  } finally {
    await server.stop()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
