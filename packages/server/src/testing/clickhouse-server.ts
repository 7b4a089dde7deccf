/**
 * Test and development support: real ClickHouse servers started from the `libchdb` shared library
 * that `npm ci` installs with chDB. It is the real ClickHouse engine and its real HTTP and native
 * handlers, run as clickhouse-local through the library's command-line entry point by a small C
 * launcher (`clickhouse-launcher.c`, built here with the machine's `cc`); it is not the
 * `clickhouse-server` binary, and it is a test fixture only: production runs an official ClickHouse
 * server (docs/scaling.md).
 *
 * Each server gets free ports (the kernel picks them: `--http_port=0`), a temporary data directory,
 * and its own process group; `stop()` kills the group. On Linux a server also dies with the process
 * that started it (the launcher asks for SIGKILL on its parent's death), so a crashed test runner
 * leaves none behind; a normal exit of this process kills those still running.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

/** A running ClickHouse server. */
export interface ClickHouseServer {
  /** Its HTTP interface, e.g. `http://127.0.0.1:41234` (no path: add `/<database>` for `CLICKHOUSE_URL`). */
  url: string
  httpPort: number
  /** Its native protocol port (clickhouse-client, `remote()` between servers). */
  tcpPort: number
  /** Where its data lives. */
  dataDir: string
  pid: number
  /** Its log file (information level): where to look when it misbehaves. */
  logFile: string
  /** Kill its process group and wait for the exit; removes the data unless `keepData`. */
  stop(options?: { keepData?: boolean }): Promise<void>
}

export interface ClickHouseServerOptions {
  /**
   * A ClickHouse configuration file (`--config-file`), e.g. one holding `remote_servers` for a cluster
   * of several such servers. Ports and the listen host given here on the command line win over it.
   */
  configFile?: string
  /** Reuse a data directory (restart on the same data); default a new temporary one. */
  dataDir?: string
  /**
   * The ports to listen on; default free ones the kernel picks. A cluster's configuration names its
   * shards' ports before they start, so it chooses them ({@link startClickHouseCluster}).
   */
  ports?: { http: number; tcp: number }
  /** How long to wait for `/ping` to answer, ms (default 60,000: several start at once on few cores). */
  startTimeoutMs?: number
}

/** Raised when the launcher cannot be built because no C compiler is installed. */
export class NoCCompilerError extends Error {
  constructor(detail: string) {
    super(
      'A ClickHouse server for tests needs a C compiler to build its launcher (cc), and none was found ' +
        `(${detail}). Install one, e.g. \`apt-get install gcc\` on Debian or Ubuntu, ` +
        '`xcode-select --install` on macOS.',
    )
    this.name = 'NoCCompilerError'
  }
}

const require = createRequire(import.meta.url)

/** chDB's per-platform package (the same choice as chdb's own loader), which holds `libchdb`. */
const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': '@chdb/lib-linux-x64-gnu',
  'linux-arm64': '@chdb/lib-linux-arm64-gnu',
  'darwin-x64': '@chdb/lib-darwin-x64',
  'darwin-arm64': '@chdb/lib-darwin-arm64',
}

/**
 * The installed `libchdb` shared library.
 * @throws when chDB has no library for this platform or it is not installed
 */
