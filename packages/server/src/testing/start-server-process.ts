/**
 * Test and benchmark support: the real `pathlight serve` in a child process on a temporary data
 * directory (or a given one, to restart on the same data), listening on a free loopback port.
 * `startServerProcess` also creates an owner, an organization, a site (domain example.com) and an
 * API key through the public HTTP routes.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { seedInstance } from '../demo/seed-instance.js'
import { copyEventsTemplate } from './events-template.js'
import { createTempClickHouseDatabase, testEventsOnServer } from './test-events-store.js'
import { SERVER_BUNDLE_ENV } from './test-run-env.js'

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

export interface SpawnedServer {
  baseUrl: string
  pid: number
  dataDir: string
  /** Everything the process printed (stdout and stderr). */
  output(): string
  /** The exit code once the process has exited (null while it runs, or when a signal ended it). */
  exitCode(): number | null
  /** SIGTERM, then wait for exit (graceful shutdown flushes in-flight events). */
  stop(options?: { keepData?: boolean }): Promise<void>
  /** SIGKILL, then wait for exit: nothing gets a chance to flush. */
  kill(): Promise<void>
}

/** Spawn the server and resolve once it prints its URL. @throws with its output if it exits first */
export interface SpawnOptions {
  env?: Record<string, string>
  /** Reuse a data directory (restart on the same data); default a new temporary one. */
  dataDir?: string
  /** Extra arguments for node itself, e.g. ['--cpu-prof']. */
  nodeArgs?: string[]
  /**
   * What runs: `sources` (default), the code as it is now: under vitest the bundle its run's setup made
   * from the current sources (`test-run-setup.ts`) with plain node, elsewhere `src/cli.ts` through tsx's
   * loader; `build`, `bin/pathlight.js` on the compiled `dist/` with plain node, as `npm start`
   * runs it (benchmarks measure this; it must have been built).
   */
  entry?: 'sources' | 'build'
}

export async function spawnServer(options: SpawnOptions = {}) {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-proc-'))
  // A new data directory starts from the run's migrated events template (when there is one).
  if (options.dataDir === undefined) copyEventsTemplate(path.join(dataDir, 'events'))
  // The server pass: events on the run's ClickHouse server, in a database named after the data
  // directory, so a restart on the same directory finds them.
  const clickhouse =
    testEventsOnServer() && !options.env?.CLICKHOUSE_URL ? createTempClickHouseDatabase(dataDir) : undefined
  const bundle = process.env[SERVER_BUNDLE_ENV]
  const entry =
    options.entry === 'build' ? ['bin/pathlight.js'] : bundle ? [bundle] : ['--import', 'tsx', 'src/cli.ts']
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), ...entry, 'serve'], {
    cwd: serverRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...clickhouse?.env,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  let exitCode: number | null = null
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code
      resolve()
    }),
  )
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 60 s:\n${output}`)), 60_000)
    const check = () => {
      const match = /running at (http:\/\/[^\s]+)/.exec(output)
      if (match?.[1]) {
        clearTimeout(timer)
        resolve(match[1])
      }
    }
    child.stdout?.on('data', check)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code}:\n${output}`))
    })
  })
  const server: SpawnedServer = {
    baseUrl,
    pid: child.pid ?? 0,
    dataDir,
    output: () => output,
    exitCode: () => exitCode,
    async stop({ keepData = false } = {}) {
      child.kill('SIGTERM')
      await exited
      if (!keepData) {
        fs.rmSync(dataDir, { recursive: true, force: true })
        await clickhouse?.drop()
      }
    },
    async kill() {
      child.kill('SIGKILL')
      await exited
    },
  }
  return server
}

export interface ServerProcess extends SpawnedServer {
  apiKey: string
  siteId: number
  domain: string
  /** Rows the events store holds for the site, read back through the server. */
  countEvents(): Promise<number>
}

/** Spawn a server and seed it through HTTP. */
export async function startServerProcess(options: SpawnOptions = {}): Promise<ServerProcess> {
  const server = await spawnServer(options)
  try {
    const seeded = await seedInstance(server.baseUrl)
    return {
      ...server,
      apiKey: seeded.apiKey,
      siteId: seeded.siteId,
      domain: seeded.domain,
      async countEvents() {
        const response = await fetch(`${server.baseUrl}/api/admin/events-count?site_id=${seeded.siteId}`, {
          headers: { authorization: `Bearer ${seeded.apiKey}` },
        })
        if (!response.ok) throw new Error(`events-count: ${response.status} ${await response.text()}`)
        return Number(((await response.json()) as { count: number }).count)
      },
    }
  } catch (error) {
    await server.stop()
    throw error
  }
}
