import { describe, expect, it } from 'vitest'
import {
  canonicalNumberText,
  canonicalPropertiesOf,
  canonicalPropertiesText,
} from './canonical-properties.js'

describe('canonicalPropertiesText', () => {
  it('keeps the last of a repeated key at every depth, in first-appearance order', () => {
    expect(canonicalPropertiesText('{"k":1,"j":2,"k":3}')).toEqual({ text: '{"k":3,"j":2}' })
    expect(canonicalPropertiesText('{"m":{"a":1,"a":[1, 2]}}')).toEqual({ text: '{"m":{"a":[1,2]}}' })
  })

  it('writes numbers as JavaScript does, long whole numbers in exponent form', () => {
    const cases: [string, string][] = [
      ['1e21', '1e+21'],
      ['1e20', '1e+20'],
      ['123456789', '123456789'],
      ['1e-7', '1e-7'],
      ['0.000001', '0.000001'],
      ['-0', '0'],
      ['3.0', '3'],
      ['9007199254740993', '9007199254740992'],
      ['-12345678901234567890', '-1.2345678901234567e+19'],
      ['18446744073709551616', '1.8446744073709552e+19'],
      ['9223372036854775807', '9.223372036854776e+18'],
      ['9223372036854774784', '9223372036854775000'],
    ]
    for (const [sent, stored] of cases) {
      expect(canonicalPropertiesText(`{"n":${sent}}`), sent).toEqual({ text: `{"n":${stored}}` })
      // The value's own text (the breakdown's): JavaScript's, without the exponent form.
      expect(canonicalNumberText(Number(sent)), sent).toBe(String(Number(sent) === 0 ? 0 : Number(sent)))
    }
  })

  it('refuses numbers beyond the double range, naming their path', () => {
    expect(canonicalPropertiesText('{"big":1e400}')).toEqual({
      error: expect.stringMatching(/^"big": number out of range/),
    })
    expect(canonicalPropertiesText('{"a":{"b c":[0,-1e999]}}')).toEqual({
      error: expect.stringMatching(/^"a\["b c"\]\[1\]": number out of range/),
    })
    expect(canonicalPropertiesOf({ x: Number.NaN })).toEqual({ error: expect.stringMatching(/^"x": number/) })
  })

  it('refuses text that is not a JSON object', () => {
    for (const text of ['[1]', '"x"', 'null', '{"a":', ''])
      expect(canonicalPropertiesText(text), text).toEqual({
        error: expect.stringMatching(/must be a JSON object/),
      })
  })
})
