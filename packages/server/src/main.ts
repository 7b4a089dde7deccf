/**
 * `pathlight serve`: the only reader of process.env. Config -> services -> buildApp(deps).listen().
 * The port answers 503 from the first moment (see http/starting-server.ts) until the stores are ready.
 * SIGTERM/SIGINT: health turns 503, the server stops accepting and finishes in-flight requests,
 * the write buffer is flushed and the stores are closed; then the process exits with 0, or with
 * `EXIT_EVENTS_JOURNALED` (75) when the events store refused the final flush: those events stay in the
 * ingest journal and the next start stores them. A failure while closing is logged, never thrown.
 */
import { buildApp } from './app.js'
import { baseUrlWarning } from './base-url-warning.js'
import { ConfigError, loadConfig } from './config.js'
import { listenWhileStarting } from './http/starting-server.js'
import { openServices } from './services.js'
import { SERVED_URL_SETTING, setSetting } from './storage/metadata/instance-settings.js'

/**
 * The exit code of a shutdown whose final flush failed (the events store refused writes): nothing is
 * lost, the accepted events wait in the ingest journal for the next start. 75 is sysexits' EX_TEMPFAIL.
 */
export const EXIT_EVENTS_JOURNALED = 75

/** Sites the start banner lists with their dashboard address (the first ones by id). */
const SITES_IN_BANNER = 5

export async function serve(env: Record<string, string | undefined> = process.env): Promise<void> {
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
  const starting = await listenWhileStarting(config.port, config.host)
  console.log(`Starting Pathlight on port ${starting.port} (health answers 503 until the stores are ready)`)
  let services: Awaited<ReturnType<typeof openServices>>
  try {
    services = await openServices(config)
  } catch (error) {
    await starting.stop()
    console.error(
      `Pathlight could not open its stores: ${error instanceof Error ? error.message : String(error)}`,
    )
    process.exit(1)
  }
  if (services.recovery && services.recovery.segments > 0) {
    const r = services.recovery
    console.log(
      `Recovered the ingest journal: ${r.segments} segment(s), ${r.inserted} event(s) inserted, ` +
        `${r.alreadyStored} already stored, ${r.tornLines} torn line(s) skipped.`,
    )
  }
  let shuttingDown = false
  const app = await buildApp({
    ...services,
    baseUrl: config.baseUrl,
    trackKeyLimit: config.trackKeyLimit,
    v1Limit: config.v1Limit,
    readLimits: config.readLimits,
    trustProxy: config.trustProxy,
    hstsMaxAge: config.hstsMaxAge,
    metricsToken: config.metricsToken,
    logLevel: config.logLevel,
    logFormat: config.logFormat ?? (process.stdout.isTTY ? 'pretty' : 'json'),
    accessLog: config.accessLog,
    mcpEnabled: config.mcpEnabled,
    ssoAllowPrivateIssuers: config.ssoAllowPrivateIssuers,
    isShuttingDown: () => shuttingDown,
    healthMaxPendingAgeMs: config.healthMaxPendingAgeMs,
  })
  await app.ready()
  await starting.stop()
  const address = await app.listen({ port: starting.port, host: config.host })
  const publicUrl = config.port === 0 ? address : config.baseUrl
  await setSetting(services.metadata.db, SERVED_URL_SETTING, publicUrl)
  const hasOwner = (await services.metadata.db.selectFrom('user').select('id').limit(1).execute()).length > 0
  const sites = await services.metadata.db
    .selectFrom('site')
    .select(['site_id', 'name', 'domain'])
    .orderBy('site_id')
    .limit(SITES_IN_BANNER + 1)
    .execute()
  console.log(
    [
      '',
      `Pathlight is running at ${publicUrl}`,
      `  metadata: ${services.metadata.dialect}   events: ${services.events.kind}   sessions: ${services.redis ? 'redis' : 'in process'}`,
      hasOwner
        ? `  Open ${publicUrl} to sign in (API: Authorization: Bearer <key>; reference at ${publicUrl}/api/docs).`
        : `  First step: open ${publicUrl} and create the owner account, or:\n    curl -X POST ${publicUrl}/api/auth/sign-up/email -H 'content-type: application/json' \\\n      -d '{"name":"You","email":"you@example.com","password":"a long password"}'`,
      ...(sites.length > 0
        ? [
            '  Sites:',
            ...sites
              .slice(0, SITES_IN_BANNER)
              .map((site) => `    ${site.name} (${site.domain}): ${publicUrl}/sites/${site.site_id}`),
            ...(sites.length > SITES_IN_BANNER ? ['    ...'] : []),
          ]
        : [
            '  Then create an organization and a site, and paste the tracking snippet it shows into your pages.',
          ]),
      '',
    ].join('\n'),
  )
  const warning = baseUrlWarning(config)
  if (warning) console.warn(warning)

  const shutdown = async (signal: string) => {
    if (shuttingDown) return
    shuttingDown = true
    app.log.info(`${signal} received: finishing in-flight requests`)
    const force = setTimeout(() => process.exit(1), 15_000)
    force.unref()
    // Keep-alive connections that were busy when closing began become idle later; close them as they do.
    const sweepIdle = setInterval(() => app.server.closeIdleConnections(), 50)
    let code = 0
    try {
      await app.close()
      clearInterval(sweepIdle)
      const closed = await services.close()
      if (closed.journaledEvents > 0) code = EXIT_EVENTS_JOURNALED
    } catch (error) {
      console.error('shutdown failed:', error)
      code = 1
    }
    process.exit(code)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}
