/**
 * Access log ingest speed: `BENCH_LINES` lines (default 1,000,000), made by repeating the demo's real
 * access log (packages/server/demo-data/elastic-examples-apache_logs.txt, 10,000 lines over 4 days,
 * 30 % bots), each repetition 4 days after the one before, so 1 M lines are about 400 days of one site's
 * log (13 or 14 monthly partitions, as a real year of logs fills), written to a temporary file, then:
 * 1. baseline: the file read line by line (node:readline) and nothing else;
 * 2. parse + classify: each line parsed and its agent classified (`crawlers/` without the store, with
 *    the ingest's cache per user agent);
 * 3. ingest: `ingestLog` into a fresh embedded chDB store (what `pathlight ingest-log` does).
 * Prints lines, seconds and lines per second of each, and the ratios against the baseline.
 *
 *   npx tsx bench/ingest-log/run.ts            # BENCH_LINES=200000 for a shorter run
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { agentClassifier, ingestLog } from '../../packages/server/src/crawlers/ingest-log.js'
import { parseLogLine } from '../../packages/server/src/crawlers/parse-log-line.js'
import { openChdbStore } from '../../packages/server/src/storage/events/chdb-store.js'
import { positiveInteger } from '../positive-integer.js'

const LINES = positiveInteger('BENCH_LINES', 1_000_000)
const source = path.resolve('packages/server/demo-data/elastic-examples-apache_logs.txt')
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-bench-ingest-log-'))
const file = path.join(dir, 'access.log')

const base = fs
  .readFileSync(source, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
const out = fs.createWriteStream(file)
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const STAMP = /\[(\d{2})\/(\w{3})\/(\d{4}):(\d{2}:\d{2}:\d{2}) \+0000\]/
const pad = (n: number) => String(n).padStart(2, '0')
/** The line with its `[dd/Mon/yyyy:hh:mm:ss +0000]` time moved `days` later. */
const shifted = (line: string, days: number) =>
  line.replace(STAMP, (_, day: string, month: string, year: string, time: string) => {
    const date = new Date(Date.UTC(Number(year), MONTHS.indexOf(month), Number(day) + days))
    return `[${pad(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:${time} +0000]`
  })
for (let written = 0, round = 0; written < LINES; round += 1) {
  // Each repetition the log's own span (4 days) later, so that the requests do not repeat exactly.
  const chunk: string[] = []
  for (const line of base) {
    if (written >= LINES) break
    chunk.push(round === 0 ? line : shifted(line, 4 * round))
    written += 1
  }
  if (!out.write(`${chunk.join('\n')}\n`))
    await new Promise<void>((resolve) => out.once('drain', () => resolve()))
}
await new Promise<void>((resolve) => out.end(resolve))

const linesOf = () =>
  readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY })

async function timed<T>(run: () => Promise<T>): Promise<{ seconds: number; result: T }> {
  const start = performance.now()
  const result = await run()
  return { seconds: (performance.now() - start) / 1000, result }
}

const baseline = await timed(async () => {
  let n = 0
  for await (const _line of linesOf()) n += 1
  return n
})
const parse = await timed(async () => {
  let bots = 0
  const classify = agentClassifier()
  for await (const line of linesOf()) {
    const parsed = parseLogLine(line)
    if (parsed.ok && classify(parsed.request.userAgent, parsed.request.ip) !== null) bots += 1
  }
  return bots
})
const events = await openChdbStore(path.join(dir, 'events'))
const ingest = await timed(() => ingestLog(events, 1, linesOf()))
const [stored] = await events.query<{ n: number }>('SELECT count() AS n FROM crawler_requests')
await events.close()
fs.rmSync(dir, { recursive: true, force: true })

const row = (name: string, seconds: number) =>
  `${name.padEnd(18)} ${seconds.toFixed(2).padStart(8)} s ${Math.round(LINES / seconds)
    .toLocaleString('en')
    .padStart(12)} lines/s ${(seconds / baseline.seconds).toFixed(1).padStart(7)} x baseline`
console.log(`ingest-log: ${LINES.toLocaleString('en')} lines (${os.cpus().length} CPUs)`)
console.log(row('read lines', baseline.seconds))
console.log(row('parse + classify', parse.seconds))
console.log(row('ingest (chDB)', ingest.seconds))
console.log(
  `kept ${ingest.result.kept.toLocaleString('en')} (stored ${Number(stored?.n ?? 0).toLocaleString('en')}; classified as bots without the store ${parse.result.toLocaleString('en')}), skipped as human ${ingest.result.skippedHuman.toLocaleString('en')}, rejected ${ingest.result.rejectedCount}`,
)
console.log(
  `target: 1,000,000 lines in under 60 s: ${ingest.seconds * (1_000_000 / LINES) < 60 ? 'met' : 'NOT met'} (scaled from this run)`,
)
