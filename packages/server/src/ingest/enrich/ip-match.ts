/**
 * IP exclusion lists: "does this client address match any of these addresses or CIDR ranges?".
 *
 * The entries' grammar is the protocol's (`ip-entry.ts`: what a site's settings accept).
 * Entries are compiled once (per site configuration) into integer sets and prefix tables, so a match is a
 * parse of the client address plus a set lookup and a short scan of the ranges of the same family.
 */
import { ipv4ToInt, isValidIpOrCidr, parseIpEntry } from '@pathlight/protocol'
import { parseIp } from './parse-ip.js'

export { isValidIpOrCidr }

interface Ipv4Range {
  network: number
  mask: number
}

interface Ipv6Range {
  parts: number[]
  bits: number
}

/**
 * Compiles a list of IP addresses and CIDR ranges into a matcher function.
 *
 * @param entries exact addresses ('203.0.113.7', '2001:db8::1') or CIDR ranges ('10.0.0.0/8',
 *   '2001:db8::/32', prefix 0–32 for IPv4 and 0–128 for IPv6). Surrounding whitespace is ignored; bits
 *   set after the prefix are ignored ('10.1.2.3/8' means '10.0.0.0/8'). IPv4-mapped IPv6 entries
 *   ('::ffff:203.0.113.7', '::ffff:0:0/96'...) are stored as IPv4. Entries for which
 *   {@link isValidIpOrCidr} is false are skipped, not thrown on: the lists come from stored site settings
 *   and one bad entry must not stop ingestion; validate them on input instead.
 * @returns `(ip) => boolean`: true when the client address equals an entry or lies inside a range of its
 *   family. An IPv4-mapped IPv6 client ('::ffff:203.0.113.7') is matched as IPv4; IPv6 ranges shorter than
 *   /96 do not match IPv4 clients. Invalid client strings (see `parseIp`) return false. Never throws.
 */
export function compileIpMatcher(entries: readonly string[]): (ip: string) => boolean {
  const v4Exact = new Set<number>()
  const v4Ranges: Ipv4Range[] = []
  const v6Exact = new Set<string>()
  const v6Ranges: Ipv6Range[] = []
  for (const text of entries) {
    const entry = parseIpEntry(text)
    if (entry === null) continue
    if (entry.kind === 'ipv4') {
      if (entry.bits === 32) v4Exact.add(entry.value)
      else {
        const mask = ipv4Mask(entry.bits)
        v4Ranges.push({ network: (entry.value & mask) >>> 0, mask })
      }
    } else if (entry.bits === 128) v6Exact.add(entry.parts.join(':'))
    else v6Ranges.push({ parts: entry.parts, bits: entry.bits })
  }
  const hasV4 = v4Exact.size > 0 || v4Ranges.length > 0
  const hasV6 = v6Exact.size > 0 || v6Ranges.length > 0
  if (!hasV4 && !hasV6) return () => false

  return (ip: string): boolean => {
    const address = parseIp(ip)
    if (address === null) return false
    if ('octets' in address) {
      if (!hasV4) return false
      const value = ipv4ToInt(address.octets)
      if (v4Exact.has(value)) return true
      for (const range of v4Ranges) if ((value & range.mask) >>> 0 === range.network) return true
      return false
    }
    if (!hasV6) return false
    const parts = address.parts
    if (v6Exact.has(parts.join(':'))) return true
    for (const range of v6Ranges) if (ipv6PrefixEquals(parts, range.parts, range.bits)) return true
    return false
  }
}

/** Netmask of an IPv4 prefix length as an unsigned 32-bit integer (/0 → 0, /24 → 0xffffff00). */
function ipv4Mask(bits: number): number {
  return bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0
}

/** Whether the first `bits` bits of two addresses (eight 16-bit groups each) are equal. */
function ipv6PrefixEquals(a: readonly number[], b: readonly number[], bits: number): boolean {
  const whole = bits >>> 4
  for (let i = 0; i < whole; i++) if (a[i] !== b[i]) return false
  const rest = bits & 15
  if (rest === 0) return true
  const mask = (0xffff << (16 - rest)) & 0xffff
  return ((a[whole] ?? 0) & mask) === ((b[whole] ?? 0) & mask)
}
