/**
 * HTTP series of every answer: `pathlight_http_requests_total{method,route,status_code}` and
 * `pathlight_http_request_duration_seconds{method,route}`. `route` is the Fastify route pattern
 * (`/api/sites/:siteId`), never the raw URL, so the label set stays bounded; requests that match no
 * route count as `route="unmatched"`. Duration: from the request's arrival to the answer sent.
 */
import type { FastifyInstance } from 'fastify'
import { Counter, Histogram, type Registry } from 'prom-client'

/** Label value of requests no route matched (404s of unknown URLs, malformed URLs). */
export const UNMATCHED_ROUTE = 'unmatched'

/**
 * Register the HTTP series on `registry` and count every answer of `app`. Call on the root instance
 * before registering routes, so the hook covers them all.
 */
export function registerRequestMetrics(app: FastifyInstance, registry: Registry): void {
  const requests = new Counter({
    name: 'pathlight_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'pathlight_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  app.addHook('onResponse', async (request, reply) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE }
    requests.inc({ ...labels, status_code: String(reply.statusCode) })
    duration.observe(labels, reply.elapsedTime / 1000)
  })
}
