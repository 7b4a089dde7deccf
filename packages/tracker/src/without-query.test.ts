import { describe, expect, it } from 'vitest'
import { withoutQuery } from './without-query.js'

describe('withoutQuery', () => {
  it('drops the query string and keeps the rest', () => {
    expect(withoutQuery('https://a.test/p?token=1&b=2')).toBe('https://a.test/p')
    expect(withoutQuery('https://a.test/p?token=1#top')).toBe('https://a.test/p#top')
    expect(withoutQuery('https://a.test/p#a?b')).toBe('https://a.test/p#a?b')
    expect(withoutQuery('/p?x=1#a?b')).toBe('/p#a?b')
    expect(withoutQuery('https://a.test/')).toBe('https://a.test/')
  })
})
