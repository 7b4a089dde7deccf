/**
 * Server-side request forgery guard for webhook URLs: only http(s), and the host must resolve to
 * public unicast addresses only: loopback, private (RFC 1918, ULA), link-local (incl. the cloud metadata
 * address 169.254.169.254), CGNAT, multicast and other special ranges are refused unless the operator
 * set WEBHOOKS_ALLOW_PRIVATE=true. The check runs when a webhook is saved and again inside each delivery's
 * DNS lookup (`guardedLookup`), so a name that later resolves to a private address is still refused.
 */
import dns from 'node:dns'
import type { LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'

export class UnsafeWebhookUrlError extends Error {}

/** True for an address webhooks may be sent to (public unicast). IPv4-mapped IPv6 counts as its IPv4. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  let parsed = ipaddr.parse(address)
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address()
  }
  return parsed.range() === 'unicast'
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
