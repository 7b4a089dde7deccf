import type { RunFigures } from './format-summary.js'
import type { RunSpec, ServerName } from './plan-runs.js'
import type { TrackRequest } from './track-bodies.js'
import { type TrackSite, trackHeaders } from './track-headers.js'
import { warmThenLoad } from './warm-then-load.js'

/** The figures of the runs made, and what Pathlight acknowledged over all of them. */
export interface PlanResult {
  runs: Omit<RunFigures, 'ratio'>[]
  /** Acknowledged responses of all Pathlight loads, warm-ups included. */
  pathlightAcknowledged: number
}

/**
 * Makes the planned runs one after another (warm-up, then measured), each against its server with its
 * mode's headers (`trackHeaders`) and the same requests. A run whose server is missing is skipped.
 *
 * @param onRun called after each run (progress reporting).
 * @returns the measured figures in the order made; rejects only if autocannon cannot start.
 */
export async function runPlan(opts: {
  plan: readonly RunSpec[]
  servers: Record<ServerName, { baseUrl: string; pid: number } | null>
  site: TrackSite
  requests: readonly TrackRequest[]
  timing: { warmupSeconds: number; seconds: number }
  onRun?: (run: Omit<RunFigures, 'ratio'>) => void
}): Promise<PlanResult> {
  const runs: Omit<RunFigures, 'ratio'>[] = []
  let pathlightAcknowledged = 0
  for (const spec of opts.plan) {
    const server = opts.servers[spec.server]
    if (!server) continue
    const { measured, cpu, acknowledged } = await warmThenLoad(
      {
        baseUrl: server.baseUrl,
        pid: server.pid,
        requests: opts.requests,
        connections: spec.connections,
        headers: trackHeaders(spec.mode, opts.site),
      },
      opts.timing,
    )
    if (spec.server === 'pathlight') pathlightAcknowledged += acknowledged
    const run = {
      ...spec,
      reqPerSec: measured.reqPerSec,
      p50Ms: measured.p50Ms,
      p99Ms: measured.p99Ms,
      errors: measured.errors + measured.timeouts,
      statuses: measured.statuses,
      acknowledged,
      cpu,
    }
    runs.push(run)
    opts.onRun?.(run)
  }
  return { runs, pathlightAcknowledged }
}
