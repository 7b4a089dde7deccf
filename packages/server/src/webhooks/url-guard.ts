/**
 * Server-side request forgery guard for webhook URLs: only http(s), and the host must resolve to
 * public unicast addresses only: loopback, private (RFC 1918, ULA), link-local (incl. the cloud metadata
 * address 169.254.169.254), CGNAT, multicast and other special ranges are refused unless the operator
 * set WEBHOOKS_ALLOW_PRIVATE=true. An IPv6 address that carries an IPv4 address (IPv4-mapped,
 * IPv4-compatible, IPv4-translated, NAT64, 6to4, Teredo, ISATAP) is judged by that IPv4 address, since
 * a host or relay on the way delivers to it; the local-use NAT64 prefix `64:ff9b:1::/48` is refused
 * whole, as its translation is the local network's own. The check runs when a webhook is saved and
 * again at each delivery (the literal host, or inside its DNS lookup: `guardedLookup`), so a name that
 * later resolves to a private address is still refused.
 */
import dns from 'node:dns'
import type { LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'

export class UnsafeWebhookUrlError extends Error {}

/**
 * True for an address webhooks may be sent to: public unicast, and for an IPv6 address that embeds an
 * IPv4 address, that IPv4 address public too. Accepts any address `ipaddr.js` parses (dotted IPv4, any
 * IPv6 notation); anything else is false.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  const parsed = ipaddr.parse(address)
  if (parsed.kind() === 'ipv4') return isPublicIPv4(parsed as ipaddr.IPv4)
  const v6 = parsed as ipaddr.IPv6
  if (v6.match(LOCAL_USE_NAT64)) return false
  const range = v6.range()
  if (TRANSITION_RANGES.has(range)) return embeddedIPv4(v6).every(isPublicIPv4)
  return range === 'unicast' && embeddedIPv4(v6).every(isPublicIPv4)
}

const isPublicIPv4 = (address: ipaddr.IPv4) => address.range() === 'unicast'

/** Ranges whose addresses are only ways to reach the IPv4 address they carry. */
const TRANSITION_RANGES: ReadonlySet<string> = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052', '6to4', 'teredo'])

/** `64:ff9b:1::/48` (RFC 8215): NAT64 for a network's own use, translated as that network decides. */
const LOCAL_USE_NAT64 = ipaddr.parseCIDR('64:ff9b:1::/48') as [ipaddr.IPv6, number]

/** The IPv4 address of four bytes of an IPv6 address, from `offset` (a byte index). */
const ipv4At = (bytes: number[], offset: number) => new ipaddr.IPv4(bytes.slice(offset, offset + 4))

/**
 * The IPv4 addresses an IPv6 address carries, by the forms that deliver to them: IPv4-mapped
 * (`::ffff:a.b.c.d`), IPv4-translated (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::/96`), 6to4
 * (`2002:AABB:CCDD::/48`), Teredo (`2001::/32`: its server and its client, whose address is stored
 * inverted), IPv4-compatible (`::a.b.c.d`: the first 96 bits zero) and ISATAP (interface identifier
 * `0000:5efe` or `0200:5efe`, the u/g bits aside, then the IPv4). Empty for any other address.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const bytes = address.toByteArray()
  const words = address.parts
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return [ipv4At(bytes, 12)]
    case '6to4':
      return [ipv4At(bytes, 2)]
    case 'teredo':
      return [ipv4At(bytes, 4), new ipaddr.IPv4(bytes.slice(12, 16).map((byte) => byte ^ 0xff))]
  }
  const ipv4Compatible = words.slice(0, 6).every((word) => word === 0)
  const isatap = ((words[4] ?? 0) & 0xfcff) === 0 && words[5] === 0x5efe
  return ipv4Compatible || isatap ? [ipv4At(bytes, 12)] : []
}

/**
 * Check a URL's form and, unless `allowPrivate`, where its host resolves.
 * @throws UnsafeWebhookUrlError with a message for the user
 */
export async function checkWebhookUrl(url: string, options: { allowPrivate: boolean }): Promise<URL> {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new UnsafeWebhookUrlError('must be an absolute http(s) URL')
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UnsafeWebhookUrlError('must use http or https')
  }
  if (parsed.username || parsed.password) throw new UnsafeWebhookUrlError('must not contain credentials')
  if (options.allowPrivate) return parsed
  const host = parsed.hostname.replace(/^\[|\]$/g, '')
  const addresses = ipaddr.isValid(host)
    ? [host]
    : await dns.promises
        .lookup(host, { all: true, verbatim: true })
        .then((found) => found.map((a) => a.address))
        .catch(() => {
          throw new UnsafeWebhookUrlError(`host ${host} does not resolve`)
        })
  const blocked = addresses.find((address) => !isPublicAddress(address))
  if (blocked !== undefined) {
    throw new UnsafeWebhookUrlError(`resolves to a private, loopback or link-local address (${blocked})`)
  }
  return parsed
}

/** A `lookup` for node:http(s) that refuses non-public addresses at connect time. */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0)
      const list = addresses as unknown as dns.LookupAddress[]
      const bad = allowPrivate ? undefined : list.find((a) => !isPublicAddress(a.address))
      if (bad)
        return callback(new UnsafeWebhookUrlError(`refused: ${hostname} resolves to ${bad.address}`), '', 0)
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list)
      const first = list[0]
      if (!first) return callback(new Error(`no address for ${hostname}`), '', 0)
      callback(null, first.address, first.family)
    })
  }
}
