/**
 * Geolocation lookups with the databases searched on disk (`GEOIP=on`) against read whole into memory
 * (`GEOIP=memory`): what opening costs (ms, resident MB) and what a lookup of an address not seen
 * before costs (µs), each storage in its own process so that their memory does not mix.
 *
 *   npx tsx bench/geoip/run.ts
 *   BENCH_LOOKUPS=50000 BENCH_ROUNDS=3 npx tsx bench/geoip/run.ts
 *
 * Per process: `VmRSS` before and after `openGeolocator`, then three passes of `BENCH_LOOKUPS` distinct
 * random addresses each (four in five IPv4 anywhere, one in five IPv6 under allocated prefixes; none
 * repeats, so the per-address cache never answers): "first" right after opening, "second" and "third"
 * with the block and record caches as the passes before left them. Then `VmRSS` again. Rounds alternate
 * the storages (memory, disk, memory, disk, ...); medians are printed. The last stdout line is JSON.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import { openGeolocator } from '../../packages/server/src/ingest/enrich/geolocation.js'
import { positiveInteger } from '../positive-integer.js'

const LOOKUPS = positiveInteger('BENCH_LOOKUPS', 100_000)
const ROUNDS = positiveInteger('BENCH_ROUNDS', 3)
const STORAGES = ['memory', 'disk'] as const
type Storage = (typeof STORAGES)[number]

interface Measured {
  storage: Storage
  openMs: number
  rssBeforeMb: number
  rssOpenMb: number
  rssAfterMb: number
  /** µs per lookup of each pass. */
  passUs: number[]
}

function rssMb(): number {
  const status = fs.readFileSync('/proc/self/status', 'utf8')
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) / 1024
}

/** Distinct addresses from a seeded generator (mulberry32), `pass` choosing the stream. */
function addresses(count: number, pass: number): string[] {
  let state = 0x9e3779b9 + pass * 7919
  const next = () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return (t ^ (t >>> 14)) >>> 0
  }
  const prefixes = ['2001', '2400', '2600', '2607', '2800', '2a00', '2a02', '2c0f']
  const seen = new Set<string>()
  while (seen.size < count) {
    seen.add(
      next() % 5 === 0
        ? [
            prefixes[next() % prefixes.length],
            ...Array.from({ length: 7 }, () => (next() & 0xffff).toString(16)),
          ].join(':')
        : [next() & 255, next() & 255, next() & 255, next() & 255].join('.'),
    )
  }
  return [...seen]
}

async function child(storage: Storage): Promise<void> {
  const passes = [0, 1, 2].map((pass) => addresses(LOOKUPS, pass))
  const rssBeforeMb = rssMb()
  const opened = performance.now()
  const geo = await openGeolocator(undefined, storage)
  const openMs = performance.now() - opened
  const rssOpenMb = rssMb()
  const passUs: number[] = []
  let located = 0
  for (const ips of passes) {
    const started = performance.now()
    for (const ip of ips) if (geo.lookup(ip) !== null) located++
    passUs.push(((performance.now() - started) * 1000) / ips.length)
  }
  const measured: Measured = { storage, openMs, rssBeforeMb, rssOpenMb, rssAfterMb: rssMb(), passUs }
  if (located === 0) throw new Error('no address was located: the sample says nothing')
  geo.close()
  console.log(JSON.stringify(measured))
}

function runChild(storage: Storage): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const process_ = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, storage], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    process_.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    process_.once('error', reject)
    process_.once('exit', (code) => {
      if (code !== 0) reject(new Error(`${storage} exited with ${code}`))
      else resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '') as Measured)
    })
  })
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

const storageArg = process.argv[2]
if (storageArg === 'memory' || storageArg === 'disk') {
  await child(storageArg)
} else {
  const all: Measured[] = []
  for (let round = 0; round < ROUNDS; round++) {
    for (const storage of STORAGES) {
      all.push(await runChild(storage))
      process.stderr.write(`round ${round + 1}/${ROUNDS} ${storage}: ${JSON.stringify(all.at(-1))}\n`)
    }
  }
  const summary = STORAGES.map((storage) => {
    const runs = all.filter((run) => run.storage === storage)
    return {
      storage,
      openMs: median(runs.map((run) => run.openMs)),
      openRssMb: median(runs.map((run) => run.rssOpenMb - run.rssBeforeMb)),
      afterRssMb: median(runs.map((run) => run.rssAfterMb - run.rssBeforeMb)),
      passUs: [0, 1, 2].map((pass) => median(runs.map((run) => run.passUs[pass] ?? Number.NaN))),
    }
  })
  const f = (value: number, width: number, digits = 0) => value.toFixed(digits).padStart(width)
  console.log(`${LOOKUPS} new addresses per pass, median of ${ROUNDS} processes per storage`)
  console.log('storage   open ms   +MB open   +MB after passes   µs/lookup first   second   third')
  for (const s of summary) {
    console.log(
      `${s.storage.padEnd(8)}${f(s.openMs, 8)}${f(s.openRssMb, 11)}${f(s.afterRssMb, 19)}` +
        `${f(s.passUs[0] ?? Number.NaN, 18, 1)}${f(s.passUs[1] ?? Number.NaN, 9, 1)}${f(s.passUs[2] ?? Number.NaN, 8, 1)}`,
    )
  }
  console.log(JSON.stringify({ lookups: LOOKUPS, rounds: ROUNDS, summary, runs: all }))
}
