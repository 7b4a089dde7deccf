/**
 * Strict parsing of a client IP address string, shared by the geolocation and IP-exclusion modules.
 */
import ipaddr from 'ipaddr.js'

/**
 * Parses a client IP address (as taken from the socket or a proxy header) into an ipaddr.js address.
 *
 * - IPv4 must be four-part dotted decimal without leading zeros ('192.0.2.1'); the legacy forms that
 *   ipaddr.js and `inet_aton` also accept ('10', '1.2.3', '0x7f.1', octal '010.0.0.1') are rejected, so
 *   that no string can be read as a different address than a person would.
 * - IPv6 in any RFC 4291 text form, optionally with a zone id ('fe80::1%eth0').
 * - An IPv4-mapped IPv6 address ('::ffff:192.0.2.1', '::ffff:c000:201') is returned as its IPv4 address.
 * - Surrounding whitespace is ignored; brackets and ports ('[::1]:443', '1.2.3.4:80') are not accepted.
 *
 * @returns the parsed address, or `null` when the string is not a valid address. Never throws.
 */
export function parseIp(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const text = ip.trim()
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text)
  if (!ipaddr.IPv6.isValid(text)) return null
  const v6 = ipaddr.IPv6.parse(text)
  return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6
}
