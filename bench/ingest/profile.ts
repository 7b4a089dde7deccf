/**
 * Profile the real server under the ingest load: starts it with `--cpu-prof`, runs the benchmark's load
 * (the first of BENCH_CONNECTIONS, default 50, for BENCH_SECONDS, default 8), stops it, and prints where the main
 * thread spent its time (self time by function and by package). Profiles land in BENCH_PROFILE_DIR
 * (default a temporary directory) for Chrome DevTools.
 *
 *   npx tsx bench/ingest/profile.ts
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startServerProcess } from '../../packages/server/src/testing/start-server-process.js'
import { readSettings } from './read-settings.js'
import { runLoad } from './run-load.js'
import { buildTrackBodies } from './track-bodies.js'

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]
  samples: number[]
  timeDeltas: number[]
}

const dir = process.env.BENCH_PROFILE_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-profile-'))
const seconds = Number(process.env.BENCH_SECONDS ?? 8)
const connections = readSettings().connections[0] ?? 50
const logFile = path.resolve(
  import.meta.dirname,
  '../../packages/server/demo-data/elastic-examples-apache_logs.txt',
)

const server = await startServerProcess({
  env: { PATHLIGHT_TRACK_KEY_LIMIT: '100000000' },
  entry: 'build',
  nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
})
const requests = buildTrackBodies(logFile, { siteId: server.siteId, domain: server.domain })
const result = await runLoad({
  baseUrl: server.baseUrl,
  requests,
  seconds,
  connections,
  headers: { authorization: `Bearer ${server.apiKey}` },
})
await server.stop()
console.log(
  `${connections} connections: ${Math.round(result.reqPerSec)} req/s, p50 ${result.p50Ms.toFixed(1)} ms`,
)

const file = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))[0]
if (!file) throw new Error(`no profile written to ${dir}`)
const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CpuProfile
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
