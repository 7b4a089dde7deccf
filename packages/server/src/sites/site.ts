/**
 * The Site resource as the API returns it, and its mapping from the metadata row.
 */
import type { Role, SiteTable } from '../storage/metadata/schema.js'
import { toBool } from '../storage/metadata/schema.js'

/** The spec's Site object. Timestamps ISO 8601 UTC with milliseconds. */
export interface Site {
  id: string
  siteId: number
  name: string
  domain: string
  createdAt: string
  updatedAt: string
  createdBy: string
  organizationId: string
  public: boolean
  saltUserIds: boolean
  blockBots: boolean
  /** True when the caller's role in the site's organization is owner. */
  isOwner: boolean
  sessionReplay: boolean
  webVitals: boolean
  trackErrors: boolean
  trackOutbound: boolean
  trackUrlParams: boolean
  /** Whole UTC days of events kept; null: the operator's default, else forever. */
  retentionDays: number | null
  /** The share of sessions recorded by session replay, 0-1. */
  replaySampleRate: number
  /** Whole days a session replay recording is kept after it is received (1-365). */
  replayRetentionDays: number
}

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
    retentionDays: row.retention_days === null ? null : Number(row.retention_days),
    replaySampleRate: Number(row.replay_sample_rate),
    replayRetentionDays: Number(row.replay_retention_days),
  }
}
