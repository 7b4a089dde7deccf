/**
 * Input checks before sending: property values (strings, finite numbers, booleans, flat arrays of those),
 * payload fields and event names. Invalid input rejects with a TypeError naming the key, and fetch is
 * never called.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Pathlight } from './client.js'
import { validateEventName, validatePayload, validateProperties } from './validate.js'

describe('validateProperties', () => {
  it('serializes valid properties as a JSON object string, leaving out undefined values', () => {
    expect(validateProperties(undefined)).toBeUndefined()
    expect(validateProperties({})).toBe('{}')
    const properties = {
      plan: 'pro',
      seats: 3,
      price: 9.99,
      annual: false,
      tags: ['a', 'b'],
      mixed: [1, 'x', true],
      empty: [],
      skipped: undefined,
    }
    const json = validateProperties(properties)
    expect(JSON.parse(json ?? '')).toEqual({
      plan: 'pro',
      seats: 3,
      price: 9.99,
      annual: false,
      tags: ['a', 'b'],
      mixed: [1, 'x', true],
      empty: [],
    })
    expect(validateProperties(Object.assign(Object.create(null), { a: 1 }))).toBe('{"a":1}')
  })

  it.each<[string, unknown, RegExp]>([
    [
      'an object value',
      { plan: { name: 'pro' } },
      /^properties\.plan must be a string, finite number, boolean/,
    ],
    ['null', { plan: null }, /^properties\.plan .* got null$/],
    ['a Date', { at: new Date(0) }, /^properties\.at .* got an object \(Date\)$/],
    ['NaN', { n: Number.NaN }, /^properties\.n must be/],
    ['Infinity', { n: Number.POSITIVE_INFINITY }, /^properties\.n must be/],
    ['a bigint', { n: 1n }, /^properties\.n .* got bigint$/],
    ['a function', { f: () => 1 }, /^properties\.f .* got function$/],
    ['a symbol', { s: Symbol('s') }, /^properties\.s .* got symbol$/],
    [
      'a nested array',
      { tags: ['a', ['b']] },
      /^properties\.tags\[1\] must be a string, finite number or boolean/,
    ],
    ['an object in an array', { tags: [{}] }, /^properties\.tags\[0\]/],
    ['null in an array', { tags: ['a', 'b', null] }, /^properties\.tags\[2\] .* got null$/],
    ['an array as properties', ['a'], /^properties must be a plain object, got an array$/],
    ['a string as properties', '{"a":1}', /^properties must be a plain object/],
    [
      'a Map as properties',
      new Map([['a', 1]]),
      /^properties must be a plain object, got an object \(Map\)$/,
    ],
    ['null as properties', null, /^properties must be a plain object, got null$/],
  ])('rejects %s', (_name, properties, message) => {
    expect(() => validateProperties(properties)).toThrow(TypeError)
    expect(() => validateProperties(properties)).toThrow(message)
  })
})

describe('validatePayload', () => {
  it('keeps the defined tracking fields', () => {
    expect(validatePayload(undefined)).toEqual({})
    expect(
      validatePayload({
        pathname: '/a',
        hostname: 'example.com',
        screenWidth: 1920,
        screenHeight: 0,
        referrer: undefined,
      }),
    ).toEqual({ pathname: '/a', hostname: 'example.com', screenWidth: 1920, screenHeight: 0 })
  })

  it.each<[string, unknown, RegExp]>([
    ['not an object', 'x', /^payload must be an object of tracking fields/],
    ['an array', [], /^payload must be an object/],
    ['an unknown field', { pageTitle: 'x' }, /^payload\.pageTitle is not a tracking field/],
    ['a field the client sets itself', { site_id: '2' }, /^payload\.site_id is not a tracking field/],
    ['a number for a string field', { pathname: 1 }, /^payload\.pathname must be a string, got 1$/],
    ['null for a string field', { user_id: null }, /^payload\.user_id must be a string, got null$/],
    ['a string screen size', { screenWidth: '100' }, /^payload\.screenWidth must be a non-negative integer/],
    [
      'a fractional screen size',
      { screenHeight: 1.5 },
      /^payload\.screenHeight must be a non-negative integer/,
    ],
    ['a negative screen size', { screenHeight: -1 }, /^payload\.screenHeight must be a non-negative integer/],
  ])('rejects %s', (_name, payload, message) => {
    expect(() => validatePayload(payload)).toThrow(TypeError)
    expect(() => validatePayload(payload)).toThrow(message)
  })
})

describe('validateEventName', () => {
  it('accepts a non-blank string and rejects anything else', () => {
    expect(validateEventName('signup')).toBe('signup')
    for (const name of ['', '   ', undefined, null, 3]) {
      expect(() => validateEventName(name)).toThrow(/^eventName must be a non-empty string/)
    }
  })
})

describe('the client rejects invalid input before sending anything', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('pageview and event reject with the TypeError; fetch is never called', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch')
    const client = new Pathlight({ analyticsHost: 'http://127.0.0.1:9/api', siteId: 1, apiKey: 'k' })
    const loose = client as unknown as {
      pageview(payload: unknown): Promise<unknown>
      event(name: unknown, payload?: unknown, properties?: unknown): Promise<unknown>
    }
    await expect(loose.event('signup', {}, { plan: { name: 'pro' } })).rejects.toThrow(
      /^properties\.plan must be/,
    )
    await expect(loose.event('signup', undefined, { tags: [['nested']] })).rejects.toBeInstanceOf(TypeError)
    await expect(loose.event('', {})).rejects.toThrow(/^eventName/)
    await expect(loose.pageview({ screenWidth: 'wide' })).rejects.toThrow(/^payload\.screenWidth/)
    await expect(loose.pageview({ page: '/x' })).rejects.toThrow(/^payload\.page is not a tracking field/)
    expect(fetchSpy).not.toHaveBeenCalled()
  })
})
