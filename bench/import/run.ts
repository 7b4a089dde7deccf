/**
 * Import benchmark: `POST /api/sites/{siteId}/import` throughput and memory over real HTTP (loopback),
 * against the events store's own insert rate in the same run. Run from the repo root:
 *
 *   npx tsx bench/import/run.ts                          (or: npm run bench:import)
 *   BENCH_IMPORT_EVENTS=200000 npx tsx bench/import/run.ts    # quicker
 *
 * One run:
 * 1. `pathlight serve` in a child process as `npm start` runs it (defaults: SQLite + chDB, DB-IP
 *    geolocation), on a fresh temporary data directory (`spawnServer`); an owner, an organization and
 *    two sites created through the API (`seedInstance`, `POST .../sites`).
 * 2. **raw**: `BENCH_IMPORT_EVENTS` generated raw events (`raw-events.ts`: a year, 1-6 events per visit,
 *    8 user agents, 12 referrers, campaign tags, custom events) streamed as NDJSON into site 1's import.
 *    Rate = events / seconds from the first byte sent to the answer (all are committed by then). The
 *    generator runs in this process on the same CPUs; its rate alone is measured first and reported.
 * 3. **export**: `GET .../export` of site 1 into a temporary file (rate reported).
 * 4. **exported**: that file streamed into site 2's import (stored rows: validated, de-duplicated, no
 *    enrichment).
 * 5. **baseline**: the server stopped, the same rows inserted straight through `EventsStore.insert` in
 *    batches of `BATCH_ROWS` (the importer's batch size) in this process (`insert-baseline.ts`).
 * Peak RSS of the server: after step 2 (`VmHWM`, exact) and over the whole run.
 *
 * Environment: `BENCH_IMPORT_EVENTS` (default 1,000,000); `BENCH_CPU_PROF=1` starts the server with
 * `--cpu-prof` and prints where the profile went (open it in Chrome DevTools or speedscope). Progress on
 * stderr; a table, then the figures as one JSON line (last stdout line). Target (the import issue): at
 * least 50,000 raw events per second; reported, not enforced.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { seedInstance } from '../../packages/server/src/demo/seed-instance.js'
import { spawnServer } from '../../packages/server/src/testing/start-server-process.js'
import { BATCH_ROWS } from '../../packages/server/src/transfer/import-events.js'
import { type CpuSplit, startCpuSplit } from '../ingest/cpu-time.js'
import { sampleRss } from '../ingest/sample-rss.js'
import { positiveInteger } from '../positive-integer.js'
import { request } from './http-request.js'
import { insertBaseline } from './insert-baseline.js'
import { rawEventLines } from './raw-events.js'

const count = positiveInteger('BENCH_IMPORT_EVENTS', 1_000_000)
const cpuProfile = process.env.BENCH_CPU_PROF === '1'
const LINES_PER_CHUNK = 2000
const TARGET_RAW_PER_SECOND = 50_000

function log(message: string): void {
  process.stderr.write(`[bench:import] ${message}\n`)
}

/** The generated lines as NDJSON chunks of `LINES_PER_CHUNK` lines. */
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

interface ImportAnswer {
  imported: number
  dropped: Record<string, number>
  rejectedCount: number
  rejected: { line: number; error: string }[]
}

function parseImport(answer: { status: number; body: string }, what: string): ImportAnswer {
  if (answer.status !== 200) throw new Error(`${what}: HTTP ${answer.status} ${answer.body.slice(0, 500)}`)
  return JSON.parse(answer.body) as ImportAnswer
}

const rate = (n: number, seconds: number) => Math.round(n / seconds)

