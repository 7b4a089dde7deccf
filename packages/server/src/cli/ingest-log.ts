/**
 * `pathlight ingest-log --site N FILE|-` [`--follow`] [`--url URL --key KEY`] [`--estimate`]: a site's
 * access log into its crawler requests (`crawlers/ingest-log.ts`), from a file or standard input
 * (`-`), printing the summary as JSON: lines kept, skipped as human, blank and rejected (each with its
 * line number and reason), the requests per agent.
 *
 * Two ways in:
 * - directly into the events store of this configuration (DATA_DIR or CLICKHOUSE_URL, as `serve`
 *   reads them): for a ClickHouse server, or an embedded store while the service is stopped (chDB's
 *   directory is held by the running service);
 * - with `--url` and `--key` (a key with the `logs` scope), to a running service's
 *   `POST /api/sites/{siteId}/logs`, in batches of `REMOTE_BATCH_LINES` lines.
 * `--follow` keeps reading the file as it grows (as `tail -f`, from its current end), sending what
 * arrived every `FOLLOW_INTERVAL_MS`, and prints one summary per batch until interrupted.
 */
import fs from 'node:fs'
import readline from 'node:readline'
import { parseArgs } from 'node:util'
import { loadConfig } from '../config.js'
import { addLogSummary, emptyLogSummary, ingestLog, type LogIngestSummary } from '../crawlers/ingest-log.js'
import { openEventsStore } from '../storage/events/open-events-store.js'

export const INGEST_LOG_USAGE =
  'Usage: npx pathlight ingest-log --site N FILE|- [--follow] [--url URL --key KEY] [--estimate]'
const REMOTE_BATCH_LINES = 50_000
const FOLLOW_INTERVAL_MS = 1000

/** Run the command; throws with the reason (usage, unreadable file, the store's or server's error). */
export async function runIngestLog(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      site: { type: 'string' },
      follow: { type: 'boolean', default: false },
      url: { type: 'string' },
      key: { type: 'string' },
      estimate: { type: 'boolean', default: false },
    },
  })
  const siteId = Number(values.site)
  const [file] = positionals
  if (!Number.isInteger(siteId) || siteId < 1 || file === undefined || positionals.length !== 1) {
    throw new Error(INGEST_LOG_USAGE)
  }
  if ((values.url === undefined) !== (values.key === undefined))
    throw new Error('--url and --key go together')
  if (values.follow && file === '-')
    throw new Error('--follow needs a FILE (standard input is read to its end)')
  const send =
    values.url !== undefined && values.key !== undefined
      ? remoteSender(values.url, values.key, siteId, values.estimate)
      : await localSender(env, siteId)
  try {
    if (values.follow) {
      await follow(file, send)
    } else {
      const input = file === '-' ? process.stdin : fs.createReadStream(file)
      const lines = readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })
      console.log(JSON.stringify(await send.all(lines), null, 2))
    }
  } finally {
    await send.close()
  }
}

interface Sender {
  /** Ingest every line; the summary of them all. */
  all(lines: AsyncIterable<string>): Promise<unknown>
  close(): Promise<void>
}

async function localSender(env: NodeJS.ProcessEnv, siteId: number): Promise<Sender> {
  const config = loadConfig(env)
  const events = await openEventsStore({ clickhouseUrl: config.clickhouseUrl, dataDir: config.dataDir })
  return { all: (lines) => ingestLog(events, siteId, lines), close: () => events.close() }
}

function remoteSender(url: string, key: string, siteId: number, estimate: boolean): Sender {
  const endpoint = `${url.replace(/\/$/, '')}/api/sites/${siteId}/logs${estimate ? '?estimate=true' : ''}`
  const post = async (batch: string[]): Promise<LogIngestSummary> => {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' },
      body: `${batch.join('\n')}\n`,
    })
    const body = (await response.json()) as LogIngestSummary & { error?: string }
    if (!response.ok) throw new Error(`${endpoint}: ${response.status} ${body.error ?? ''}`)
    return body
  }
  return {
    async all(lines) {
      const total = emptyLogSummary()
      let batch: string[] = []
      for await (const line of lines) {
        batch.push(line)
        if (batch.length >= REMOTE_BATCH_LINES) {
          addLogSummary(total, await post(batch))
          batch = []
        }
      }
      if (batch.length > 0) addLogSummary(total, await post(batch))
      return total
    },
    close: async () => {},
  }
}

/** Read `file` from its current end as it grows, sending each second's new lines. */
async function follow(file: string, send: Sender): Promise<void> {
  let position = fs.statSync(file).size
  let pending = ''
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_INTERVAL_MS))
    const size = fs.statSync(file).size
    if (size < position) position = 0 // rotated or truncated: start over
    if (size === position) continue
    const chunk = await readRange(file, position, size)
    position = size
    const text = pending + chunk
    const cut = text.lastIndexOf('\n')
    pending = text.slice(cut + 1)
    if (cut === -1) continue
    const lines = text
      .slice(0, cut)
      .split('\n')
      .map((line) => line.replace(/\r$/, ''))
    console.log(JSON.stringify(await send.all(toAsync(lines))))
  }
}

async function readRange(file: string, start: number, end: number): Promise<string> {
  const handle = await fs.promises.open(file, 'r')
  try {
    const buffer = Buffer.alloc(end - start)
    await handle.read(buffer, 0, buffer.length, start)
    return buffer.toString('utf8')
  } finally {
    await handle.close()
  }
}

async function* toAsync(lines: string[]): AsyncGenerator<string> {
  yield* lines
}
