import { describe, expect, it } from 'vitest'
import { parseIp } from './parse-ip.js'

describe('parseIp', () => {
  it.each([
    ['192.0.2.1', 'ipv4', '192.0.2.1'],
    [' 192.0.2.1 ', 'ipv4', '192.0.2.1'],
    ['0.0.0.0', 'ipv4', '0.0.0.0'],
    ['255.255.255.255', 'ipv4', '255.255.255.255'],
    ['2001:db8::1', 'ipv6', '2001:db8::1'],
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', 'ipv6', '2001:db8::1'],
    ['::1', 'ipv6', '::1'],
    ['fe80::1%eth0', 'ipv6', 'fe80::1%eth0'],
    ['::ffff:192.0.2.1', 'ipv4', '192.0.2.1'],
    ['::FFFF:c000:0201', 'ipv4', '192.0.2.1'],
  ])('parses %j as %s %s', (input, kind, text) => {
    const address = parseIp(input)
    expect(address?.kind()).toBe(kind)
    expect(address?.toString()).toBe(text)
  })

  it.each([
    '',
    ' ',
    'garbage',
    '10',
    '1.2.3',
    '010.0.0.1',
    '0x7f.0.0.1',
    '256.1.1.1',
    '1.2.3.4.5',
    '1.2.3.4:80',
    '[::1]',
    '[::1]:443',
    '2001:db8::1::2',
    '::ffff:1.2.3',
    '192.0.2.0/24',
  ])('rejects %j', (input) => {
    expect(parseIp(input)).toBeNull()
  })
})
