import { describe, expect, it } from 'vitest'
import { recordedUrl } from './recorded-url.js'

const none = { query: false, fragment: false }

describe('recordedUrl', () => {
  it('drops the query string and the fragment by default', () => {
    expect(recordedUrl('https://a.test/p?token=1&b=2', none)).toBe('https://a.test/p')
    expect(recordedUrl('https://a.test/p?token=1#top', none)).toBe('https://a.test/p')
    expect(recordedUrl('https://a.test/cb#access_token=secret', none)).toBe('https://a.test/cb')
    expect(recordedUrl('/p?x=1#a?b', none)).toBe('/p')
    expect(recordedUrl('https://a.test/', none)).toBe('https://a.test/')
  })

  it('keeps the query string when the site tracks URL parameters', () => {
    expect(recordedUrl('https://a.test/p?plan=pro#top', { query: true, fragment: false })).toBe(
      'https://a.test/p?plan=pro',
    )
  })

  it('keeps the fragment in hash mode, where it is the path', () => {
    expect(recordedUrl('https://a.test/?x=1#/cart?step=2', { query: false, fragment: true })).toBe(
      'https://a.test/#/cart?step=2',
    )
    expect(recordedUrl('https://a.test/p?x=1#a', { query: true, fragment: true })).toBe(
      'https://a.test/p?x=1#a',
    )
  })
})
