/**
 * Route: `GET /metrics`, the instance's Prometheus series in the text exposition format (0.0.4).
 * Registered only when METRICS_TOKEN is set (otherwise the path is an unknown route: 404), and then
 * only for `Authorization: Bearer <METRICS_TOKEN>`: no or another token gets 401 with the usual error
 * body. The series are documented in the README ("Metrics").
 */
import crypto from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { Registry } from 'prom-client'
import { bearerToken } from '../auth/bearer-token.js'
import { AppError } from '../shared/errors.js'
import { media } from './openapi/route-doc.js'

export interface MetricsOptions {
  registry: Registry
  /** METRICS_TOKEN: the bearer token a scraper must send. */
  token: string
}

const digest = (value: string) => crypto.createHash('sha256').update(value).digest()

/** Whether `given` is `token`, in time independent of where they differ. */
const tokenMatches = (given: string | undefined, token: string) =>
  given !== undefined && crypto.timingSafeEqual(digest(given), digest(token))

export async function metricsRoutes(app: FastifyInstance, { registry, token }: MetricsOptions) {
  app.get(
    '/metrics',
    {
      config: {
        doc: {
          summary: 'Prometheus metrics of this instance',
          description:
            'The text exposition format 0.0.4. Exists only when METRICS_TOKEN is set; every series is ' +
            'described in the README ("Metrics").',
          tag: 'Health',
          access: 'metricsToken',
          responses: { 200: media('The series', 'text/plain') },
        },
      },
    },
    async (request, reply) => {
      if (!tokenMatches(bearerToken(request.headers.authorization), token)) {
        throw new AppError(401, 'A valid metrics token is required', undefined, {
          'www-authenticate': 'Bearer realm="metrics"',
        })
      }
      const body = await registry.metrics()
      return reply.type(registry.contentType).send(body)
    },
  )
}
