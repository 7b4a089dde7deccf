/**
 * The Site resource as the API returns it, and its mapping from the metadata row.
 */
import type { Site as WireSite } from '@pathlight/protocol'
import type { Role, SiteTable } from '../storage/metadata/schema.js'
import { toBool } from '../storage/metadata/schema.js'
import { sdkSwitchesOf } from './sdk-switches.js'

/** A site as the API returns it: the protocol's wire shape. */
export type Site = WireSite

/** A site row as selected from the metadata store (site_id resolved). */
export type SiteRow = Omit<SiteTable, 'site_id'> & { site_id: number }

/** Map a row to the Site object for a caller with `role` in the site's organization. */
export function toSite(row: SiteRow, role: Role | null): Site {
  return {
    id: row.id,
    siteId: Number(row.site_id),
    name: row.name,
    domain: row.domain,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    createdBy: row.created_by,
    organizationId: row.organization_id,
    public: toBool(row.public),
    saltUserIds: toBool(row.salt_user_ids),
    blockBots: toBool(row.block_bots),
    isOwner: role === 'owner',
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
