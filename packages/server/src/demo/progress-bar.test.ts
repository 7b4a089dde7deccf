import { afterEach, describe, expect, it, vi } from 'vitest'
import { createProgressBar, type ProgressStream } from './progress-bar.js'

/** A writable that records every chunk. */
function fakeStream(isTTY: boolean): ProgressStream & { chunks: string[] } {
  const chunks: string[] = []
  return {
    isTTY,
    chunks,
    write(chunk: string) {
      chunks.push(chunk)
      return true
    },
  }
}

describe('createProgressBar (not a TTY)', () => {
  it('prints one line at each of 25, 50, 75 and 100 %', () => {
    const stream = fakeStream(false)
    const bar = createProgressBar('replay', stream)
    for (let done = 0; done <= 10_000; done += 100) bar.update(done, 10_000)
    bar.finish()
    expect(stream.chunks).toEqual([
      'replay [#####---------------] 25% 2500/10000\n',
      'replay [##########----------] 50% 5000/10000\n',
      'replay [###############-----] 75% 7500/10000\n',
      'replay [####################] 100% 10000/10000\n',
    ])
  })

  it('prints only the highest milestone after a jump, never twice, and handles total 0', () => {
    const stream = fakeStream(false)
    const bar = createProgressBar('x', stream)
    bar.update(10, 100)
    bar.update(80, 100)
    bar.update(81, 100)
    bar.update(200, 100)
    bar.update(100, 100)
    expect(stream.chunks).toEqual([
      'x [################----] 80% 80/100\n',
      'x [####################] 100% 100/100\n',
    ])

    const empty = fakeStream(false)
    createProgressBar('y', empty).update(0, 0)
    expect(empty.chunks).toEqual(['y [####################] 100% 0/0\n'])
  })
})

describe('createProgressBar (TTY)', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('redraws in place at most every 100 ms and always draws completion', () => {
    vi.useFakeTimers({ now: 0 })
    const stream = fakeStream(true)
    const bar = createProgressBar('load', stream)
    bar.update(1, 10)
    bar.update(2, 10)
    vi.advanceTimersByTime(100)
    bar.update(3, 10)
    bar.update(10, 10)
    bar.finish()
    expect(stream.chunks).toEqual([
      '\rload [##------------------] 10% 1/10',
      '\rload [######--------------] 30% 3/10',
      '\rload [####################] 100% 10/10',
      '\n',
    ])
  })

  it('finish() draws a throttled last state before the newline', () => {
    vi.useFakeTimers({ now: 0 })
    const stream = fakeStream(true)
    const bar = createProgressBar('load', stream)
    bar.update(1, 4)
    bar.update(2, 4)
    bar.finish()
    expect(stream.chunks).toEqual([
      '\rload [#####---------------] 25% 1/4',
      '\rload [##########----------] 50% 2/4',
      '\n',
    ])
  })
})
