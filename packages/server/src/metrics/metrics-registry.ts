/**
 * The Prometheus registry of one Pathlight instance (`GET /metrics`, `http/metrics.ts`). One per
 * instance, never prom-client's global one, so several instances in one process (tests) do not
 * collide. It starts with prom-client's default process and Node.js series (memory, CPU, event loop
 * lag, GC), named `pathlight_process_*` and `pathlight_nodejs_*`.
 */
import { collectDefaultMetrics, Registry } from 'prom-client'

/** Every series of the service starts with this. */
export const METRICS_PREFIX = 'pathlight_'

/** @returns a new registry holding the default process and Node.js series */
export function createMetricsRegistry(): Registry {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: METRICS_PREFIX })
  return registry
}
