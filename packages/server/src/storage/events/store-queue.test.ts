import { describe, expect, it } from 'vitest'
import type { EventsStore } from './events-store.js'
import { createStoreQueue } from './store-queue.js'

// The queue only keys on the store object; it never calls it.
const storeA = {} as EventsStore
const storeB = {} as EventsStore
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('createStoreQueue', () => {
  it('runs the tasks of one store one at a time, in order, and the next after a failure', async () => {
    const queue = createStoreQueue()
    const log: string[] = []
    const task =
      (name: string, ms: number, fail = false) =>
      async () => {
        log.push(`start ${name}`)
        await pause(ms)
        log.push(`end ${name}`)
        if (fail) throw new Error(name)
        return name
      }
    const results = await Promise.allSettled([
      queue(storeA, task('a1', 20, true)),
      queue(storeA, task('a2', 1)),
    ])
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled'])
    expect(log).toEqual(['start a1', 'end a1', 'start a2', 'end a2'])
  })

  it('runs the tasks of two stores side by side', async () => {
    const queue = createStoreQueue()
    const log: string[] = []
    const task = (name: string) => async () => {
      log.push(`start ${name}`)
      await pause(10)
      log.push(`end ${name}`)
    }
    await Promise.all([queue(storeA, task('a')), queue(storeB, task('b'))])
    expect(log.slice(0, 2)).toEqual(['start a', 'start b'])
  })
})
