/**
 * The constructor's options, checked and completed with their defaults. Every problem is a `TypeError`
 * whose message starts with the option's name.
 */
import type { PathlightOptions } from './types.js'

/** Options after checking: the endpoint URL, the site id as the decimal string sent, and every default. */
export interface ResolvedOptions {
  /** `{analyticsHost}/track`, without a doubled slash. */
  trackUrl: string
  /** `{analyticsHost}` without a trailing slash: the v1 reads go under `{apiUrl}/v1`. */
  apiUrl: string
  siteId: string
  apiKey: string
  debug: boolean
  timeoutMs: number
  maxRetries: number
  backoffBaseMs: number
  backoffMaxMs: number
  maxRetryAfterMs: number
}

export const defaults = {
  debug: false,
  timeoutMs: 10_000,
  maxRetries: 3,
  backoffBaseMs: 500,
  backoffMaxMs: 10_000,
  maxRetryAfterMs: 60_000,
} as const

/** Site ids are UInt32 on the server. */
const MAX_SITE_ID = 0xffffffff
/** setTimeout's largest delay. */
const MAX_DELAY_MS = 0x7fffffff

/**
 * Check the constructor's options.
 * @throws TypeError naming the option when one is missing or invalid
 */
export function resolveOptions(options: unknown): ResolvedOptions {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('options must be an object with analyticsHost, siteId and apiKey')
  }
  const o = options as Partial<Record<keyof PathlightOptions, unknown>>
  const apiUrl = analyticsHostOf(o.analyticsHost)
  return {
    trackUrl: `${apiUrl}/track`,
    apiUrl,
    siteId: siteIdOf(o.siteId),
    apiKey: apiKeyOf(o.apiKey),
    debug: booleanOf('debug', o.debug, defaults.debug),
    timeoutMs: numberOf('timeoutMs', o.timeoutMs, defaults.timeoutMs, { min: 1, max: MAX_DELAY_MS }),
    maxRetries: numberOf('maxRetries', o.maxRetries, defaults.maxRetries, {
      min: 0,
      max: 100,
      integer: true,
    }),
    backoffBaseMs: numberOf('backoffBaseMs', o.backoffBaseMs, defaults.backoffBaseMs, {
      min: 0,
      max: MAX_DELAY_MS,
    }),
    backoffMaxMs: numberOf('backoffMaxMs', o.backoffMaxMs, defaults.backoffMaxMs, {
      min: 0,
      max: MAX_DELAY_MS,
    }),
    maxRetryAfterMs: numberOf('maxRetryAfterMs', o.maxRetryAfterMs, defaults.maxRetryAfterMs, {
      min: 0,
      max: MAX_DELAY_MS,
    }),
  }
}

function analyticsHostOf(value: unknown): string {
  const expected = "the service URL including its /api prefix, e.g. 'https://analytics.example.com/api'"
  if (value === undefined || value === null || value === '') {
    throw new TypeError(`analyticsHost is required: ${expected}`)
  }
  if (typeof value !== 'string') throw new TypeError(`analyticsHost must be a string: ${expected}`)
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new TypeError(`analyticsHost is not a URL: ${expected}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`analyticsHost must be an http: or https: URL, got ${url.protocol}`)
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new TypeError('analyticsHost must not contain credentials, a query or a fragment')
  }
  return url.href.replace(/\/+$/, '')
}

function siteIdOf(value: unknown): string {
  const expected = `a positive integer up to ${MAX_SITE_ID}, as a number or a decimal string`
  if (value === undefined || value === null || value === '')
    throw new TypeError(`siteId is required: ${expected}`)
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,10}$/.test(value.trim())
        ? Number(value.trim())
        : Number.NaN
  if (!Number.isInteger(n) || n < 1 || n > MAX_SITE_ID) {
    throw new TypeError(
      `siteId must be ${expected}, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`,
    )
  }
  return String(n)
}

function apiKeyOf(value: unknown): string {
  if (value === undefined || value === null) throw new TypeError('apiKey is required')
  if (typeof value !== 'string' || value === '') throw new TypeError('apiKey must be a non-empty string')
  // The key is never echoed back: not even in the error about it.
  if (/\s/.test(value)) throw new TypeError('apiKey must not contain whitespace')
  return value
}

function booleanOf(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback
  if (typeof value !== 'boolean') throw new TypeError(`${name} must be a boolean`)
  return value
}

function numberOf(
  name: string,
  value: unknown,
  fallback: number,
  { min, max, integer = false }: { min: number; max: number; integer?: boolean },
): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || Number.isNaN(value) || value < min || value > max) {
    throw new TypeError(`${name} must be a number from ${min} to ${max}, got ${String(value)}`)
  }
  if (integer && !Number.isInteger(value)) throw new TypeError(`${name} must be an integer, got ${value}`)
  return value
}
