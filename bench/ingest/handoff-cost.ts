/**
 * What moving ingest work off the request thread would cost the request thread, for the two designs
 * that would move it: (a) enrichment in a worker pool, (b) HTTP in workers feeding one writer that
 * owns the store. The main thread's busy time per event for
 *
 * 1. `inline`: the work (a) would move, done where it is today: `parsePayload` (the zod schema and
 *    the address check), `detectBot`, `parseUserAgent` and the geolocation lookup (`GEOIP=on`, the
 *    databases searched on disk), with the caches warm as under `bench/ingest/run.ts`'s load (its
 *    bodies over and over);
 * 2. `worker`: (a)'s handoff: the raw body, address and user agent posted to a `worker_threads`
 *    worker that does (1), the enriched result posted back, in batches of `B` events per message (1 is
 *    a request answered as it comes; larger batches trade latency for less per-event messaging);
 * 3. `ipc`: (b)'s handoff in the writer: a forked process (node:cluster's workers talk to the primary
 *    over the same channel) sends the raw request, the writer answers with the outcome, in batches of
 *    `B` requests per message.
 *
 * Busy time is the event loop's active time (`performance.eventLoopUtilization`) divided by the events
 * handled, so it counts what the request thread spends, not the other thread's or process's work. A
 * design helps only if its handoff costs the request thread less than the work it moves (and, for
 * (b), than the HTTP work it moves: its share of the request thread is in `profile.ts`' split).
 *
 *   npx tsx bench/ingest/handoff-cost.ts            # BENCH_EVENTS=100000 BENCH_ROUNDS=3
 */
import { fork } from 'node:child_process'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { positiveInteger } from '../positive-integer.js'
import { enrichOne, openEnrichment } from './handoff-enrich.js'
import { buildTrackBodies } from './track-bodies.js'

const here = path.dirname(fileURLToPath(import.meta.url))
/** The worker and the child run a TypeScript module through tsx (`tsx-entry.mjs`). */
const ENTRY = path.join(here, 'tsx-entry.mjs')
const entryOf = (file: string) => ({ ...process.env, TSX_ENTRY: path.join(here, file) })
const events = positiveInteger('BENCH_EVENTS', 100_000)
const rounds = positiveInteger('BENCH_ROUNDS', 3)
const BATCHES = [1, 8, 64] as const
const logFile = path.resolve(here, '../../packages/server/demo-data/elastic-examples-apache_logs.txt')
const requests = buildTrackBodies(logFile, { siteId: 1, domain: 'example.com' }).map((r) => ({
  body: r.body,
  ip: r.ip,
  userAgent: r.userAgent,
}))

/** Main-thread busy µs per event while `run` handles `events` events (it resolves when all are done). */
async function busyPerEvent(run: () => Promise<void>): Promise<number> {
  const before = performance.eventLoopUtilization()
  await run()
  const used = performance.eventLoopUtilization(before)
  return (used.active * 1000) / events
}

async function inline(): Promise<number> {
  const enrichment = await openEnrichment()
  for (const r of requests) enrichOne(enrichment, r)
  return busyPerEvent(async () => {
    for (let i = 0; i < events; i++) {
      enrichOne(enrichment, requests[i % requests.length] as (typeof requests)[number])
      // Yield now and then, as a server does between requests, so the loop's time is counted.
      if (i % 1000 === 999) await new Promise((resolve) => setImmediate(resolve))
    }
  })
}

async function viaWorker(batch: number): Promise<number> {
  const worker = new Worker(ENTRY, { env: entryOf('handoff-worker.ts') })
  await new Promise((resolve) => worker.once('message', resolve))
  const send = (from: number) =>
    Array.from({ length: batch }, (_, j) => requests[(from + j) % requests.length])
  // Warm the worker's caches and JIT.
  for (let i = 0; i < 2000; i += batch) {
    worker.postMessage(send(i))
    await new Promise((resolve) => worker.once('message', resolve))
  }
  const perEvent = await busyPerEvent(
    () =>
      new Promise<void>((resolve) => {
        let sent = 0
        let received = 0
        // Keep 4 batches in flight, as concurrent requests would.
        const next = () => {
          if (sent < events) {
            worker.postMessage(send(sent))
            sent += batch
          }
        }
        worker.on('message', (results: unknown[]) => {
          received += results.length
          if (received >= events) resolve()
          else next()
        })
        for (let k = 0; k < 4; k++) next()
      }),
  )
  await worker.terminate()
  return perEvent
}

async function viaIpc(batch: number): Promise<number> {
  const child = fork(ENTRY, [String(events), String(batch)], {
    serialization: 'json',
    env: entryOf('handoff-sender.ts'),
  })
  await new Promise((resolve) => child.once('message', resolve))
  const perEvent = await busyPerEvent(
    () =>
      new Promise<void>((resolve) => {
        child.on('message', (message: { requests: unknown[] } | 'done') => {
          if (message === 'done') return resolve()
          // The writer's answer per request: its status and body.
          child.send(message.requests.map(() => ({ status: 200, body: { success: true } })))
        })
        child.send('go')
      }),
  )
  child.kill()
  return perEvent
}

const results: Record<string, number[]> = {}
const record = (name: string, value: number) => {
  results[name] ??= []
  results[name].push(value)
}
for (let round = 0; round < rounds; round++) {
  record('inline: parse + bot + user agent + geolocation', await inline())
  for (const batch of BATCHES) record(`(a) worker round trip, ${batch} per message`, await viaWorker(batch))
  for (const batch of BATCHES) record(`(b) writer's IPC, ${batch} per message`, await viaIpc(batch))
  process.stderr.write(`[bench:handoff] round ${round + 1} of ${rounds} done\n`)
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
console.log('\n| main thread, per event | busy µs, median of rounds | rounds |')
console.log('|---|---|---|')
for (const [name, values] of Object.entries(results)) {
  console.log(`| ${name} | ${median(values).toFixed(2)} | ${values.map((v) => v.toFixed(2)).join(', ')} |`)
}
