/**
 * Retry policy helpers: which answers are retried, how long to wait (exponential backoff with jitter, or
 * the server's `Retry-After`), and reading the rate-limit headers.
 */
import type { RateLimitInfo } from './errors.js'

/** True for the statuses a call retries: 429 and every 5xx. Other 4xx are final. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599)
}

/**
 * Backoff before retry `retry` (1-based), in ms: `min(maxMs, baseMs * 2 ** (retry - 1))` times a factor in
 * [0.5, 1] drawn from `random` (which returns [0, 1)), rounded to whole ms.
 */
export function backoffDelay(retry: number, baseMs: number, maxMs: number, random = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** (retry - 1))
  return Math.round(ceiling * (0.5 + random() / 2))
}

/**
 * A `Retry-After` header value in whole seconds (never negative): delta-seconds (`'120'`) or an HTTP date
 * (seconds from `now`, rounded up). `undefined` when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text)
  // HTTP dates start with the day name (IMF-fixdate, RFC 850 and asctime forms alike).
  if (!/^[A-Za-z]{3,9},?\s/.test(text)) return undefined
  const date = Date.parse(text)
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000))
}

/** `X-RateLimit-Limit`, `-Remaining` and `-Reset` (seconds) as numbers; `undefined` unless all three are. */
export function parseRateLimit(headers: { get(name: string): string | null }): RateLimitInfo | undefined {
  const read = (name: string) => {
    const value = headers.get(name)
    return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : undefined
  }
  const limit = read('x-ratelimit-limit')
  const remaining = read('x-ratelimit-remaining')
  const resetSeconds = read('x-ratelimit-reset')
  return limit === undefined || remaining === undefined || resetSeconds === undefined
    ? undefined
    : { limit, remaining, resetSeconds }
}
