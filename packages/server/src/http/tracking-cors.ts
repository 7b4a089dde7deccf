/**
 * CORS of the tracking routes for credentialed requests. Rybbit's web SDK sends `navigator.sendBeacon`,
 * which always carries credentials; browsers refuse `Access-Control-Allow-Origin: *` for those. So a
 * request whose Origin is the site's domain (or a subdomain, `www.` folded) gets that Origin echoed with
 * `Access-Control-Allow-Credentials: true` (and `Vary: Origin`); any other answer stays `*` without
 * credentials. These routes read no cookies, so allowing credentials exposes nothing: the answers hold
 * nothing secret either way.
 */
import type { FastifyReply } from 'fastify'
import { isSameSite } from '../ingest/stages/check-domain.js'
import { createTtlCache } from '../shared/ttl-cache.js'
import type { MetadataDb } from '../storage/metadata/db.js'

/** The host of an `http(s)` Origin header, lower case; undefined for anything else (`null`, junk). */
export function originHost(origin: string | undefined): string | undefined {
  if (!origin || origin === 'null') return undefined
  try {
    const url = new URL(origin)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname.toLowerCase() : undefined
  } catch {
    return undefined
  }
}

/** True when `origin` is an http(s) origin on `domain` or one of its subdomains. */
export function isSiteOrigin(origin: string | undefined, domain: string): boolean {
  const host = originHost(origin)
  return host !== undefined && isSameSite(host, domain)
}

/**
 * Set the CORS headers of an answer: `origin` echoed with credentials allowed when `allowed`, else `*`.
 */
export function setTrackingCors(reply: FastifyReply, origin: string | undefined, allowed: boolean): void {
  reply.header('vary', 'Origin')
  if (allowed && origin) {
    reply.header('access-control-allow-origin', origin).header('access-control-allow-credentials', 'true')
  } else {
    reply.header('access-control-allow-origin', '*')
  }
}

/**
 * Whether an Origin belongs to some site of the instance (for preflights, which carry no site id):
 * the host or one of its parent domains (`a.b.shop.com` -> `b.shop.com`, `shop.com`), with and without
 * `www.`, is a site's domain. Answers are cached 60 s per host (at most 10,000 hosts).
 */
export function createSiteOriginCheck(db: MetadataDb): (origin: string | undefined) => Promise<boolean> {
  const known = createTtlCache<string, boolean>({ ttlMs: 60_000, maxEntries: 10_000, lru: true })
  const lookup = async (host: string) => {
    const labels = host.replace(/^www\./, '').split('.')
    const candidates: string[] = []
    for (let i = 0; i < labels.length - 1 || i === 0; i++) {
      const domain = labels.slice(i).join('.')
      candidates.push(domain, `www.${domain}`)
    }
    const row = await db
      .selectFrom('site')
      .select('site_id')
      .where('domain', 'in', candidates)
      .executeTakeFirst()
    return row !== undefined
  }
  return async (origin) => {
    const host = originHost(origin)
    if (host === undefined) return false
    return known.load(host, lookup)
  }
}
