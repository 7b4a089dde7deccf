/**
 * Start time and idle memory of the server as `npm start` runs it: `node bin/pathlight.js serve` on an
 * empty data directory, the shipped defaults (log level, geolocation on), then once more with
 * `GEOIP=off`. Per run it prints the milliseconds from spawn to the first 200 of `GET /api/health`, and
 * the resident set size (`VmRSS` of `/proc/<pid>/status`, MB) after `BENCH_IDLE_SECONDS` idle (default
 * 30: V8's memory reducer collects the start's garbage 15-30 s after the process goes quiet). The
 * baseline in the same run is a plain `node -e` that does nothing (what starting Node itself costs).
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

const RUNS = positiveInteger('BENCH_RUNS', 3)
const IDLE_SECONDS = positiveInteger('BENCH_IDLE_SECONDS', 30)
const serverRoot = path.resolve(import.meta.dirname, '../../packages/server')

interface Run {
  startMs: number
  idleRssMb: number
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
    return { startMs, idleRssMb: rssMb(child.pid ?? 0) }
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
    process.stderr.write(`${label} run ${i + 1}/${RUNS}: ${runs.at(-1)?.startMs.toFixed(0)} ms\n`)
  }
  return {
    label,
    startMs: median(runs.map((run) => run.startMs)),
    idleRssMb: median(runs.map((run) => run.idleRssMb)),
    runs,
  }
}

const baselineMs = median(await Promise.all([nodeBaseline(), nodeBaseline(), nodeBaseline()]))
const results = [await measure('defaults', {}), await measure('GEOIP=off', { GEOIP: 'off' })]

console.log(`node -e '' (baseline): ${baselineMs.toFixed(0)} ms`)
console.log('configuration   start to healthy (median ms)   idle RSS (median MB)')
for (const result of results) {
  console.log(
    `${result.label.padEnd(16)}${result.startMs.toFixed(0).padStart(27)}${result.idleRssMb.toFixed(0).padStart(23)}`,
  )
}
console.log(JSON.stringify({ baselineMs, idleSeconds: IDLE_SECONDS, results }))
