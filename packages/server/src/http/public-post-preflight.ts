/**
 * The CORS preflight of a public endpoint that browsers POST to from any site (`/api/track`,
 * `/api/replay`): `OPTIONS <url>` answers 204 allowing POST with `Content-Type` from any origin, cached
 * a day. `Authorization` is not offered: API keys must never be used in client-side code.
 */
import type { replayPreflightEndpoint, trackPreflightEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { route } from './route.js'
import { setTrackingCors } from './tracking-cors.js'

/**
 * Register the preflight `contract` declares (`trackPreflightEndpoint`, `replayPreflightEndpoint`).
 * With `credentialed`, an Origin it accepts (a site's domain) is echoed with credentials allowed, for
 * clients that send credentials (`navigator.sendBeacon`); other origins get `*`.
 */
export function publicPostPreflight(
  app: FastifyInstance,
  contract: typeof trackPreflightEndpoint | typeof replayPreflightEndpoint,
  credentialed?: (origin: string | undefined) => Promise<boolean>,
): void {
  route(app, contract, async ({ request, reply }) => {
    const origin = request.headers.origin
    setTrackingCors(reply, origin, credentialed ? await credentialed(origin) : false)
    return reply
      .code(204)
      .header('access-control-allow-methods', 'POST')
      .header('access-control-allow-headers', 'content-type')
      .header('access-control-max-age', '86400')
      .send()
  })
}
