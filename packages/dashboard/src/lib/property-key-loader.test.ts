import { describe, expect, it } from 'vitest'
import { createPropertyKeyLoader } from './property-key-loader'

describe('createPropertyKeyLoader', () => {
  it('suggests per event only for the event names the range has', () => {
    const loader = createPropertyKeyLoader('q', ['signup', 'Download file'], async () => [])
    expect(loader.listFor(' signup ')).toBe('signup')
    expect(loader.listFor('Download file')).toBe('Download file')
    expect(loader.listFor('sign')).toBeUndefined()
    expect(loader.listFor('')).toBeUndefined()
  })

  it('loads each list once and the every-event list apart from an event named like nothing', async () => {
    const calls: (string | undefined)[] = []
    const loader = createPropertyKeyLoader('q', ['signup'], async (name) => {
      calls.push(name)
      return name === undefined ? ['plan', 'source'] : [`${name}-key`]
    })
    const [all, again, one, empty] = await Promise.all([
      loader.keys(undefined),
      loader.keys(undefined),
      loader.keys('signup'),
      loader.keys(''),
    ])
    expect(all).toEqual(['plan', 'source'])
    expect(again).toBe(all)
    expect(one).toEqual(['signup-key'])
    expect(empty).toEqual(['-key'])
    expect(calls).toEqual([undefined, 'signup', ''])
  })

  it('forgets a failed load, so the next request loads again', async () => {
    let attempts = 0
    const loader = createPropertyKeyLoader('q', [], async () => {
      attempts++
      if (attempts === 1) throw new Error('offline')
      return ['plan']
    })
    await expect(loader.keys(undefined)).rejects.toThrow('offline')
    await Promise.resolve()
    expect(await loader.keys(undefined)).toEqual(['plan'])
    expect(attempts).toBe(2)
  })
})
