/**
 * What the ingest pipeline needs to know of a site, compiled once per cache fill: switches, the
 * excluded-IP matcher and the excluded-country set. `createSiteLookup` caches these for `ttlMs`
 * (default 2 s) so the hot path reads the metadata store at most once per site per TTL;
 * `invalidate(siteId)` drops an entry at once, as does a site change announced on `changes` (changes
 * made through other processes arrive within the TTL).
 */

import type { ChangeFeed } from '../shared/change-feed.js'
import type { Clock } from '../shared/time.js'
import { createTtlCache } from '../shared/ttl-cache.js'
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
  /** Rybbit's interaction types (`button_click`, `copy`, `form_submit` and `input_change`). */
  trackButtonClicks: boolean
  trackCopy: boolean
  trackFormInteractions: boolean
  /** Heatmap clicks (`heatmap_click`) are recorded. */
  heatmaps: boolean
  /** Session replay is on: `POST /api/replay` stores batches. */
  sessionReplay: boolean
  /** The share of sessions whose replay is recorded, 0-1. */
  replaySampleRate: number
  /** Whole days a recording is kept after it is received. */
  replayRetentionDays: number
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
    trackButtonClicks: toBool(row.track_button_clicks),
    trackCopy: toBool(row.track_copy),
    trackFormInteractions: toBool(row.track_form_interactions),
    heatmaps: toBool(row.heatmaps),
    sessionReplay: toBool(row.session_replay),
    replaySampleRate: Number(row.replay_sample_rate),
    replayRetentionDays: Number(row.replay_retention_days),
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

/**
 * A cached lookup over `load` (usually `findSite` on the metadata store): at most 50,000 sites, one
 * load per site at a time.
 */
export function createSiteLookup(
  load: (siteId: number) => Promise<SiteRow | undefined>,
  options: { ttlMs?: number; clock?: Clock; changes?: ChangeFeed } = {},
): SiteLookup {
  const cache = createTtlCache<number, IngestSite | null>({
    ttlMs: options.ttlMs ?? 2000,
    maxEntries: 50_000,
    clock: options.clock,
  })
  const compile = async (siteId: number) => {
    const row = await load(siteId)
    return row ? toIngestSite(row) : null
  }
  options.changes?.subscribe((change) => {
    if (change.kind === 'site') cache.delete(change.siteId)
  })
  return {
    async get(siteId) {
      return cache.load(siteId, compile)
    },
    invalidate(siteId) {
      cache.delete(siteId)
    },
  }
}
