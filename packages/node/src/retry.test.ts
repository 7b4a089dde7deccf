/** Retry policy helpers: retryable statuses, backoff bounds, Retry-After and rate-limit header parsing. */
import { describe, expect, it } from 'vitest'
import { backoffDelay, isRetryableStatus, parseRateLimit, parseRetryAfter } from './retry.js'

describe('retry policy', () => {
  it('retries 429 and 5xx only', () => {
    for (const status of [429, 500, 502, 503, 504, 599]) expect(isRetryableStatus(status)).toBe(true)
    for (const status of [200, 301, 400, 401, 403, 404, 408, 413, 422])
      expect(isRetryableStatus(status)).toBe(false)
  })

  it('backs off exponentially with jitter in [0.5, 1] of the capped delay', () => {
    expect(backoffDelay(1, 500, 10_000, () => 0)).toBe(250)
    expect(backoffDelay(1, 500, 10_000, () => 0.999_999)).toBe(500)
    expect(backoffDelay(2, 500, 10_000, () => 0.999_999)).toBe(1000)
    expect(backoffDelay(3, 500, 10_000, () => 0)).toBe(1000)
    expect(backoffDelay(10, 500, 10_000, () => 0.999_999)).toBe(10_000)
    expect(backoffDelay(5, 0, 10_000)).toBe(0)
    for (let retry = 1; retry <= 8; retry++) {
      const delay = backoffDelay(retry, 100, 1000)
      const ceiling = Math.min(1000, 100 * 2 ** (retry - 1))
      expect(delay).toBeGreaterThanOrEqual(ceiling / 2)
      expect(delay).toBeLessThanOrEqual(ceiling)
    }
  })

  it('reads Retry-After as delta-seconds or an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z')
    expect(parseRetryAfter('120', now)).toBe(120)
    expect(parseRetryAfter(' 0 ', now)).toBe(0)
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:01:30 GMT', now)).toBe(90)
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0)
    for (const value of [null, undefined, '', 'soon', '-5', '1.5']) {
      expect(parseRetryAfter(value, now)).toBeUndefined()
    }
  })

  it('reads the X-RateLimit headers when all three are there', () => {
    const headers = (values: Record<string, string>) => new Headers(values)
    expect(
      parseRateLimit(
        headers({ 'x-ratelimit-limit': '500', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '42' }),
      ),
    ).toEqual({ limit: 500, remaining: 0, resetSeconds: 42 })
    expect(parseRateLimit(headers({ 'x-ratelimit-limit': '500' }))).toBeUndefined()
    expect(parseRateLimit(headers({}))).toBeUndefined()
  })
})
