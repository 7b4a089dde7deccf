/**
 * The alert scheduler: evaluates every enabled rule every `intervalMs` (ALERT_INTERVAL_MS, default 60 s).
 * `stop()` waits for a pass in progress.
 */
import type { Worker } from './webhook-worker.js'

export function startAlertScheduler(
  evaluate: () => Promise<unknown>,
  options: { intervalMs: number; onError?: (error: unknown) => void },
): Worker {
  let stopped = false
  let running: Promise<unknown> = Promise.resolve()
  const timer = setInterval(() => {
    running = running.then(() =>
      stopped ? undefined : evaluate().catch((error) => options.onError?.(error)),
    )
  }, options.intervalMs)
  timer.unref()
  return {
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
    },
  }
}
