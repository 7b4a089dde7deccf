/**
 * The CORS preflight of a public endpoint that browsers POST to from any site (`/api/track`,
 * `/api/replay`): `OPTIONS <url>` answers 204 allowing POST with `Content-Type` from any origin, cached
 * a day. `Authorization` is not offered: API keys must never be used in client-side code.
 */
import type { FastifyInstance } from 'fastify'
import { empty } from './openapi/route-doc.js'

/** Register `OPTIONS url`; `what` names the endpoint in the API document ("the tracking endpoint"). */
export function publicPostPreflight(app: FastifyInstance, url: string, what: string): void {
  app.options(
    url,
    {
      config: {
        doc: {
          summary: `CORS preflight of ${what}`,
          tag: 'Tracking',
          access: 'public',
          responses: { 204: empty('Allowed: POST with Content-Type from any origin (no Authorization)') },
        },
      },
    },
    async (_request, reply) =>
      reply
        .code(204)
        .header('access-control-allow-origin', '*')
        .header('access-control-allow-methods', 'POST')
        .header('access-control-allow-headers', 'content-type')
        .header('access-control-max-age', '86400')
        .send(),
  )
}
