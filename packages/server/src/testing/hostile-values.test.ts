import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  deeplyNested,
  encodeHostile,
  hostileJson,
  hostilePathSegment,
  RawJson,
  toJsonText,
} from './hostile-values.js'

describe('toJsonText', () => {
  it('writes plain JSON as JSON.stringify does, and raw fragments verbatim', () => {
    expect(toJsonText({ a: [1, 'x', null, true], b: { c: -1.5 } })).toBe(
      JSON.stringify({ a: [1, 'x', null, true], b: { c: -1.5 } }),
    )
    expect(toJsonText({ n: new RawJson('-0'), big: [new RawJson('1e309')] })).toBe('{"n":-0,"big":[1e309]}')
    expect(toJsonText('\uD800')).toBe('"\\ud800"')
  })

  it('writes nesting 100,000 deep without recursing', () => {
    const text = toJsonText({ deep: deeplyNested(100_000, 'array') })
    expect(text.length).toBe(200_000 + '{"deep":}'.length)
  })

  it('writes every hostile value (some of them not JSON at all)', () => {
    fc.assert(fc.property(hostileJson, (value) => typeof toJsonText(value) === 'string'))
  })
})

describe('encodeHostile', () => {
  it('percent-encodes as encodeURIComponent, lone surrogates as their (invalid) CESU-8 bytes', () => {
    expect(encodeHostile("' OR 1=1 --")).toBe(encodeURIComponent("' OR 1=1 --"))
    expect(encodeHostile('😀')).toBe('%F0%9F%98%80')
    expect(encodeHostile('a\uD800b')).toBe('a%ED%A0%80b')
    expect(encodeHostile('\uDFFF')).toBe('%ED%BF%BF')
  })

  it('gives path segments without a raw slash, question mark or hash outside the hand-picked ones', () => {
    fc.assert(
      fc.property(hostilePathSegment, (segment) => {
        expect(segment).not.toMatch(/[?#]/)
      }),
    )
  })
})