async function main(): Promise<void> {
  const end = Date.now() - 3_600_000
  const generation = (() => {
    const started = process.hrtime.bigint()
    let bytes = 0
    for (const chunk of ndjsonChunks(rawEventLines({ count, end, hostname: 'example.com' })))
      bytes += chunk.length
    return { seconds: Number(process.hrtime.bigint() - started) / 1e9, bytes }
  })()
  log(
    `generator alone: ${count} lines, ${(generation.bytes / 1e6).toFixed(0)} MB in ${generation.seconds.toFixed(1)} s`,
  )

  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-bench-import-prof-'))
  const server = await spawnServer(
    cpuProfile
      ? { entry: 'build', nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] }
      : { entry: 'build' },
  )
  const exportFile = path.join(os.tmpdir(), `pathlight-bench-import-${process.pid}.ndjson`)
  const wholeRun = sampleRss(server.pid)
  try {
    const seeded = await seedInstance(server.baseUrl)
    const auth = { cookie: seeded.cookie, origin: server.baseUrl }
    const created = await request(`${server.baseUrl}/api/organizations/${seeded.organizationId}/sites`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: Readable.from([JSON.stringify({ name: 'Copy', domain: 'copy.example.com' })]),
    })
    if (created.status !== 201) throw new Error(`create site: HTTP ${created.status} ${created.body}`)
    const copySiteId = Number((JSON.parse(created.body) as { siteId: number }).siteId)
    log(`server ${server.baseUrl} pid ${server.pid}; sites ${seeded.siteId} and ${copySiteId}`)

    log(`raw: streaming ${count} events into site ${seeded.siteId}`)
    const rawRss = sampleRss(server.pid)
    const rawCpu = startCpuSplit(server.pid)
    const rawAnswer = await request(`${server.baseUrl}/api/sites/${seeded.siteId}/import`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-ndjson' },
      body: Readable.from(ndjsonChunks(rawEventLines({ count, end, hostname: 'example.com' }))),
    })
    const raw = parseImport(rawAnswer, 'raw import')
    const rawCpuSplit = rawCpu(count)
    const rawPeakMb = await rawRss.stop()
    log(`raw: ${raw.imported} imported in ${rawAnswer.seconds.toFixed(1)} s (${JSON.stringify(raw.dropped)})`)

    log('export: site 1 to a temporary file')
    const exported = await request(`${server.baseUrl}/api/sites/${seeded.siteId}/export`, {
      method: 'GET',
      headers: auth,
      sink: fs.createWriteStream(exportFile),
    })
    if (exported.status !== 200) throw new Error(`export: HTTP ${exported.status}`)
    const exportBytes = fs.statSync(exportFile).size
    log(`export: ${(exportBytes / 1e6).toFixed(0)} MB in ${exported.seconds.toFixed(1)} s`)

    log(`exported: importing the file into site ${copySiteId}`)
    const copyCpu = startCpuSplit(server.pid)
    const copyAnswer = await request(`${server.baseUrl}/api/sites/${copySiteId}/import`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-ndjson' },
      body: fs.createReadStream(exportFile, { highWaterMark: 1 << 20 }),
    })
    const copy = parseImport(copyAnswer, 'exported import')
    const copyCpuSplit = copyCpu(copy.imported)
    log(`exported: ${copy.imported} imported in ${copyAnswer.seconds.toFixed(1)} s`)
    const peakMb = await wholeRun.stop()
    await server.stop()

    log(`baseline: ${copy.imported} rows through EventsStore.insert in batches of ${BATCH_ROWS}`)
    const baseline = await insertBaseline(exportFile, BATCH_ROWS)
    const baselineRate = rate(baseline.rows, baseline.seconds)

    const summary = {
      benchmark: 'import',
      events: count,
      cpus: os.availableParallelism(),
      node: process.version,
      generator: { linesPerSecond: rate(count, generation.seconds), bytes: generation.bytes },
      raw: {
        imported: raw.imported,
        dropped: raw.dropped,
        rejected: raw.rejectedCount,
        seconds: round(rawAnswer.seconds),
        eventsPerSecond: rate(raw.imported, rawAnswer.seconds),
        peakRssMb: rawPeakMb,
        cpu: rawCpuSplit,
      },
      export: {
        bytes: exportBytes,
        seconds: round(exported.seconds),
        eventsPerSecond: rate(raw.imported, exported.seconds),
      },
      exported: {
        imported: copy.imported,
        rejected: copy.rejectedCount,
        seconds: round(copyAnswer.seconds),
        eventsPerSecond: rate(copy.imported, copyAnswer.seconds),
        cpu: copyCpuSplit,
      },
      baseline: {
        rows: baseline.rows,
        seconds: round(baseline.seconds),
        rowsPerSecond: baselineRate,
        cpuUsPerRow: round(baseline.cpuUsPerRow),
      },
      ratio: {
        raw: round(rate(raw.imported, rawAnswer.seconds) / baselineRate),
        exported: round(rate(copy.imported, copyAnswer.seconds) / baselineRate),
      },
      peakRssMb: peakMb,
      target: {
        rawEventsPerSecond: TARGET_RAW_PER_SECOND,
        pass: rate(raw.imported, rawAnswer.seconds) >= TARGET_RAW_PER_SECOND,
      },
      ...(cpuProfile ? { cpuProfileDir: profileDir } : {}),
    }
    process.stdout.write(`\n${table(summary)}\n${JSON.stringify(summary)}\n`)
  } finally {
    await wholeRun.stop()
    await server.stop().catch(() => undefined)
    fs.rmSync(exportFile, { force: true })
    if (!cpuProfile) fs.rmSync(profileDir, { recursive: true, force: true })
  }
}

