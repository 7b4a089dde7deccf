/**
 * `pathlight demo [--log FILE] [--data-dir DIR] [--fresh]`: start the service on a new data directory
 * (embedded stores, real geolocation), create an owner, an organization and a site, import the page
 * requests of a real access log at their logged times, shifted so that the log ends now (the spacing
 * between requests kept), through `POST /api/sites/{siteId}/import` over HTTP (each line's address,
 * user agent, path and referrer; enriched and sessionized as live tracking would, bots dropped), print a
 * summary read back from the events store, and keep the data: the last lines say how to open it with
 * `npm start` (on the port that command will use) and where its site is.
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
import { importAccessLog } from '../demo/import-access-log.js'
import { createProgressBar } from '../demo/progress-bar.js'
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
  // Relative paths name files where npm was started, as the data directory does.
  const logPath = values.log
    ? path.resolve(startedIn, values.log)
    : path.join(SERVER_ROOT, 'demo-data/elastic-examples-apache_logs.txt')
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
  // Where `npm start` will answer with this environment (PORT, HOST, BASE_URL), not this run's port.
  const openUrl = loadConfig({ ...env, DATA_DIR: dataDir }).baseUrl
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
    trustProxy: config.trustProxy,
  })
  try {
    const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' })
    const seeded = await seedInstance(baseUrl, { ...DEMO_ACCOUNT, siteName: DEMO_SITE_NAME })
    const lines = [...readAccessLog(fs.readFileSync(logPath, 'utf8'))]
    const bar = createProgressBar('importing', process.stderr)
    const started = performance.now()
    const imported = await importAccessLog({
      baseUrl,
      siteId: seeded.siteId,
      domain: seeded.domain,
      cookie: seeded.cookie,
      lines,
      onProgress: (done, total) => bar.update(done, total),
    })
    bar.finish()
    const seconds = (performance.now() - started) / 1000
    console.log(
      `\nImported ${imported.pages} page requests (of ${lines.length} log lines) in ${seconds.toFixed(1)} s: ` +
        `${imported.imported} pageviews recorded.`,
    )
    if (imported.from && imported.to) {
      console.log(
        `Their times are the log's own, moved ${describeShift(imported.offsetMs)} later so that the log ends now: ` +
          `${imported.from.toISOString()} to ${imported.to.toISOString()}.`,
      )
    }
    await services.buffer.flush()
    const summary = await readDemoSummary(services.events, seeded.siteId)
    console.log(summary.text)
    console.log('Page requests not recorded, by reason:')
    const reasons = Object.entries(imported.dropped).sort((a, b) => b[1] - a[1])
    if (imported.rejected > 0) reasons.push(['invalid line', imported.rejected])
    if (reasons.length === 0) console.log('  none')
    for (const [reason, count] of reasons) console.log(`  ${reason.padEnd(24)} ${count}`)
    console.log('\nIP Geolocation by DB-IP (https://db-ip.com), CC BY 4.0.')
    console.log(
      [
        '',
        'The demo is kept. Open it in the dashboard:',
        `  DATA_DIR=${dataDirArgument} npm start`,
        `  then ${openUrl} and sign in as ${DEMO_ACCOUNT.email}, password "${DEMO_ACCOUNT.password}"`,
        `  the site "${DEMO_SITE_NAME}" (${seeded.domain}): ${openUrl}/sites/${seeded.siteId}`,
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

/** The demo site's name, as the dashboard lists it. */
export const DEMO_SITE_NAME = 'Demo site'

/** `90061000` → `1 day, 1 hour, 1 minute` (whole minutes; `less than a minute` below one). */
export function describeShift(ms: number): string {
  const minutes = Math.floor(Math.abs(ms) / 60_000)
  const parts: [number, string][] = [
    [Math.floor(minutes / 1440), 'day'],
    [Math.floor((minutes % 1440) / 60), 'hour'],
    [minutes % 60, 'minute'],
  ]
  const named = parts
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n.toLocaleString('en-US')} ${unit}${n === 1 ? '' : 's'}`)
  return named.length > 0 ? named.join(', ') : 'less than a minute'
}
