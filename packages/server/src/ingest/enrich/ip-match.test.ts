import { describe, expect, it } from 'vitest'
import { compileIpMatcher, isValidIpOrCidr } from './ip-match.js'

describe('compileIpMatcher', () => {
  it('matches exact IPv4 addresses', () => {
    const match = compileIpMatcher(['203.0.113.7', '198.51.100.1'])
    expect(match('203.0.113.7')).toBe(true)
    expect(match('198.51.100.1')).toBe(true)
    expect(match('203.0.113.8')).toBe(false)
    expect(match('2001:db8::1')).toBe(false)
  })

  it('matches IPv4 CIDR ranges at their edges', () => {
    const match = compileIpMatcher(['10.0.0.0/8', '192.168.1.0/24', '172.16.0.0/12'])
    expect(match('10.0.0.0')).toBe(true)
    expect(match('10.255.255.255')).toBe(true)
    expect(match('11.0.0.0')).toBe(false)
    expect(match('9.255.255.255')).toBe(false)
    expect(match('192.168.1.42')).toBe(true)
    expect(match('192.168.2.1')).toBe(false)
    expect(match('172.31.255.255')).toBe(true)
    expect(match('172.32.0.0')).toBe(false)
  })

  it.each([
    [0, '255.255.255.255', true],
    [1, '127.255.255.255', false],
    [1, '128.0.0.0', true],
    [16, '203.0.255.255', true],
    [16, '203.1.0.0', false],
    [31, '203.0.113.6', true],
    [31, '203.0.113.7', true],
    [31, '203.0.113.8', false],
    [32, '203.0.113.7', true],
    [32, '203.0.113.6', false],
  ])('applies an IPv4 /%i prefix to %s (base 203.0.113.7 / 128.0.0.0 for /1)', (bits, ip, result) => {
    const base = bits === 1 ? '128.0.0.0' : '203.0.113.7'
    expect(compileIpMatcher([`${base}/${bits}`])(ip)).toBe(result)
  })

  it('ignores host bits after the prefix', () => {
    expect(compileIpMatcher(['10.1.2.3/8'])('10.200.0.1')).toBe(true)
  })

  it('matches exact IPv6 addresses in any notation', () => {
    const match = compileIpMatcher(['2001:db8::1'])
    expect(match('2001:db8::1')).toBe(true)
    expect(match('2001:0db8:0000:0000:0000:0000:0000:0001')).toBe(true)
    expect(match('2001:DB8::1')).toBe(true)
    expect(match('2001:db8::2')).toBe(false)
    expect(match('0.0.0.1')).toBe(false)
  })

  it.each([
    ['2001:db8::/32', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['2001:db8::/32', '2001:db9::', false],
    ['2001:db8:abcd::/48', '2001:db8:abcd:12::1', true],
    ['2001:db8:abcd::/48', '2001:db8:abce::1', false],
    ['2001:db8::/33', '2001:db8:7fff::1', true],
    ['2001:db8::/33', '2001:db8:8000::1', false],
    ['::/0', '2a00:1450:4001:80b::200e', true],
    ['2001:db8::1/128', '2001:db8::1', true],
    ['2001:db8::1/128', '2001:db8::2', false],
    ['2001:db8::1/127', '2001:db8::', true],
    ['2001:db8::1/127', '2001:db8::2', false],
  ])('applies IPv6 range %s to %s', (range, ip, result) => {
    expect(compileIpMatcher([range])(ip)).toBe(result)
  })

  it('matches IPv4-mapped IPv6 clients against IPv4 entries', () => {
    const match = compileIpMatcher(['203.0.113.7', '10.0.0.0/8'])
    expect(match('::ffff:203.0.113.7')).toBe(true)
    expect(match('::ffff:cb00:7107')).toBe(true)
    expect(match('::ffff:10.9.8.7')).toBe(true)
    expect(match('::ffff:203.0.113.8')).toBe(false)
  })

  it('stores IPv4-mapped IPv6 entries as IPv4', () => {
    expect(compileIpMatcher(['::ffff:203.0.113.7'])('203.0.113.7')).toBe(true)
    expect(compileIpMatcher(['::ffff:10.0.0.0/104'])('10.1.2.3')).toBe(true)
    expect(compileIpMatcher(['::ffff:10.0.0.0/104'])('11.1.2.3')).toBe(false)
    expect(compileIpMatcher(['::ffff:0:0/96'])('198.51.100.1')).toBe(true)
  })

  it('does not match across address families', () => {
    expect(compileIpMatcher(['::/0'])('203.0.113.7')).toBe(false)
    expect(compileIpMatcher(['0.0.0.0/0'])('2001:db8::1')).toBe(false)
  })

  it('returns false for invalid client addresses', () => {
    const match = compileIpMatcher(['0.0.0.0/0', '::/0'])
    for (const ip of ['', 'garbage', '10', '1.2.3', '010.0.0.1', '1.2.3.4:80', '[::1]', '300.1.1.1']) {
      expect(match(ip)).toBe(false)
    }
    expect(match('1.2.3.4')).toBe(true)
  })

  it('skips invalid entries and trims valid ones', () => {
    const match = compileIpMatcher(['nonsense', '10.0.0.0/33', '  192.0.2.1  ', '2001:db8::/129'])
    expect(match('192.0.2.1')).toBe(true)
    expect(match('10.0.0.1')).toBe(false)
    expect(match('2001:db8::1')).toBe(false)
  })

  it('matches nothing with an empty list', () => {
    expect(compileIpMatcher([])('192.0.2.1')).toBe(false)
  })

  it('matches quickly against a long list', () => {
    const entries = Array.from({ length: 1_000 }, (_, i) => `10.${i >> 8}.${i & 255}.0/24`)
    const match = compileIpMatcher(entries)
    const start = performance.now()
    let hits = 0
    // 10.3.0.0/24 … 10.3.231.0/24 are in the list (entries 768–999), 10.3.232.0 … 10.3.255.0 are not.
    for (let i = 0; i < 10_240; i++) if (match(`10.3.${i & 255}.1`)) hits++
    expect(hits).toBe(40 * 232)
    expect(performance.now() - start).toBeLessThan(2_000)
  })
})

describe('isValidIpOrCidr', () => {
  it.each([
    '192.0.2.1',
    '0.0.0.0/0',
    '10.0.0.0/8',
    '203.0.113.7/32',
    ' 10.0.0.0/8 ',
    '2001:db8::1',
    '::/0',
    '2001:db8::/32',
    '::1/128',
    '::ffff:192.0.2.1',
  ])('accepts %j', (entry) => {
    expect(isValidIpOrCidr(entry)).toBe(true)
  })

  it.each([
    '',
    'garbage',
    '10',
    '10.0.0',
    '010.0.0.1',
    '256.0.0.0',
    '10.0.0.0/33',
    '10.0.0.0/',
    '10.0.0.0/08',
    '10.0.0.0/-1',
    '10.0.0.0/8/8',
    '2001:db8::/129',
    'fe80::1%eth0',
    '[::1]',
    '10.0.0.0 /8',
  ])('rejects %j', (entry) => {
    expect(isValidIpOrCidr(entry)).toBe(false)
  })
})
