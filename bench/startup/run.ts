/**
 * Start time and idle memory of the server as `npm start` runs it: `node bin/pathlight.js serve` on an
 * empty data directory, the shipped defaults (log level, geolocation on: the databases searched on
 * disk), then with `GEOIP=memory` (the databases read whole, as the default did before) and with
 * `GEOIP=off`. Per configuration it prints the median milliseconds from spawn to the first 200 of
 * `GET /api/health`, and the median resident set size (`VmRSS` of `/proc/<pid>/status`, MB) after
 * `BENCH_IDLE_SECONDS` idle (default 30: V8's memory reducer collects the start's garbage 15-30 s after
 * the process goes quiet), split by what is mapped (`rss-split.ts`, the median run's), and the
 * defaults' figure against the 400 MB target. The baseline in the same run is a plain `node -e` that
 * does nothing (what starting Node itself costs).
 *
 *   npx tsx bench/startup/run.ts
 *   BENCH_RUNS=5 BENCH_IDLE_SECONDS=60 npx tsx bench/startup/run.ts
 *
 * The last stdout line is the same figures as JSON.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { positiveInteger } from '../positive-integer.js'
import { type RssSplit, rssSplit } from './rss-split.js'

const RUNS = positiveInteger('BENCH_RUNS', 3)
const IDLE_SECONDS = positiveInteger('BENCH_IDLE_SECONDS', 30)
/** Idle RSS target of `npm start` as shipped, MB. */
const TARGET_IDLE_RSS_MB = 400
const serverRoot = path.resolve(import.meta.dirname, '../../packages/server')

interface Run {
  startMs: number
  idleRssMb: number
  split: RssSplit
}

/** Milliseconds a bare `node -e ''` takes to start and exit. */
function nodeBaseline(): Promise<number> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
    child.once('error', reject)
    child.once('exit', () => resolve(performance.now() - started))
  })
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN)
  return kb / 1024
}

async function freePort(): Promise<number> {
  const net = await import('node:net')
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** One start of `node bin/pathlight.js serve` on a fresh data directory. */
async function startOnce(env: Record<string, string>): Promise<Run> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-startup-'))
  const port = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, ['bin/pathlight.js', 'serve'], {
    cwd: serverRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    let startMs = Number.NaN
    while (Number.isNaN(startMs)) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${stderr}`)
      if (performance.now() - started > 60_000) throw new Error(`not healthy in 60 s:\n${stderr}`)
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (response) => response.ok,
        () => false,
      )
      if (ok) startMs = performance.now() - started
      else await new Promise((resolve) => setTimeout(resolve, 10))
    }
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000))
    return { startMs, idleRssMb: rssMb(child.pid ?? 0), split: rssSplit(child.pid ?? 0) }
  } finally {
    child.kill('SIGTERM')
    await exited
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

async function measure(label: string, env: Record<string, string>) {
  const runs: Run[] = []
  for (let i = 0; i < RUNS; i++) {
    runs.push(await startOnce(env))
    process.stderr.write(
      `${label} run ${i + 1}/${RUNS}: ${runs.at(-1)?.startMs.toFixed(0)} ms, ${runs.at(-1)?.idleRssMb.toFixed(0)} MB\n`,
    )
  }
  const byRss = [...runs].sort((a, b) => a.idleRssMb - b.idleRssMb)
  const middle = byRss[Math.floor(byRss.length / 2)] as Run
  return {
    label,
    startMs: median(runs.map((run) => run.startMs)),
    idleRssMb: middle.idleRssMb,
    split: middle.split,
    runs,
  }
}

const baselineMs = median(await Promise.all([nodeBaseline(), nodeBaseline(), nodeBaseline()]))
const results = [
  await measure('defaults', {}),
  await measure('GEOIP=memory', { GEOIP: 'memory' }),
  await measure('GEOIP=off', { GEOIP: 'off' }),
]

const mb = (value: number, width: number) => value.toFixed(0).padStart(width)
console.log(`node -e '' (baseline): ${baselineMs.toFixed(0)} ms`)
console.log('configuration   start ms   idle RSS MB   = libchdb.so   node   *.mmdb   other files   anonymous')
for (const { label, startMs, idleRssMb, split } of results) {
  console.log(
    `${label.padEnd(14)}${mb(startMs, 10)}${mb(idleRssMb, 14)}${mb(split.chdbLibrary, 15)}${mb(split.nodeBinary, 7)}` +
      `${mb(split.mmdbFiles, 9)}${mb(split.otherFiles, 14)}${mb(split.anonymous, 12)}`,
  )
}
const shipped = results[0]?.idleRssMb ?? Number.NaN
console.log(
  `idle RSS as shipped (defaults): ${shipped.toFixed(0)} MB, target <= ${TARGET_IDLE_RSS_MB} MB: ` +
    `${shipped <= TARGET_IDLE_RSS_MB ? 'PASS' : 'FAIL'}`,
)
console.log(
  JSON.stringify({ baselineMs, idleSeconds: IDLE_SECONDS, targetIdleRssMb: TARGET_IDLE_RSS_MB, results }),
)
