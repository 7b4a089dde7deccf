import { describe, expect, it } from 'vitest'
import type { Incoming } from '../draft.js'
import { parsePayload } from './parse-payload.js'

const incoming = (body: unknown): Incoming => ({
  body,
  authorization: undefined,
  origin: 'https://example.com',
  referer: undefined,
  userAgent: undefined,
  ip: '203.0.113.7',
})
const refused = (fieldErrors: Record<string, string[]>, formErrors: string[]) => ({
  ok: false,
  reason: { kind: 'invalid_payload', details: { fieldErrors, formErrors } },
})

describe('parsePayload', () => {
  it('parses a JSON object, a pageview unless it says otherwise', () => {
    expect(parsePayload(incoming({ site_id: '7', pathname: '/pricing' }))).toEqual({
      ok: true,
      payload: { site_id: '7', type: 'pageview', pathname: '/pricing' },
    })
  })

  it('parses a string holding a JSON object (text/plain beacons)', () => {
    expect(parsePayload(incoming('{"site_id":7,"type":"custom_event","event_name":"signup"}'))).toEqual({
      ok: true,
      payload: { site_id: 7, type: 'custom_event', event_name: 'signup' },
    })
  })

  it.each([
    ['text that is not JSON', 'not json'],
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"a string"'],
    ['null', null],
    ['an array', [{ site_id: '7' }]],
  ])('refuses %s: the body must be a JSON object', (_name, body) => {
    expect(parsePayload(incoming(body))).toEqual(refused({}, ['Body must be a JSON object']))
  })

  it('names the field that fails the schema', () => {
    expect(parsePayload(incoming({ pathname: '/' }))).toEqual(
      refused({ site_id: ['site_id is required (a site id as string or number)'] }, []),
    )
    expect(parsePayload(incoming({ site_id: '7', type: 'click' }))).toMatchObject({
      ok: false,
      reason: { details: { fieldErrors: { type: [expect.stringMatching(/^must be one of pageview, /)] } } },
    })
  })

  it('refuses a custom event without a name, and properties that are not a JSON object', () => {
    expect(parsePayload(incoming({ site_id: '7', type: 'custom_event', event_name: ' ' }))).toEqual(
      refused({}, ['custom_event requires event_name']),
    )
    expect(parsePayload(incoming({ site_id: '7', properties: '[1]' }))).toEqual(
      refused({ properties: ['must be a JSON object (an object, or a string holding one)'] }, []),
    )
  })

  it('refuses an ip_address that is not an IPv4 or IPv6 address, and accepts an empty one', () => {
    expect(parsePayload(incoming({ site_id: '7', ip_address: '300.1.1.1' }))).toEqual(
      refused({ ip_address: ['must be an IPv4 or IPv6 address'] }, []),
    )
    expect(parsePayload(incoming({ site_id: '7', ip_address: '' }))).toMatchObject({ ok: true })
  })
})
