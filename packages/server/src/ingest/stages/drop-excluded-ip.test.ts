import { describe, expect, it } from 'vitest'
import { stageDraft } from '../draft.fixture.js'
import { dropExcludedIp } from './drop-excluded-ip.js'

const EXCLUDED = ['203.0.113.7', '198.51.100.0/24', '2001:db8::1', '2001:db8:ff::/48']
const from = (ip: string, excludedIps = EXCLUDED) =>
  dropExcludedIp(stageDraft({ site: { excludedIps }, incoming: { ip } }))
const dropped = { ok: false, reason: { kind: 'excluded_ip' } }

describe('dropExcludedIp', () => {
  it.each([
    ['an exact IPv4 address', '203.0.113.7'],
    ['an address in an IPv4 range', '198.51.100.200'],
    ['an IPv4-mapped IPv6 address in an IPv4 range', '::ffff:198.51.100.9'],
    ['an exact IPv6 address', '2001:db8::1'],
    ['the same IPv6 address written out', '2001:0db8:0000:0000:0000:0000:0000:0001'],
    ['an address in an IPv6 range', '2001:db8:ff:1::42'],
  ])('does not record an event from %s', (_name, ip) => {
    expect(from(ip)).toEqual(dropped)
  })

  it.each([
    ['a neighbour of an exact address', '203.0.113.8'],
    ['an address just outside an IPv4 range', '198.51.101.1'],
    ['an address just outside an IPv6 range', '2001:db8:100::1'],
  ])('records an event from %s', (_name, ip) => {
    expect(from(ip)).toEqual({ ok: true })
  })

  it('records every event on a site excluding no address', () => {
    expect(from('203.0.113.7', [])).toEqual({ ok: true })
  })
})
