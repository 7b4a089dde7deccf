/**
 * Counters of the ingest path since start: events accepted (committed), and requests not recorded,
 * by reason ('bot:crawler', 'domain_mismatch', 'excluded_ip', ...). Exposed at /api/admin/ingest-stats.
 * The requests not recorded are also counted per site (for requests that named a known site), so that
 * a site's installation page can say why its events do not arrive: this process's counts, for at most
 * {@link MAX_SITES_WITH_DROPS} sites (the least recently counted are forgotten first).
 */
import { createTtlCache } from '../shared/ttl-cache.js'

export interface IngestStats {
  accepted: number
  dropped: Record<string, number>
}

/** A site's requests not recorded since this process started. */
export interface SiteDrops {
  /** How many, in all. */
  count: number
  /** How many by reason (`reasonKey` of `outcome.ts`, e.g. `bot:headless_browser`). */
  byReason: Record<string, number>
  /** When the last one came, epoch ms. */
  lastAt: number
}

/** How many sites' drops are kept. */
export const MAX_SITES_WITH_DROPS = 10_000

/** @param clock the current time in epoch ms (for `SiteDrops.lastAt`) */
export function createIngestStats(clock: () => number = Date.now) {
  const stats: IngestStats = { accepted: 0, dropped: {} }
  const bySite = createTtlCache<number, SiteDrops>({
    ttlMs: Infinity,
    maxEntries: MAX_SITES_WITH_DROPS,
    lru: true,
  })
  return {
    accepted(count = 1) {
      stats.accepted += count
    },
    /** Count one request not recorded; `siteId` when it named a known site. */
    dropped(reason: string, siteId?: number) {
      stats.dropped[reason] = (stats.dropped[reason] ?? 0) + 1
      if (siteId === undefined) return
      const site = bySite.get(siteId) ?? { count: 0, byReason: {}, lastAt: 0 }
      site.count++
      site.byReason[reason] = (site.byReason[reason] ?? 0) + 1
      site.lastAt = clock()
      bySite.set(siteId, site)
    },
    snapshot: (): IngestStats => ({ accepted: stats.accepted, dropped: { ...stats.dropped } }),
    /** The site's drops since start, or null when none were counted (or they were forgotten). */
    siteDrops(siteId: number): SiteDrops | null {
      const site = bySite.get(siteId)
      return site ? { ...site, byReason: { ...site.byReason } } : null
    },
  }
}

export type IngestStatsCounter = ReturnType<typeof createIngestStats>
