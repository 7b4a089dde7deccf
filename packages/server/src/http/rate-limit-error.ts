/**
 * The 429 of the request budgets (per API key: `POST /api/track`, and the key budget of the other API
 * routes, `key-budget.ts`; per user and per organization: the session cookie's reads, `read-budget.ts`),
 * for `errorResponseBuilder` of `@fastify/rate-limit`: an `AppError` the error handler answers like any
 * other, e.g. `Rate limit exceeded: at most 500 requests per 10 minutes per API key`. The plugin sets
 * `Retry-After` and `X-RateLimit-*` itself.
 */
import { AppError } from '../shared/errors.js'

/**
 * @param limit `max` requests per `windowMs` milliseconds; the window reads "minute" for 60,000 ms,
 * "N minutes" for other whole minutes, "N seconds" for other whole seconds, else "N ms"
 * @param per what one bucket counts: `API key` (default), `user`, `organization`
 * @returns an AppError 429 that also carries `statusCode` (the plugin reads it)
 */
export function rateLimitError(limit: { max: number; windowMs: number }, per = 'API key'): AppError {
  const minutes = limit.windowMs / 60_000
  const seconds = limit.windowMs / 1000
  const window =
    minutes === 1
      ? 'minute'
      : Number.isInteger(minutes)
        ? `${minutes} minutes`
        : Number.isInteger(seconds)
          ? `${seconds} second${seconds === 1 ? '' : 's'}`
          : `${limit.windowMs} ms`
  const message = `Rate limit exceeded: at most ${limit.max} request${limit.max === 1 ? '' : 's'} per ${window} per ${per}`
  return Object.assign(new AppError(429, message), { statusCode: 429 })
}
