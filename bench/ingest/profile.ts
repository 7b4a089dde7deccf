/**
 * Profile the real server under the ingest load: starts it with `--cpu-prof` (and `LOG_LEVEL=info`, as
 * `npm start` ships it), runs the benchmark's load (the first of BENCH_CONNECTIONS, default 50; an
 * unmeasured BENCH_WARMUP_SECONDS, default 2, then BENCH_SECONDS, default 8; keyed, or keyless with
 * BENCH_PROFILE_MODE=keyless), stops it, and prints where the main thread spent the measured load's time
 * by kind of work (`profile-split.ts`), then self time by function and by package over the whole
 * profile. Profiles land in BENCH_PROFILE_DIR (default a temporary directory) for Chrome DevTools; the
 * worker threads' profiles too, when the server runs any.
 *
 *   npx tsx bench/ingest/profile.ts
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startServerProcess } from '../../packages/server/src/testing/start-server-process.js'
import { type CpuProfile, formatSplit, splitProfile } from './profile-split.js'
import { readSettings } from './read-settings.js'
import { runLoad } from './run-load.js'
import { buildTrackBodies } from './track-bodies.js'
import { trackHeaders } from './track-headers.js'

const dir = process.env.BENCH_PROFILE_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-profile-'))
const seconds = Number(process.env.BENCH_SECONDS ?? 8)
const settings = readSettings()
const connections = settings.connections[0] ?? 50
const mode = process.env.BENCH_PROFILE_MODE === 'keyless' ? 'keyless' : 'keyed'
const logFile = path.resolve(
  import.meta.dirname,
  '../../packages/server/demo-data/elastic-examples-apache_logs.txt',
)

const server = await startServerProcess({
  env: { PATHLIGHT_TRACK_KEY_LIMIT: '100000000', LOG_LEVEL: 'info' },
  entry: 'build',
  nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
})
const requests = buildTrackBodies(logFile, { siteId: server.siteId, domain: server.domain })
const headers = trackHeaders(mode, server)
const load = (loadSeconds: number) =>
  runLoad({ baseUrl: server.baseUrl, requests, seconds: loadSeconds, connections, headers })
// The warm-up takes the first lookups (cold geolocation blocks, JIT) out of the measured window.
const warmupStart = performance.now()
if (settings.warmupSeconds > 0) await load(settings.warmupSeconds)
const warmupMs = performance.now() - warmupStart
const result = await load(seconds)
await server.stop()
console.log(
  `${mode}, ${connections} connections: ${Math.round(result.reqPerSec)} req/s, p50 ${result.p50Ms.toFixed(1)} ms`,
)

const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .map((f) => ({ f, size: fs.statSync(path.join(dir, f)).size }))
// The main thread's profile is the one with the pipeline's HTTP side; it is the largest.
const file = files.sort((a, b) => b.size - a.size)[0]?.f
if (!file) throw new Error(`no profile written to ${dir}`)
const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CpuProfile
console.log(
  `\nmain thread, the measured load by kind of work:\n${formatSplit(splitProfile(profile, warmupMs))}`,
)
for (const other of files.filter((f) => f.f !== file)) {
  const worker = JSON.parse(fs.readFileSync(path.join(dir, other.f), 'utf8')) as CpuProfile
  console.log(
    `\n${other.f}, the measured load by kind of work:\n${formatSplit(splitProfile(worker, warmupMs))}`,
  )
}
const timeOf = new Map<number, number>()
profile.samples.forEach((id, i) => {
  timeOf.set(id, (timeOf.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0))
})
const byFunction = new Map<string, number>()
const byPackage = new Map<string, number>()
let total = 0
for (const node of profile.nodes) {
  const time = timeOf.get(node.id) ?? 0
  total += time
  const { functionName, url, lineNumber } = node.callFrame
  const where = url.replace(/.*node_modules\//, '').replace(/.*packages\/server\//, '')
  const fn = `${functionName || '(anonymous)'} ${where}:${lineNumber}`
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + time)
  const pkg = url.includes('node_modules/')
    ? (/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? url)
    : url.includes('/src/')
      ? `src/${url.split('/src/')[1]}`
      : url || `(${functionName})`
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + time)
}
const top = (map: Map<string, number>) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 20)
    .map(([name, time]) => `  ${((time / total) * 100).toFixed(1).padStart(5)}%  ${name}`)
    .join('\n')
console.log(
  `\nmain thread, self time by function:\n${top(byFunction)}\n\nby package or file:\n${top(byPackage)}`,
)
console.log(`\nprofile: ${path.join(dir, file)}`)
