/**
 * What the ingest pipeline needs to know of a site, compiled once per cache fill: switches, the
 * excluded-IP matcher and the excluded-country set. `createSiteLookup` caches these for `ttlMs`
 * (default 2 s) so the hot path reads the metadata store at most once per site per TTL;
 * `invalidate(siteId)` drops an entry at once after a local change.
 */

import type { Clock } from '../shared/time.js'
import { systemClock } from '../shared/time.js'
import type { SiteRow } from '../sites/site.js'
import { toBool } from '../storage/metadata/schema.js'
import { compileIpMatcher } from './enrich/ip-match.js'

export interface IngestSite {
  siteId: number
  organizationId: string
  domain: string
  blockBots: boolean
  saltUserIds: boolean
  trackUrlParams: boolean
  trackOutbound: boolean
  trackErrors: boolean
  webVitals: boolean
  isExcludedIp: (ip: string) => boolean
  excludedCountries: ReadonlySet<string>
  /** Pageviews per calendar month (UTC); null = unlimited. */
  monthlyPageviewLimit: number | null
}

/** Compile a metadata row into an IngestSite. Malformed stored JSON lists count as empty. */
export function toIngestSite(row: SiteRow): IngestSite {
  return {
    siteId: row.site_id,
    organizationId: row.organization_id,
    domain: row.domain,
    blockBots: toBool(row.block_bots),
    saltUserIds: toBool(row.salt_user_ids),
    trackUrlParams: toBool(row.track_url_params),
    trackOutbound: toBool(row.track_outbound),
    trackErrors: toBool(row.track_errors),
    webVitals: toBool(row.web_vitals),
    isExcludedIp: compileIpMatcher(parseStringList(row.excluded_ips)),
    excludedCountries: new Set(parseStringList(row.excluded_countries).map((c) => c.toUpperCase())),
    monthlyPageviewLimit: row.monthly_pageview_limit === null ? null : Number(row.monthly_pageview_limit),
  }
}

function parseStringList(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json)
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
  } catch {
    return []
  }
}

export interface SiteLookup {
  get(siteId: number): Promise<IngestSite | null>
  invalidate(siteId: number): void
}

/** A cached lookup over `load` (usually `findSite` on the metadata store). */
export function createSiteLookup(
  load: (siteId: number) => Promise<SiteRow | undefined>,
  options: { ttlMs?: number; clock?: Clock } = {},
): SiteLookup {
  const ttl = options.ttlMs ?? 2000
  const clock = options.clock ?? systemClock
  const cache = new Map<number, { site: IngestSite | null; expires: number }>()
  return {
    async get(siteId) {
      const now = clock()
      const hit = cache.get(siteId)
      if (hit && hit.expires > now) return hit.site
      const row = await load(siteId)
      const site = row ? toIngestSite(row) : null
      if (cache.size > 50_000) cache.clear()
      cache.set(siteId, { site, expires: now + ttl })
      return site
    },
    invalidate(siteId) {
      cache.delete(siteId)
    },
  }
}
