/**
 * Baseline for the ingest benchmark: a bare Fastify server whose `POST /api/track` parses the JSON body
 * and answers `200 {success:true}`, with no validation, storage or logging. It measures what
 * Fastify + Node can do on this machine, so the Pathlight figure can be read as a ratio.
 *
 * Run as a child process by `run.ts` (`node --import tsx bench/ingest/baseline-server.ts`): it listens
 * on 127.0.0.1 and an ephemeral port, prints `PORT=<n>` on stdout once ready, and exits on SIGTERM or
 * SIGINT. Environment: `BASELINE_PORT` (default 0 = ephemeral).
 */
import Fastify from 'fastify'

const app = Fastify({ logger: false })

app.post('/api/track', async (request) => {
  if (typeof request.body !== 'object' || request.body === null) return { success: false }
  return { success: true }
})

const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.BASELINE_PORT ?? 0) })
process.stdout.write(`PORT=${new URL(address).port}\n`)

const shutdown = (): void => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  )
}
process.once('SIGTERM', shutdown)
process.once('SIGINT', shutdown)
