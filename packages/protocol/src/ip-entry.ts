/**
 * The grammar of an IP exclusion entry (a site's `excludedIPs`): an address or a CIDR range, as the
 * configuration body accepts it and the server's matcher compiles it.
 */
import ipaddr from 'ipaddr.js'

/** A parsed entry: an IPv4 address as an unsigned 32-bit integer or IPv6 as eight 16-bit groups. */
export type IpEntry =
  | { kind: 'ipv4'; value: number; bits: number }
  | { kind: 'ipv6'; parts: number[]; bits: number }

const PREFIX_PATTERN = /^(0|[1-9]\d{0,2})$/

/**
 * Tells whether a string is an IP address or CIDR range that `parseIpEntry` accepts, for validating
 * settings before they are stored.
 *
 * Accepted: four-part dotted-decimal IPv4 without leading zeros, any RFC 4291 IPv6 text form without zone
 * id, each optionally followed by '/prefix' (decimal without leading zeros, ≤ 32 for IPv4, ≤ 128 for
 * IPv6). Surrounding whitespace is ignored. Never throws.
 */
export function isValidIpOrCidr(entry: string): boolean {
  return parseIpEntry(entry) !== null
}

/**
 * An entry as an address family, its value and its prefix length (32 or 128 for an address); IPv4-mapped
 * IPv6 entries with a prefix of 96 or more as IPv4. Null for text `isValidIpOrCidr` refuses. Never throws.
 */
export function parseIpEntry(raw: string): IpEntry | null {
  const text = raw.trim()
  const slash = text.indexOf('/')
  const addressText = slash === -1 ? text : text.slice(0, slash)
  const prefixText = slash === -1 ? null : text.slice(slash + 1)
  if (addressText.includes('%')) return null
  let bits: number | null = null
  if (prefixText !== null) {
    if (!PREFIX_PATTERN.test(prefixText)) return null
    bits = Number(prefixText)
  }
  if (ipaddr.IPv4.isValidFourPartDecimal(addressText)) {
    if (bits !== null && bits > 32) return null
    return { kind: 'ipv4', value: ipv4ToInt(ipaddr.IPv4.parse(addressText).octets), bits: bits ?? 32 }
  }
  if (!ipaddr.IPv6.isValid(addressText)) return null
  if (bits !== null && bits > 128) return null
  const v6 = ipaddr.IPv6.parse(addressText)
  const v6Bits = bits ?? 128
  if (v6.isIPv4MappedAddress() && v6Bits >= 96) {
    return { kind: 'ipv4', value: ipv4ToInt(v6.toIPv4Address().octets), bits: v6Bits - 96 }
  }
  return { kind: 'ipv6', parts: v6.parts.slice(), bits: v6Bits }
}

/** Four octets as an unsigned 32-bit integer. */
export function ipv4ToInt(octets: readonly number[]): number {
  return (
    (((octets[0] ?? 0) << 24) | ((octets[1] ?? 0) << 16) | ((octets[2] ?? 0) << 8) | (octets[3] ?? 0)) >>> 0
  )
}
