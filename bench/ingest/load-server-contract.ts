import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * A Pathlight server running in a child process on a fresh temporary data directory, with an owner,
 * organization, site and API key already created. Contract of
 * `packages/server/src/testing/start-server-process.ts` (provided by the server's authors).
 */
export interface ServerProcess {
  /** e.g. `http://127.0.0.1:40123`. */
  baseUrl: string
  /** Pid of the server process itself (used to sample its RSS). */
  pid: number
  /** API key of the site, sent as `Authorization: Bearer <key>`. */
  apiKey: string
  siteId: number
  domain: string
  /** Number of event rows committed in the events store, read back from the server. */
  countEvents(): Promise<number>
  /** Stops the server and removes its data directory. */
  stop(): Promise<void>
}

/** `startServerProcess` as exported by the testing module. */
export type StartServerProcess = (opts: {
  env?: Record<string, string>
  /** `build`: the compiled server, as `npm start` runs it (what the benchmark measures). */
  entry?: 'sources' | 'build'
  /** A data directory to start on instead of a new empty one (removed by `stop` all the same). */
  dataDir?: string
}) => Promise<ServerProcess>

const here = path.dirname(fileURLToPath(import.meta.url))

/**
 * Where the testing module lives: `packages/server/src/testing/start-server-process.ts`, or the file
 * named by env `BENCH_SERVER_MODULE` (a stand-in implementing the same contract, e.g. to test the
 * benchmark itself or to bench another build).
 */
export const serverContractPath = process.env.BENCH_SERVER_MODULE
  ? path.resolve(process.env.BENCH_SERVER_MODULE)
  : path.resolve(here, '../../packages/server/src/testing/start-server-process.ts')

/**
 * Imports `startServerProcess` at run time, so that the benchmark's baseline half still runs (and
 * type-checks) before the server exists.
 *
 * @returns the function, or `null` when the module file does not exist yet.
 * @throws if the module exists but fails to load or does not export `startServerProcess`.
 */
export async function loadStartServerProcess(): Promise<StartServerProcess | null> {
  if (!existsSync(serverContractPath)) return null
  const mod: unknown = await import(pathToFileURL(serverContractPath).href)
  const start = (mod as { startServerProcess?: unknown }).startServerProcess
  if (typeof start !== 'function') {
    throw new Error(`${serverContractPath} does not export a startServerProcess function`)
  }
  return start as StartServerProcess
}
