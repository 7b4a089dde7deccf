import type { Draft } from '../draft.js'
import { ok, reject, type StageResult } from '../outcome.js'

/**
 * Domain check for keyless requests: the Origin header's host, else the Referer's,
 * else the body's hostname, must be the site's domain or a subdomain of it (`www.` folded on both sides).
 * A request naming no host at all is refused too: a browser always sends one of them.
 */
export function checkDomain(draft: Draft): StageResult {
  if (draft.authenticated) return ok
  const host =
    hostOf(draft.incoming.origin) ??
    hostOf(draft.incoming.referer) ??
    normalizeHost(draft.payload.hostname ?? '')
  return host !== '' && isSameSite(host, draft.site.domain) ? ok : reject({ kind: 'domain_mismatch', host })
}

/** True when `host` is `domain` or a subdomain of it, ignoring a leading `www.` on either. */
export function isSameSite(host: string, domain: string): boolean {
  const h = stripWww(normalizeHost(host))
  const d = stripWww(normalizeHost(domain))
  return h === d || h.endsWith(`.${d}`)
}

function hostOf(url: string | undefined): string | undefined {
  if (!url || url === 'null') return undefined
  try {
    return normalizeHost(new URL(url).hostname)
  } catch {
    return undefined
  }
}

const normalizeHost = (host: string) => host.trim().toLowerCase().replace(/\.$/, '')
const stripWww = (host: string) => (host.startsWith('www.') ? host.slice(4) : host)
