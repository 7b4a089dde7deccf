/**
 * The constructor's checks: every missing or invalid option is a TypeError whose message names it, and
 * valid options are normalized (trailing slash, site id as a decimal string).
 */
import { describe, expect, it } from 'vitest'
import { Pathlight } from './client.js'
import type { PathlightOptions } from './types.js'

const valid: PathlightOptions = {
  analyticsHost: 'https://analytics.example.com/api',
  siteId: 1,
  apiKey: 'pl_test_key',
}

/** Construct with `valid` overridden by `changes` (a value of `undefined` removes the option). */
const construct = (changes: Record<string, unknown>) => {
  const options: Record<string, unknown> = { ...valid, ...changes }
  for (const [key, value] of Object.entries(changes)) if (value === undefined) delete options[key]
  return () => new Pathlight(options as unknown as PathlightOptions)
}

describe('new Pathlight(options)', () => {
  it('accepts valid options; siteId as a number or a decimal string', () => {
    expect(new Pathlight(valid).siteId).toBe('1')
    expect(new Pathlight({ ...valid, siteId: '42' }).siteId).toBe('42')
    expect(new Pathlight({ ...valid, siteId: 4294967295 }).siteId).toBe('4294967295')
    expect(() => new Pathlight({ ...valid, analyticsHost: 'http://127.0.0.1:3000/api/' })).not.toThrow()
    expect(() => new Pathlight({ ...valid, debug: true, timeoutMs: 1, maxRetries: 0 })).not.toThrow()
  })

  it('throws a TypeError naming the option when options are missing altogether', () => {
    expect(() => new Pathlight(undefined as unknown as PathlightOptions)).toThrow(TypeError)
    expect(() => new Pathlight(undefined as unknown as PathlightOptions)).toThrow(
      /^options must be an object/,
    )
    expect(() => new Pathlight(null as unknown as PathlightOptions)).toThrow(/^options/)
    expect(() => new Pathlight('x' as unknown as PathlightOptions)).toThrow(/^options/)
  })

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['missing analyticsHost', { analyticsHost: undefined }, /^analyticsHost is required/],
    ['empty analyticsHost', { analyticsHost: '' }, /^analyticsHost is required/],
    ['analyticsHost not a string', { analyticsHost: 42 }, /^analyticsHost must be a string/],
    [
      'analyticsHost not a URL',
      { analyticsHost: 'analytics.example.com/api' },
      /^analyticsHost is not a URL/,
    ],
    [
      'analyticsHost not http(s)',
      { analyticsHost: 'ftp://example.com/api' },
      /^analyticsHost must be an http/,
    ],
    [
      'analyticsHost with credentials',
      { analyticsHost: 'https://u:p@example.com/api' },
      /^analyticsHost must not/,
    ],
    [
      'analyticsHost with a query',
      { analyticsHost: 'https://example.com/api?x=1' },
      /^analyticsHost must not/,
    ],
    [
      'analyticsHost with a fragment',
      { analyticsHost: 'https://example.com/api#x' },
      /^analyticsHost must not/,
    ],
    ['missing siteId', { siteId: undefined }, /^siteId is required/],
    ['empty siteId', { siteId: '' }, /^siteId is required/],
    ['siteId zero', { siteId: 0 }, /^siteId must be a positive integer/],
    ['siteId negative', { siteId: -3 }, /^siteId must be a positive integer/],
    ['siteId fractional', { siteId: 1.5 }, /^siteId must be a positive integer/],
    ['siteId NaN', { siteId: Number.NaN }, /^siteId must be a positive integer/],
    ['siteId above UInt32', { siteId: 4294967296 }, /^siteId must be a positive integer/],
    ['siteId non-numeric string', { siteId: 'abc' }, /^siteId must be a positive integer/],
    ['siteId "0"', { siteId: '0' }, /^siteId must be a positive integer/],
    ['siteId "1.5"', { siteId: '1.5' }, /^siteId must be a positive integer/],
    ['siteId "-1"', { siteId: '-1' }, /^siteId must be a positive integer/],
    ['siteId an object', { siteId: {} }, /^siteId must be a positive integer/],
    ['missing apiKey', { apiKey: undefined }, /^apiKey is required/],
    ['empty apiKey', { apiKey: '' }, /^apiKey must be a non-empty string/],
    ['apiKey not a string', { apiKey: 123 }, /^apiKey must be a non-empty string/],
    ['apiKey with whitespace', { apiKey: 'pl key' }, /^apiKey must not contain whitespace/],
    ['debug not a boolean', { debug: 'yes' }, /^debug must be a boolean/],
    ['timeoutMs zero', { timeoutMs: 0 }, /^timeoutMs must be a number from 1/],
    ['timeoutMs NaN', { timeoutMs: Number.NaN }, /^timeoutMs must be a number/],
    ['timeoutMs beyond setTimeout', { timeoutMs: 2 ** 31 }, /^timeoutMs must be a number/],
    ['maxRetries negative', { maxRetries: -1 }, /^maxRetries must be a number from 0/],
    ['maxRetries fractional', { maxRetries: 1.5 }, /^maxRetries must be an integer/],
    ['maxRetries a string', { maxRetries: '3' }, /^maxRetries must be a number/],
    ['backoffBaseMs negative', { backoffBaseMs: -1 }, /^backoffBaseMs must be a number/],
    ['backoffMaxMs infinite', { backoffMaxMs: Number.POSITIVE_INFINITY }, /^backoffMaxMs must be a number/],
    ['maxRetryAfterMs negative', { maxRetryAfterMs: -5 }, /^maxRetryAfterMs must be a number/],
  ])('%s: TypeError naming the option', (_name, changes, message) => {
    const make = construct(changes)
    expect(make).toThrow(TypeError)
    expect(make).toThrow(message)
  })

  it('never echoes the API key in its errors', () => {
    const secret = 'pl_live_0123456789 abcdef'
    expect(construct({ apiKey: secret })).toThrow(/^apiKey must not contain whitespace$/)
  })
})
