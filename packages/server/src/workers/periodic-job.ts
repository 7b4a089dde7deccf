/**
 * A periodic job: runs a pass at start and then every `intervalMs`. Passes never overlap; `stop()`
 * cancels the next one and waits for one in progress. The retention pass (`retention/expire-events.ts`,
 * every RETENTION_INTERVAL_MS) and the session fold (`session-fold-pass.ts`, every
 * SESSION_FOLD_INTERVAL_MS) run this way.
 */
import type { Worker } from './webhook-worker.js'

/** Start the job; a failed pass goes to `onError` and the next one runs as planned. */
export function startPeriodicJob(
  pass: () => Promise<unknown>,
  options: { intervalMs: number; onError?: (error: unknown) => void },
): Worker {
  let stopped = false
  let running: Promise<unknown> = Promise.resolve()
  const run = () => {
    running = running.then(() => (stopped ? undefined : pass().catch((error) => options.onError?.(error))))
  }
  run()
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
