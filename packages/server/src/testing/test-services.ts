/**
 * The services the test suite talks to besides the embedded stores: PostgreSQL, Redis, Chromium, and
 * the C compiler that builds the launcher of the ClickHouse servers it starts (`clickhouse-server.ts`).
 * Read by `vitest.config.ts` before any test runs:
 *
 * - A service that is installed here but down is started, with the commands `.ci/run` uses
 *   (`pg_ctlcluster ... start`, `redis-server --daemonize yes ...`).
 * - A test file that needs a service still missing is left out of the run, with one line per service
 *   naming it, how many files wait for it, and the command that provides it. What a file needs is read
 *   from its source ({@link NEEDS}): the test support it uses to reach the service.
 * - With `PATHLIGHT_TEST_SERVICES=required` (as `.ci/run` sets it) a missing service fails the run
 *   instead: CI runs everything.
 *
 * Addresses: TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres) and TEST_REDIS_URL
 * (default redis://127.0.0.1:6379), as the tests use them; Chromium at /usr/bin/chromium.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import pg from 'pg'
import { CHROMIUM } from './browser.js'
import { adminPostgresUrl } from './postgres.js'

/** A service some test files need. */
export type TestService = 'postgres' | 'redis' | 'chromium' | 'cc'

/**
 * What in a test file's source says it needs a service: the test support that reaches it. A file that
 * runs on both metadata stores (`openTestInstance({ postgres })`) needs PostgreSQL for its whole run.
 */
export const NEEDS: Record<TestService, RegExp> = {
  postgres: /testing\/postgres\.js|openTestInstance\(\{[^)]*\bpostgres\b|createTempDatabase/,
  redis: /TEST_REDIS_URL|from 'ioredis'|\bredis: (true|postgres)\b|openTestInstance\(\{[^)]*\bredis\b/,
  chromium: /testing\/browser\.js/,
  cc: /[/.]clickhouse-server\.js'/,
}

const compiler = process.env.CC || 'cc'

const redisUrl = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379')

const HOW: Record<TestService, { name: string; provide: string }> = {
  postgres: {
    name: `PostgreSQL (${new URL(adminPostgresUrl).host})`,
    provide:
      'apt-get install postgresql, then pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start ' +
      '(or set TEST_POSTGRES_URL)',
  },
  redis: {
    name: `Redis (${redisUrl.host})`,
    provide: 'apt-get install redis-server, then redis-server --daemonize yes (or set TEST_REDIS_URL)',
  },
  chromium: { name: `Chromium (${CHROMIUM})`, provide: 'apt-get install chromium' },
  cc: {
    name: `A C compiler (${compiler}, for the ClickHouse server fixture)`,
    provide: 'apt-get install gcc (or set CC)',
  },
}

/** Whether PostgreSQL answers a query at the tests' admin URL within 3 s. */
async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminPostgresUrl, connectionTimeoutMillis: 3000 })
  client.on('error', () => {})
  try {
    await client.connect()
    await client.query('SELECT 1')
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

/** Whether Redis answers PING at TEST_REDIS_URL within 3 s. */
function redisAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) })
    const done = (answer: boolean) => {
      socket.destroy()
      resolve(answer)
    }
    socket.setTimeout(3000, () => done(false))
    socket.once('error', () => done(false))
    socket.once('connect', () => socket.write('PING\r\n'))
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')))
  })
}

const installed = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0

/** Poll `check` every 500 ms for up to 30 s. */
async function waitFor(check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 60; i++) {
    if (await check()) return true
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  return false
}

/** Start the local PostgreSQL cluster when it is installed the Debian way and down; whether it answers. */
async function startPostgres(): Promise<boolean> {
  if (!installed('pg_ctlcluster') || !fs.existsSync('/etc/postgresql')) return false
  const version = fs.readdirSync('/etc/postgresql').sort()[0]
  if (!version) return false
  spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'ignore' })
  return waitFor(postgresAnswers)
}

/** Start a local Redis that keeps nothing on disk, when `redis-server` is installed; whether it answers. */
async function startRedis(): Promise<boolean> {
  if (!installed('redis-server') || !['127.0.0.1', 'localhost'].includes(redisUrl.hostname)) return false
  fs.mkdirSync('/var/lib/redis', { recursive: true })
  fs.mkdirSync('/var/log/redis', { recursive: true })
  const port = redisUrl.port || '6379'
  spawnSync(
    'redis-server',
    ['--daemonize', 'yes', '--bind', '127.0.0.1', '-::1', '--port', port, '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore', cwd: '/var/lib/redis' },
  )
  return waitFor(redisAnswers)
}

/**
 * Which services answer, starting those installed here and down.
 * @returns one flag per service
 */
export async function prepareTestServices(): Promise<Record<TestService, boolean>> {
  const postgresLocal = ['127.0.0.1', 'localhost'].includes(new URL(adminPostgresUrl).hostname)
  const [postgres, redis] = await Promise.all([
    postgresAnswers().then((up) => up || (postgresLocal && startPostgres())),
    redisAnswers().then((up) => up || startRedis()),
  ])
  const cc = spawnSync(compiler, ['--version'], { stdio: 'ignore' }).status === 0
  return { postgres, redis, chromium: fs.existsSync(CHROMIUM), cc }
}

/**
 * The test files to leave out because a service they need is missing, and one line per missing
 * service for the console.
 * @param files test files (paths) and their sources
 * @param available what `prepareTestServices` found
 * @throws with the lines when `required` and a service that some file needs is missing
 */
export function filesToSkip(
  files: readonly { path: string; source: string }[],
  available: Record<TestService, boolean>,
  required: boolean,
): { skip: string[]; lines: string[] } {
  const skip = new Set<string>()
  const lines: string[] = []
  for (const service of Object.keys(NEEDS) as TestService[]) {
    if (available[service]) continue
    const needing = files.filter((file) => NEEDS[service].test(file.source)).map((file) => file.path)
    if (needing.length === 0) continue
    for (const file of needing) skip.add(file)
    lines.push(
      `${HOW[service].name} is not available: ${needing.length} test file(s) that need it are skipped. ` +
        `To run them: ${HOW[service].provide}`,
    )
  }
  if (required && lines.length > 0) {
    throw new Error(`PATHLIGHT_TEST_SERVICES=required, but:\n${lines.join('\n')}`)
  }
  return { skip: [...skip], lines }
}
