/**
 * The retention job: runs a pass (`retention/expire-events.ts`) at start and then every `intervalMs`
 * (RETENTION_INTERVAL_MS, default 24 h). Passes never overlap; `stop()` cancels the next one and waits
 * for one in progress.
 */
import type { Worker } from './webhook-worker.js'

export function startRetentionJob(
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
