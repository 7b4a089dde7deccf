/**
 * `pathlight demo [--log FILE] [--data-dir DIR]`: start the service on a fresh data directory (embedded
 * stores, real geolocation), create an owner, an organization and a site, replay a real access log
 * through `POST /api/track` over HTTP (each line's IP, user agent, path and referrer, keyless like a
 * browser, so bot filtering applies), then print a summary read back from the events store.
 * Default log: demo-data/elastic-examples-apache_logs.txt (Apache-2.0, see demo-data/README.md).
 */
import fs from 'node:fs'
import os from 'node:os'
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

export async function runDemo(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { log: { type: 'string' }, 'data-dir': { type: 'string' }, keep: { type: 'boolean' } },
  })
  const logPath = path.resolve(
    values.log ?? path.join(SERVER_ROOT, 'demo-data/elastic-examples-apache_logs.txt'),
  )
  const dataDir = values['data-dir'] ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-demo-'))
  console.log(`Pathlight demo\n  log:  ${logPath}\n  data: ${dataDir}`)

  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' })
  const services = await openServices(config)
  const app = await buildApp({
    ...services,
    baseUrl: config.baseUrl,
    trackKeyLimit: config.trackKeyLimit,
    v1Limit: config.v1Limit,
    trustProxy: false,
  })
  try {
    const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' })
    const seeded = await seedInstance(baseUrl)
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
  } finally {
    await app.close()
    await services.close()
    if (!values.keep && !values['data-dir']) fs.rmSync(dataDir, { recursive: true, force: true })
  }
}
