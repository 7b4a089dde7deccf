/**
 * Site configuration (the object of `PUT /api/sites/{id}/config`): read, and partial update of a
 * parsed body (the protocol's `siteConfigUpdate` validates it). Only the fields sent change. `excludedIPs` entries are IPv4/IPv6 addresses or CIDR
 * ranges; `excludedCountries` are ISO 3166-1 alpha-2 codes, stored upper case; `retentionDays` is whole
 * UTC days of events kept (30-3650), null for the operator's default; `replaySampleRate` (0-1) and
 * `replayRetentionDays` (1-365) govern session replay. An update that changes
 * anything is audited (`site.config_changed`) in its transaction and announced as a site change.
 */
import type { SiteConfigUpdate, SiteConfig as WireSiteConfig } from '@pathlight/protocol'
import { recordAudit } from '../audit/audit-log.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { fromBool, type SiteTable, toBool } from '../storage/metadata/schema.js'
import { sdkSwitchesOf } from './sdk-switches.js'
import type { SiteRow } from './site.js'

/** A site's configuration as the API returns it: the protocol's wire shape. */
export type SiteConfig = WireSiteConfig

/** The configuration of a site row. */
export function toSiteConfig(row: SiteRow): SiteConfig {
  return {
    public: toBool(row.public),
    saltUserIds: toBool(row.salt_user_ids),
    blockBots: toBool(row.block_bots),
    excludedIPs: parseList(row.excluded_ips),
    excludedCountries: parseList(row.excluded_countries),
    sessionReplay: toBool(row.session_replay),
    webVitals: toBool(row.web_vitals),
    trackErrors: toBool(row.track_errors),
    trackOutbound: toBool(row.track_outbound),
    trackUrlParams: toBool(row.track_url_params),
    ...sdkSwitchesOf(row),
    heatmaps: toBool(row.heatmaps),
    retentionDays: row.retention_days === null ? null : Number(row.retention_days),
    replaySampleRate: Number(row.replay_sample_rate),
    replayRetentionDays: Number(row.replay_retention_days),
  }
}

/**
 * Apply a parsed partial update (`siteConfigUpdate`) by `actorUserId`, audit what changed and announce
 * it (caches of the site drop it at once). Duplicates in the lists are removed, order kept.
 * @returns the configuration after the update and the names of the fields that changed
 */
export async function updateSiteConfig(
  deps: { db: MetadataDb; changes: ChangeFeed; clock?: Clock },
  row: SiteRow,
  actorUserId: string,
  update: SiteConfigUpdate,
): Promise<{ config: SiteConfig; changed: (keyof SiteConfig)[] }> {
  const clock = deps.clock ?? systemClock
  const set: Partial<Omit<SiteTable, 'site_id'>> = {}
  const boolColumns = {
    public: 'public',
    saltUserIds: 'salt_user_ids',
    blockBots: 'block_bots',
    sessionReplay: 'session_replay',
    webVitals: 'web_vitals',
    trackErrors: 'track_errors',
    trackOutbound: 'track_outbound',
    trackUrlParams: 'track_url_params',
    trackInitialPageView: 'track_initial_pageview',
    trackSpaNavigation: 'track_spa_navigation',
    trackButtonClicks: 'track_button_clicks',
    trackCopy: 'track_copy',
    trackFormInteractions: 'track_form_interactions',
    heatmaps: 'heatmaps',
  } as const satisfies Record<string, keyof SiteTable>
  for (const [field, column] of Object.entries(boolColumns) as [
    keyof typeof boolColumns,
    keyof SiteTable,
  ][]) {
    const value = update[field]
    if (value !== undefined) (set as Record<string, unknown>)[column] = fromBool(value)
  }
  if (update.excludedIPs) set.excluded_ips = JSON.stringify([...new Set(update.excludedIPs)])
  if (update.excludedCountries)
    set.excluded_countries = JSON.stringify([...new Set(update.excludedCountries)])
  if (update.retentionDays !== undefined) set.retention_days = update.retentionDays
  if (update.replaySampleRate !== undefined) set.replay_sample_rate = update.replaySampleRate
  if (update.replayRetentionDays !== undefined) set.replay_retention_days = update.replayRetentionDays

  const before = toSiteConfig(row)
  if (Object.keys(set).length === 0) return { config: before, changed: [] }
  const result = await deps.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('site')
      .set({ ...set, updated_at: isoNow(clock) })
      .where('site_id', '=', row.site_id)
      .returningAll()
      .executeTakeFirstOrThrow()
    const config = toSiteConfig({ ...updated, site_id: Number(updated.site_id) })
    const changed = (Object.keys(config) as (keyof SiteConfig)[]).filter(
      (key) => JSON.stringify(config[key]) !== JSON.stringify(before[key]),
    )
    if (changed.length > 0) {
      await recordAudit(
        trx,
        {
          organizationId: row.organization_id,
          siteId: row.site_id,
          actorUserId,
          action: 'site.config_changed',
          details: { changed: Object.fromEntries(changed.map((key) => [key, config[key]])) },
        },
        clock,
      )
    }
    return { config, changed }
  })
  await deps.changes.announce({ kind: 'site', siteId: row.site_id })
  return result
}

function parseList(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json)
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
  } catch {
    return []
  }
}
