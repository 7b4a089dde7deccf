/**
 * `pathlight demo [--log FILE] [--data-dir DIR] [--fresh]`: start the service on a new data directory
 * (embedded stores, real geolocation), create an owner, an organization and a site, replay a real
 * access log through `POST /api/track` over HTTP (each line's IP, user agent, path and referrer,
 * keyless like a browser, so bot filtering applies), print a summary read back from the events store,
 * and keep the data: the last lines say how to open it with `npm start` and how to sign in.
 * Default log: demo-data/elastic-examples-apache_logs.txt (Apache-2.0, see demo-data/README.md).
 * Default data directory: `data-demo` where npm was started (INIT_CWD) or else the working directory;
 * one that already holds data is refused unless `--fresh`, which empties it first.
 */
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { buildApp } from '../app.js'
import { loadConfig } from '../config.js'
import { readAccessLog } from '../demo/access-log.js'
import { createProgressBar } from '../demo/progress-bar.js'
import { replayAccessLog } from '../demo/replay.js'
import { seedInstance } from '../demo/seed-instance.js'
import { openServices } from '../services.js'
import { SERVER_ROOT } from '../shared/server-root.js'
import { readDemoSummary } from './demo-summary.js'

/** The demo's data directory when `--data-dir` is not given, relative to where npm was started. */
export const DEMO_DATA_DIR = 'data-demo'

/**
 * @param args the command line after `demo`
 * @param env the process environment (INIT_CWD: where npm was started)
 * @throws when the data directory already holds data and `--fresh` is not given, or a step fails
 */
export async function runDemo(
  args: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { log: { type: 'string' }, 'data-dir': { type: 'string' }, fresh: { type: 'boolean' } },
  })
  const startedIn = env.INIT_CWD ?? process.cwd()
  const logPath = path.resolve(
    values.log ?? path.join(SERVER_ROOT, 'demo-data/elastic-examples-apache_logs.txt'),
  )
  const dataDirArgument = values['data-dir'] ?? DEMO_DATA_DIR
  const dataDir = path.resolve(startedIn, dataDirArgument)
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
    if (!values.fresh) {
      throw new Error(
        `${dataDir} already holds data. Open it with: DATA_DIR=${dataDirArgument} npm start\n` +
          'or replace it with a new demo: npm run demo -- --fresh',
      )
    }
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  fs.mkdirSync(dataDir, { recursive: true })
  console.log(`Pathlight demo\n  log:  ${logPath}\n  data: ${dataDir}`)

  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' })
  const services = await openServices(config)
  const app = await buildApp({
    ...services,
    baseUrl: config.baseUrl,
    trackKeyLimit: config.trackKeyLimit,
    v1Limit: config.v1Limit,
    readLimits: config.readLimits,
    // The replay names each logged visitor's address as a proxy on loopback would (X-Forwarded-For).
    trustProxy: '127.0.0.1',
  })
  try {
    const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' })
    const seeded = await seedInstance(baseUrl, DEMO_ACCOUNT)
    const lines = [...readAccessLog(fs.readFileSync(logPath, 'utf8'))]
    const bar = createProgressBar('replaying', process.stderr)
    const started = performance.now()
    const replay = await replayAccessLog({
      baseUrl,
      siteId: seeded.siteId,
      domain: seeded.domain,
      lines,
      onProgress: (done, total) => bar.update(done, total),
    })
    bar.finish()
    const seconds = (performance.now() - started) / 1000
    console.log(
      `\nReplayed ${replay.sent} page requests (of ${lines.length} log lines) in ${seconds.toFixed(1)} s ` +
        `(${Math.round(replay.sent / seconds)} req/s): ${replay.accepted} recorded.`,
    )
    await services.buffer.flush()
    const summary = await readDemoSummary(services.events, seeded.siteId)
    console.log(summary.text)
    const drops = services.ingest.stats.snapshot().dropped
    console.log('Requests not recorded, by reason:')
    const reasons = Object.entries(drops).sort((a, b) => b[1] - a[1])
    if (reasons.length === 0) console.log('  none')
    for (const [reason, count] of reasons) console.log(`  ${reason.padEnd(24)} ${count}`)
    console.log('\nIP Geolocation by DB-IP (https://db-ip.com), CC BY 4.0.')
    console.log(
      [
        '',
        'The demo is kept. Open it in the dashboard:',
        `  DATA_DIR=${dataDirArgument} npm start`,
        `  then http://127.0.0.1:3000 and sign in as ${DEMO_ACCOUNT.email}, password "${DEMO_ACCOUNT.password}"`,
        `A new demo in its place: npm run demo -- --fresh`,
      ].join('\n'),
    )
  } finally {
    await app.close()
    await services.close()
  }
}

/** The demo's owner account, printed at the end so that the dashboard can be opened with it. */
export const DEMO_ACCOUNT = { email: 'owner@example.com', password: 'correct horse battery staple' }
