import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { loadStartServerProcess, type ServerProcess, serverContractPath } from './load-server-contract.js'

/** A started Pathlight server, or why none was started. */
export type StartedPathlight = { server: ServerProcess; readyMs: number } | { skipped: string }

/**
 * Starts the compiled Pathlight server (`entry: 'build'`, as `npm start` runs it) in a child process on
 * a fresh data directory, seeded with an owner, a site and an API key. Env: `PATHLIGHT_TRACK_KEY_LIMIT`
 * 100,000,000 (the per-key limit of 500 requests / 10 min would stop the keyed load within
 * milliseconds), `TRUST_PROXY=127.0.0.1` (keyless visitors' addresses) and `LOG_LEVEL=info` as `npm start` ships it (the test harness's default is `warn`).
 * With `BENCH_DATA_TEMPLATE` (a directory from `make-data-template.ts`), the data directory starts as a
 * copy of it (deleted when the server stops): one tree measured with and without the rollups' views.
 *
 * @returns the server and `readyMs`, wall-clock ms from spawn until it answered and was seeded; or
 *   `skipped` when the testing module does not exist.
 * @throws if the server does not start or the seeding fails.
 */
export async function startPathlight(): Promise<StartedPathlight> {
  const start = await loadStartServerProcess()
  if (!start) return { skipped: `${path.relative(process.cwd(), serverContractPath)} does not exist yet` }
  const began = performance.now()
  const server = await start({
    env: {
      PATHLIGHT_TRACK_KEY_LIMIT: '100000000',
      // The load names each logged visitor in X-Forwarded-For, as a reverse proxy on loopback would.
      TRUST_PROXY: '127.0.0.1',
      LOG_LEVEL: 'info',
      // Passed through to compare flush delays; unset, the server's default.
      ...(process.env.INGEST_FLUSH_MS ? { INGEST_FLUSH_MS: process.env.INGEST_FLUSH_MS } : {}),
    },
    entry: 'build',
    ...(process.env.BENCH_DATA_TEMPLATE ? { dataDir: copyOf(process.env.BENCH_DATA_TEMPLATE) } : {}),
  })
  return { server, readyMs: Math.round(performance.now() - began) }
}

/** A fresh temporary copy of the directory `template`. */
function copyOf(template: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-bench-data-'))
  fs.cpSync(template, dir, { recursive: true })
  return dir
}
