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
