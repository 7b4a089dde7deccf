/**
 * The start-up warning about an unset `BASE_URL` on a server that other machines can reach.
 *
 * Without `BASE_URL` the service builds the links of its e-mails and checks a password reset's
 * `redirectTo` against the request's own `Host` header, which a client chooses: served beyond loopback,
 * a forged `Host` makes those checks pass for a foreign origin. On loopback only this machine's own
 * clients can reach the port, so the default is harmless there.
 */
import ipaddr from 'ipaddr.js'

/**
 * Whether `host` (the `HOST` setting the server listens on) accepts connections from this machine only:
 * `localhost`, or an IPv4 or IPv6 loopback address (`127.0.0.0/8`, `::1`, `::ffff:127.0.0.1`).
 * A wildcard (`0.0.0.0`, `::`), any other address and any other host name count as beyond loopback.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1')
  if (bare.toLowerCase() === 'localhost') return true
  if (!ipaddr.isValid(bare)) return false
  return ipaddr.process(bare).range() === 'loopback'
}

/**
 * @param config `host` (HOST) and whether `BASE_URL` was set
 * @returns the warning to print at start, or null when `BASE_URL` is set or the server listens on
 *   loopback only
 */
export function baseUrlWarning(config: { host: string; baseUrlConfigured: boolean }): string | null {
  if (config.baseUrlConfigured || isLoopbackHost(config.host)) return null
  return (
    `Warning: BASE_URL is not set while HOST=${config.host} serves beyond this machine: links in ` +
    "e-mails and password reset redirects are then checked against each request's own Host header, " +
    'which a client can forge. Set BASE_URL to the public URL (e.g. https://analytics.example.com).'
  )
}