export function chdbLibraryPath(): string {
  const name = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`]
  if (!name) throw new Error(`chDB has no library for ${process.platform}-${process.arch}`)
  const dir = path.dirname(require.resolve(`${name}/package.json`, { paths: [require.resolve('chdb')] }))
  for (const file of ['libchdb.so', 'libchdb.dylib']) {
    if (fs.existsSync(path.join(dir, file))) return path.join(dir, file)
  }
  throw new Error(`No libchdb in ${dir}: reinstall chdb (npm ci)`)
}

const LAUNCHER_SOURCE = path.join(import.meta.dirname, 'clickhouse-launcher.c')

/**
 * Build the launcher with a C compiler unless this source was built already, into
 * `node_modules/.cache/pathlight-clickhouse/` (named by the source's hash, so an edit rebuilds).
 * Safe to call from several processes at once (each builds to a file of its own, then renames).
 * @param options.compiler default `$CC`, else `cc`
 * @param options.cacheDir where the launcher goes (default the one above)
 * @returns the launcher's path
 * @throws {@link NoCCompilerError} without the compiler; the compiler's output when it fails
 */
export function buildClickHouseLauncher(options: { compiler?: string; cacheDir?: string } = {}): string {
  const source = fs.readFileSync(LAUNCHER_SOURCE)
  const hash = crypto.createHash('sha256').update(source).digest('hex').slice(0, 12)
  const nodeModules = path.resolve(path.dirname(require.resolve('chdb/package.json')), '..')
  const dir = options.cacheDir ?? path.join(nodeModules, '.cache', 'pathlight-clickhouse')
  const launcher = path.join(dir, `clickhouse-launcher-${hash}`)
  if (fs.existsSync(launcher)) return launcher
  fs.mkdirSync(dir, { recursive: true })
  const building = `${launcher}.${process.pid}.tmp`
  const compiler = options.compiler ?? (process.env.CC || 'cc')
  const libraries = process.platform === 'linux' ? ['-ldl'] : []
  try {
    execFileSync(compiler, ['-O2', '-o', building, LAUNCHER_SOURCE, ...libraries], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: Buffer }
    if (failure.code === 'ENOENT') throw new NoCCompilerError(`\`${compiler}\` is not on PATH`)
    const output = failure.stderr?.toString() || failure.message
    throw new Error(`Building the ClickHouse launcher with ${compiler} failed:\n${output}`)
  }
  fs.renameSync(building, launcher)
  return launcher
}

/** The queries a server runs: open both interfaces, then one that never ends and keeps it alive. */
const SERVE_QUERIES = [
  'SYSTEM START LISTEN HTTP',
  'SYSTEM START LISTEN TCP',
  'SELECT sleepEachRow(1) FROM numbers(1000000000) SETTINGS max_block_size = 1 FORMAT Null',
].join('; ')

const running = new Set<ChildProcess>()
let exitHookInstalled = false

/** Kill every server still running when this process exits (a test file that forgot `stop()`). */
function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.once('exit', () => {
    for (const child of running) killGroup(child, 'SIGKILL')
  })
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    // Gone already.
  }
}

/**
 * Start one server and resolve once `/ping` answers.
 * @throws {@link NoCCompilerError} without a C compiler; with the server's output when it exits or
 *   does not answer within `startTimeoutMs` (it is killed then)
 */
export async function startClickHouseServer(
  options: ClickHouseServerOptions = {},
): Promise<ClickHouseServer> {
  const launcher = buildClickHouseLauncher()
  const library = chdbLibraryPath()
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-clickhouse-'))
  const dataDir = options.dataDir ?? path.join(root, 'data')
  fs.mkdirSync(dataDir, { recursive: true })
  const logFile = path.join(root, 'server.log')
  const args = [
    library,
    '--multiquery',
    `--path=${dataDir}`,
    `--http_port=${options.ports?.http ?? 0}`,
    `--tcp_port=${options.ports?.tcp ?? 0}`,
    '--listen_host=127.0.0.1',
    '--log-level=information',
    `--logger.log=${logFile}`,
    ...(options.configFile ? [`--config-file=${options.configFile}`] : []),
    `--query=${SERVE_QUERIES}`,
  ]
  const child = spawn(launcher, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] })
  running.add(child)
  installExitHook()
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  void exited.then(() => running.delete(child))
  const removeRoot = () => fs.rmSync(root, { recursive: true, force: true })

  const describeFailure = (why: string) => {
    const log = fs.existsSync(logFile)
      ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n')
      : ''
    return new Error(`ClickHouse server (pid ${child.pid}) ${why}.\nstderr: ${stderr.trim()}\nlog:\n${log}`)
  }
  const timeout = options.startTimeoutMs ?? 60_000
  const started = Date.now()
  let ports: { http: number; tcp: number } | undefined
  try {
    while (true) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw describeFailure(`exited (${child.exitCode ?? child.signalCode}) before answering`)
      if (Date.now() - started > timeout) throw describeFailure(`did not answer /ping within ${timeout} ms`)
      ports ??= listeningPorts(logFile)
      if (ports && (await pings(ports.http))) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  } catch (error) {
    killGroup(child, 'SIGKILL')
    await exited
    removeRoot()
    throw error
  }
  const { http, tcp } = ports
  return {
    url: `http://127.0.0.1:${http}`,
    httpPort: http,
    tcpPort: tcp,
    dataDir,
    pid: child.pid ?? 0,
    logFile,
    async stop(stopOptions = {}) {
      killGroup(child, 'SIGKILL')
      await exited
      if (stopOptions.keepData) {
        if (options.dataDir === undefined) fs.rmSync(logFile, { force: true })
      } else {
        removeRoot()
        if (options.dataDir !== undefined) fs.rmSync(options.dataDir, { recursive: true, force: true })
      }
    },
  }
}

