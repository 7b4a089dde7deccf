import { describe, expect, it } from 'vitest'
import { startPeriodicJob } from './periodic-job.js'

/** A promise and the function that resolves it. */
function signal() {
  let resolve = () => {}
  const promise = new Promise<void>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

describe('startPeriodicJob', () => {
  it('runs a pass at start and then every interval, never two at once, and stops after the one running', async () => {
    let passes = 0
    let active = 0
    let overlapped = false
    const third = signal()
    const job = startPeriodicJob(
      async () => {
        active++
        overlapped ||= active > 1
        await new Promise((resolve) => setTimeout(resolve, 15))
        passes++
        active--
        if (passes === 3) third.resolve()
      },
      { intervalMs: 5 },
    )
    await third.promise
    await job.stop()
    const stoppedAt = passes
    // Several intervals later, no pass has started since stop() resolved.
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(passes).toBe(stoppedAt)
    expect(overlapped).toBe(false)
  })

  it('skips the ticks that come while a pass runs instead of running them after it', async () => {
    let passes = 0
    const long = signal()
    const job = startPeriodicJob(
      async () => {
        passes++
        // The first pass outlasts about ten intervals; the later ones are instant.
        if (passes === 1) await new Promise((resolve) => setTimeout(resolve, 50))
        if (passes === 1) long.resolve()
      },
      { intervalMs: 5 },
    )
    await long.promise
    // Queued, the ten ticks would run as soon as the long pass ends; skipped, at most the next tick's.
    await new Promise((resolve) => setImmediate(resolve))
    expect(passes).toBeLessThanOrEqual(2)
    await new Promise((resolve) => setTimeout(resolve, 30))
    await job.stop()
    // Then one pass per tick again.
    expect(passes).toBeGreaterThan(1)
    expect(passes).toBeLessThan(12)
  })

  it('reports a failed pass and keeps running', async () => {
    const errors: unknown[] = []
    const second = signal()
    let calls = 0
    const job = startPeriodicJob(
      async () => {
        calls++
        if (calls === 2) second.resolve()
        if (calls === 1) throw new Error('store down')
      },
      { intervalMs: 5, onError: (error) => errors.push(error) },
    )
    await second.promise
    await job.stop()
    expect(errors).toEqual([new Error('store down')])
  })
  it('with atStart false, waits one interval before the first pass', async () => {
    let passes = 0
    const job = startPeriodicJob(
      async () => {
        passes++
      },
      { intervalMs: 40, atStart: false },
    )
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(passes).toBe(0)
    await new Promise((resolve) => setTimeout(resolve, 60))
    await job.stop()
    expect(passes).toBeGreaterThan(0)
  })
})