const round = (value: number) => Math.round(value * 100) / 100

function table(s: {
  events: number
  cpus: number
  raw: { eventsPerSecond: number; seconds: number; peakRssMb: number | null; cpu: CpuSplit }
  export: { eventsPerSecond: number; seconds: number }
  exported: { eventsPerSecond: number; seconds: number; cpu: CpuSplit }
  baseline: { rowsPerSecond: number; seconds: number; cpuUsPerRow: number }
  ratio: { raw: number; exported: number }
  peakRssMb: number | null
  target: { rawEventsPerSecond: number; pass: boolean }
}): string {
  const row = (name: string, perSecond: number, seconds: number, ratio: string) =>
    `${name.padEnd(38)}${String(perSecond).padStart(10)}/s${seconds.toFixed(1).padStart(9)} s${ratio.padStart(10)}`
  return [
    `import benchmark: ${s.events} events, ${s.cpus} CPUs`,
    `${''.padEnd(38)}${'rate'.padStart(12)}${'time'.padStart(11)}${'× base'.padStart(10)}`,
    row('raw NDJSON import (HTTP)', s.raw.eventsPerSecond, s.raw.seconds, s.ratio.raw.toFixed(2)),
    row('export (HTTP, to file)', s.export.eventsPerSecond, s.export.seconds, ''),
    row(
      'exported NDJSON import (HTTP)',
      s.exported.eventsPerSecond,
      s.exported.seconds,
      s.ratio.exported.toFixed(2),
    ),
    row(
      `baseline EventsStore.insert (${BATCH_ROWS.toLocaleString('en')})`,
      s.baseline.rowsPerSecond,
      s.baseline.seconds,
      '1.00',
    ),
    cpuLine('raw import', s.raw.cpu),
    cpuLine('exported import', s.exported.cpu),
    `CPU per row, baseline insert (this process, all threads): ${s.baseline.cpuUsPerRow.toFixed(1)} µs`,
    `peak RSS of the server: ${s.raw.peakRssMb ?? 'n/a'} MB during the raw import, ${s.peakRssMb ?? 'n/a'} MB over the run`,
    `target ≥ ${s.target.rawEventsPerSecond} raw events/s: ${s.target.pass ? 'PASS' : 'FAIL'}`,
  ].join('\n')
}

main().catch((error: unknown) => {
  process.stderr.write(
    `[bench:import] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  process.exitCode = 1
})

/** Where an import's CPU went: the server's and this process's µs per event, and the machine's busy share. */
function cpuLine(name: string, cpu: CpuSplit): string {
  const us = (value: number | null) => (value === null ? 'n/a' : value.toFixed(1))
  const busy = cpu.machineBusy === null ? 'n/a' : `${Math.round(cpu.machineBusy * 100)} %`
  return `CPU per event, ${name}: server ${us(cpu.serverUsPerRequest)} µs, generator and client ${us(cpu.clientUsPerRequest)} µs; machine busy ${busy}`
}
