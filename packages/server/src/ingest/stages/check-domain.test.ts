import { describe, expect, it } from 'vitest'
import { isSameSite } from './check-domain.js'

describe('isSameSite', () => {
  it.each([
    ['example.com', 'example.com', true],
    ['www.example.com', 'example.com', true],
    ['example.com', 'www.example.com', true],
    ['blog.example.com', 'example.com', true],
    ['EXAMPLE.com.', 'example.com', true],
    ['notexample.com', 'example.com', false],
    ['example.com.evil.test', 'example.com', false],
    ['example.org', 'example.com', false],
    ['', 'example.com', false],
  ])('%s on a site for %s: %s', (host, domain, expected) => {
    expect(isSameSite(host, domain)).toBe(expected)
  })
})
