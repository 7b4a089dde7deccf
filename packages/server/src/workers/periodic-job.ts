/**
 * A periodic job: runs a pass at start (unless `atStart: false`) and then every `intervalMs`. Passes
 * never overlap: a tick while one runs is skipped; `stop()` cancels the next one and waits for one in
 * progress. The retention pass (`retention/expire-events.ts`, every RETENTION_INTERVAL_MS), the
 * session fold (`session-fold-pass.ts`, every SESSION_FOLD_INTERVAL_MS) and the alert rules'
 * evaluation (`alerts/evaluate-alerts.ts`, every ALERT_INTERVAL_MS, not at start) run this way.
 */
import type { Worker } from './webhook-worker.js'

/** Start the job; a failed pass goes to `onError` and the next one runs as planned. */
export function startPeriodicJob(
  pass: () => Promise<unknown>,
  options: { intervalMs: number; atStart?: boolean; onError?: (error: unknown) => void },
): Worker {
  let stopped = false
  let busy = false
  let running: Promise<unknown> = Promise.resolve()
  // A tick while a pass runs is skipped, not queued: a pass longer than the interval (a fold after an
  // import) would otherwise be followed by one pass per interval it took, back to back.
  const run = () => {
    if (stopped || busy) return
    busy = true
    running = Promise.resolve()
      .then(pass)
      .catch((error) => options.onError?.(error))
      .finally(() => {
        busy = false
      })
  }
  if (options.atStart !== false) run()
  const timer = setInterval(run, options.intervalMs)
  timer.unref()
  return {
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
    },
  }
}
