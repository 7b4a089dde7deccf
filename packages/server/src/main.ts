/**
 * `pathlight serve`: the only reader of process.env. Config -> services -> buildApp(deps).listen().
 * SIGTERM/SIGINT: health turns 503, the server stops accepting and finishes in-flight requests,
 * the write buffer is flushed and the stores are closed; then the process exits.
 */
import { buildApp } from './app.js'
import { ConfigError, loadConfig } from './config.js'
import { openServices } from './services.js'

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
  const services = await openServices(config)
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
    trustProxy: config.trustProxy,
    logLevel: config.logLevel,
    isShuttingDown: () => shuttingDown,
  })
  const address = await app.listen({ port: config.port, host: config.host })
  const publicUrl = config.port === 0 ? address : config.baseUrl
  const hasOwner = (await services.metadata.db.selectFrom('user').select('id').limit(1).execute()).length > 0
  console.log(
    [
      '',
      `Pathlight is running at ${publicUrl}`,
      `  metadata: ${services.metadata.dialect}   events: ${services.events.kind}   sessions: ${services.redis ? 'redis' : 'in process'}`,
      hasOwner
        ? '  Sign in with your account, or use an API key: Authorization: Bearer <key>.'
        : `  First step: create the owner account:\n    curl -X POST ${publicUrl}/api/auth/sign-up/email -H 'content-type: application/json' \\\n      -d '{"name":"You","email":"you@example.com","password":"a long password"}'`,
      '  Then see README.md ("First steps") to create an organization, a site and an API key.',
      '',
    ].join('\n'),
  )

  const shutdown = async (signal: string) => {
    if (shuttingDown) return
    shuttingDown = true
    app.log.info(`${signal} received: finishing in-flight requests`)
    const force = setTimeout(() => process.exit(1), 15_000)
    force.unref()
    // Keep-alive connections that were busy when closing began become idle later; close them as they do.
    const sweepIdle = setInterval(() => app.server.closeIdleConnections(), 50)
    await app.close()
    clearInterval(sweepIdle)
    await services.close()
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}
