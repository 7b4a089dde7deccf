import { describe, expect, it } from 'vitest'
import { MAX_JSON_DEPTH, tooDeepAt } from './json-depth.js'

const nested = (levels: number): unknown => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`)

describe('tooDeepAt', () => {
  it('counts every object and array as a level, primitives as none', () => {
    expect(tooDeepAt(1, 0)).toBeUndefined()
    expect(tooDeepAt({}, 1)).toBeUndefined()
    expect(tooDeepAt({}, 0)).toEqual([])
    expect(tooDeepAt({ a: [1, 'x'] }, 2)).toBeUndefined()
    expect(tooDeepAt({ a: [1, 'x'] }, 1)).toEqual(['a'])
    expect(tooDeepAt(nested(MAX_JSON_DEPTH))).toBeUndefined()
    expect(tooDeepAt(nested(MAX_JSON_DEPTH + 1))).toHaveLength(MAX_JSON_DEPTH)
  })

  it('names the first too-deep container by keys and indexes', () => {
    const value = { fine: { x: 1 }, events: [{ data: {} }, { data: { deep: { deeper: {} } } }] }
    expect(tooDeepAt(value, 4)).toEqual(['events', 1, 'data', 'deep'])
  })

  it('checks a million levels without exhausting the stack', () => {
    expect(tooDeepAt(nested(1_000_000))?.[0]).toBe(0)
  })
})
