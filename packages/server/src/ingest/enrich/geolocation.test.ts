import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GEO_ATTRIBUTION, GEO_ATTRIBUTION_URL, type Geolocator, openGeolocator } from './geolocation.js'

/**
 * Distinct client IPs of five public access logs with the DB-IP Lite *country* database's answer and the
 * RIR/WHOIS one (see test-data/README.md). The city database is a different DB-IP product and edition,
 * so a few answers may differ.
 */
interface ReferenceRow {
  ip: string
  dbipCountry: string
  rirCountry: string
}

function loadReference(): ReferenceRow[] {
  const file = new URL('../../../test-data/ip-country-reference.tsv', import.meta.url)
  const [header, ...lines] = readFileSync(file, 'utf8').trimEnd().split('\n')
  expect(header).toBe('file\tip\trequests\tdbip_country\trir_country')
  return lines.map((line) => {
    const [, ip = '', , dbipCountry = '', rirCountry = ''] = line.split('\t')
    return { ip, dbipCountry, rirCountry }
  })
}

describe.each(['disk', 'memory'] as const)('openGeolocator with the DB-IP city databases (%s)', (storage) => {
  let geo: Geolocator

  beforeAll(async () => {
    geo = await openGeolocator(undefined, storage)
  })

  afterAll(() => {
    geo.close()
  })

  it('agrees with the DB-IP country reference on at least 97% of 3,768 log IPs', () => {
    const rows = loadReference()
    let agree = 0
    let agreeRir = 0
    const differences: string[] = []
    for (const row of rows) {
      const country = geo.lookup(row.ip)?.country ?? ''
      if (country === row.dbipCountry) agree++
      else differences.push(`${row.ip} ${row.dbipCountry}→${country || '∅'}`)
      if (country === row.rirCountry) agreeRir++
    }
    const share = agree / rows.length
    console.log(
      `geolocation: ${agree}/${rows.length} = ${(100 * share).toFixed(2)}% agree with DB-IP country, ` +
        `${((100 * agreeRir) / rows.length).toFixed(2)}% with RIR; differences: ${differences.join(', ')}`,
    )
    expect(rows.length).toBeGreaterThanOrEqual(200)
    expect(share).toBeGreaterThanOrEqual(0.97)
  })

  it('locates 8.8.8.8 in the United States with coordinates', () => {
    const location = geo.lookup('8.8.8.8')
    expect(location?.country).toBe('US')
    expect(location?.region).not.toBe('')
    expect(location?.city).not.toBe('')
    expect(location?.lat).toBeGreaterThanOrEqual(-90)
    expect(location?.lat).toBeLessThanOrEqual(90)
    expect(location?.lon).toBeGreaterThanOrEqual(-180)
    expect(location?.lon).toBeLessThanOrEqual(180)
    // Rounded to 4 decimals: no float32 noise such as 37.422000885009766.
    expect(String(location?.lat).split('.')[1]?.length ?? 0).toBeLessThanOrEqual(4)
  })

  it('looks IPv6 addresses up in the IPv6 database', () => {
    // Both from the reference file (an OVH and a Linode address in the basjes log).
    expect(geo.lookup('2001:41d0:8:f69::1')?.country).toBe('FR')
    expect(geo.lookup('2400:8900::f03c:91ff:fe50:5089')?.country).toBe('JP')
    expect(geo.lookup('2400:8900:0000:0000:f03c:91ff:fe50:5089')?.country).toBe('JP')
  })

  it('looks IPv4-mapped IPv6 addresses up as IPv4', () => {
    const plain = geo.lookup('8.8.8.8')
    expect(plain).not.toBeNull()
    expect(geo.lookup('::ffff:8.8.8.8')).toEqual(plain)
    expect(geo.lookup('::ffff:808:808')).toEqual(plain)
  })

  it('returns null for strings that are not IP addresses, without throwing', () => {
    for (const input of [
      '',
      ' ',
      'garbage',
      '8.8.8',
      '8.8.8.8.8',
      '010.8.8.8',
      '8.8.8.8:53',
      '[::1]',
      '::g',
    ]) {
      expect(geo.lookup(input)).toBeNull()
    }
  })

  it('returns null for private, loopback and other special-purpose addresses', () => {
    const special = [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.1.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '192.0.2.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456:789a::1',
      'ff02::1',
      '2001:db8::1',
      '::ffff:127.0.0.1',
      '::ffff:192.168.0.1',
    ]
    for (const ip of special) expect(geo.lookup(ip), ip).toBeNull()
  })

  it('exports the DB-IP attribution', () => {
    expect(GEO_ATTRIBUTION).toBe('IP Geolocation by DB-IP')
    expect(GEO_ATTRIBUTION_URL).toBe('https://db-ip.com')
  })

  // Runs last in this block (tests run in order); afterAll's second close() is a no-op.
  it('returns null after close', () => {
    expect(geo.lookup('8.8.8.8')?.country).toBe('US')
    geo.close()
    expect(geo.lookup('8.8.8.8')).toBeNull()
  })
})

describe('openGeolocator on disk and in memory', () => {
  it('answers the same for the reference IPs and 20,000 random IPv4 and IPv6 addresses', async () => {
    const disk = await openGeolocator(undefined, 'disk')
    const memory = await openGeolocator(undefined, 'memory')
    let next = 35
    const random = () => {
      next = (Math.imul(next, 1664525) + 1013904223) >>> 0
      return next
    }
    const v6Prefixes = ['2001', '2400', '2600', '2607', '2800', '2a00', '2a02', '2c0f']
    const ips = [
      ...loadReference().map((row) => row.ip),
      ...Array.from({ length: 10_000 }, () =>
        [random() >>> 24, random() >>> 24, random() >>> 24, random() >>> 24].join('.'),
      ),
      ...Array.from({ length: 10_000 }, () =>
        [
          v6Prefixes[(random() >>> 16) % v6Prefixes.length],
          ...Array.from({ length: 7 }, () => (random() >>> 16).toString(16)),
        ].join(':'),
      ),
    ]
    let located = 0
    for (const ip of ips) {
      const expected = memory.lookup(ip)
      expect(disk.lookup(ip), ip).toEqual(expected)
      if (expected?.city) located++
    }
    // The sample must mostly reach city records, or agreeing on nulls would prove little.
    expect(located / ips.length).toBeGreaterThan(0.5)
    disk.close()
    memory.close()
  })
})

describe('openGeolocator with custom paths', () => {
  it.each(['disk', 'memory'] as const)('rejects when a file is missing (%s)', async (storage) => {
    const missing = '/nonexistent/pathlight-test.mmdb'
    await expect(openGeolocator({ ipv4: missing, ipv6: missing }, storage)).rejects.toThrow()
  })
})
