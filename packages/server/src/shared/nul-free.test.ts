import { describe, expect, it } from 'vitest'
import { isNulFree, nulMessage } from './nul-free.js'

describe('isNulFree', () => {
  it('refuses text holding U+0000 anywhere, and nothing else', () => {
    expect(isNulFree('')).toBe(true)
    expect(isNulFree('plain \u0001 text 😀 \uD800')).toBe(true)
    expect(isNulFree('\u0000')).toBe(false)
    expect(isNulFree('a\u0000b')).toBe(false)
  })

  it('names the field in its message', () => {
    expect(nulMessage('name')).toBe('name must not contain NUL characters')
    expect(nulMessage()).toBe('must not contain NUL characters')
  })
})
