/**
 * The webhook worker (and the mail worker, over `MailRunner`): a thin loop over `runOnce`, every `pollMs` (default 1 s), and at
 * once again while batches come back full. `stop()` waits for the attempts in flight.
 */
import type { DeliveryRunner } from '../webhooks/deliveries.js'

export interface Worker {
  stop(): Promise<void>
}

export function startWebhookWorker(
  runner: Pick<DeliveryRunner, 'runOnce'>,
  options: { pollMs?: number; batchSize?: number; onError?: (error: unknown) => void } = {},
): Worker {
  const pollMs = options.pollMs ?? 1000
  const batchSize = options.batchSize ?? 20
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> = Promise.resolve()

  const loop = async () => {
    timer = undefined
    try {
      while (!stopped && (await runner.runOnce()) >= batchSize) {
        // a full batch: more may be due
      }
    } catch (error) {
      options.onError?.(error)
    }
    if (!stopped) timer = setTimeout(tick, pollMs)
  }
  const tick = () => {
    running = loop()
  }
  timer = setTimeout(tick, 0)

  return {
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      await running
    },
  }
}