/**
 * Start `count` servers side by side (e.g. the shards of a cluster, each with the same `configFile`).
 * @throws what {@link startClickHouseServer} throws, after stopping those that started
 */
export async function startClickHouseServers(
  count: number,
  options: Omit<ClickHouseServerOptions, 'dataDir'> = {},
): Promise<ClickHouseServer[]> {
  const results = await Promise.allSettled(
    Array.from({ length: count }, () => startClickHouseServer(options)),
  )
  const servers = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
  const failed = results.find((result) => result.status === 'rejected')
  if (failed) {
    await Promise.all(servers.map((server) => server.stop()))
    throw failed.reason
  }
  return servers
}

/** The ports the server's log says it listens on, once it has said so for both interfaces. */
function listeningPorts(logFile: string): { http: number; tcp: number } | undefined {
  if (!fs.existsSync(logFile)) return undefined
  const log = fs.readFileSync(logFile, 'utf8')
  const http = /Listening for http:\/\/127\.0\.0\.1:(\d+)/.exec(log)?.[1]
  const tcp = /Listening for native protocol \(tcp\): 127\.0\.0\.1:(\d+)/.exec(log)?.[1]
  return http && tcp ? { http: Number(http), tcp: Number(tcp) } : undefined
}

async function pings(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/ping`, { signal: AbortSignal.timeout(2000) })
    return response.ok && (await response.text()).trim() === 'Ok.'
  } catch {
    return false
  }
}

/** A cluster of servers, one shard each, that every one of them knows by `name` (`remote_servers`). */
export interface ClickHouseCluster {
  /** The cluster's name in each server's `remote_servers` (for `Distributed(name, ...)`). */
  name: string
  /** The shards, in `shard_num` order (the first is shard 1). */
  servers: ClickHouseServer[]
  /** The configuration file every server was started with. */
  configFile: string
  /** Stop every server and remove their data and the configuration. */
  stop(): Promise<void>
}

/**
 * Start `shards` servers that form a cluster: each is started with one configuration file whose
 * `remote_servers` lists them all (one replica per shard, on 127.0.0.1), so `Distributed` tables and
 * `cluster()` work across them. Their ports are chosen here, before they start, since the file names
 * them (clickhouse-local cannot reload its configuration). No Keeper: no replication, no `ON CLUSTER`.
 * @param options.name the cluster's name (default `pathlight`; letters, digits and `_`)
 * @throws what {@link startClickHouseServer} throws, after stopping those that started
 */
export async function startClickHouseCluster(
  shards: number,
  options: { name?: string; startTimeoutMs?: number } = {},
): Promise<ClickHouseCluster> {
  const name = options.name ?? 'pathlight'
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`Invalid cluster name "${name}"`)
  const ports = await Promise.all(
    Array.from({ length: shards }, async () => ({ http: await freePort(), tcp: await freePort() })),
  )
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-cluster-'))
  const configFile = path.join(dir, 'cluster.xml')
  const replicas = ports
    .map((port) => `<shard><replica><host>127.0.0.1</host><port>${port.tcp}</port></replica></shard>`)
    .join('')
  fs.writeFileSync(
    configFile,
    `<clickhouse><remote_servers><${name}>${replicas}</${name}></remote_servers></clickhouse>\n`,
  )
  const results = await Promise.allSettled(
    ports.map((port) =>
      startClickHouseServer({ configFile, ports: port, startTimeoutMs: options.startTimeoutMs }),
    ),
  )
  const servers = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
  const stop = async () => {
    await Promise.all(servers.map((server) => server.stop()))
    fs.rmSync(dir, { recursive: true, force: true })
  }
  const failed = results.find((result) => result.status === 'rejected')
  if (failed) {
    await stop()
    throw failed.reason
  }
  return { name, servers, configFile, stop }
}

/** A loopback port free now (the kernel's pick, released at once). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}
