/**
 * Site creation and lookup over the metadata store. Access checks live with the caller
 * (`auth/access.ts`); these functions trust the ids they are given.
 */
import crypto from 'node:crypto'
import type { CreateSiteBody } from '@pathlight/protocol'
import { recordAudit } from '../audit/audit-log.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { fromBool } from '../storage/metadata/schema.js'
import type { SiteRow } from './site.js'

/** Defaults of a new site's switches: bots blocked, outbound links and URL params tracked. */
export const siteDefaults = {
  public: false,
  saltUserIds: false,
  blockBots: true,
  sessionReplay: false,
  webVitals: false,
  trackErrors: false,
  trackOutbound: true,
  trackUrlParams: true,
  trackInitialPageView: true,
  trackSpaNavigation: true,
  trackButtonClicks: false,
  trackCopy: false,
  trackFormInteractions: false,
  heatmaps: false,
} as const

/** Session replay settings of a new site (and of sites made before them): every session, kept 30 days. */
export const replayDefaults = { replaySampleRate: 1, replayRetentionDays: 30 } as const

/** Create a site in an organization; `input` as its contract (`createSiteBody`) parsed it. */
export async function createSite(
  db: MetadataDb,
  organizationId: string,
  userId: string,
  input: CreateSiteBody,
  clock: Clock = systemClock,
): Promise<SiteRow> {
  const now = isoNow(clock)
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('site')
      .values({
        id: crypto.randomUUID(),
        organization_id: organizationId,
        name: input.name,
        domain: input.domain,
        created_by: userId,
        created_at: now,
        updated_at: now,
        public: fromBool(siteDefaults.public),
        salt_user_ids: fromBool(siteDefaults.saltUserIds),
        block_bots: fromBool(siteDefaults.blockBots),
        session_replay: fromBool(siteDefaults.sessionReplay),
        web_vitals: fromBool(siteDefaults.webVitals),
        track_errors: fromBool(siteDefaults.trackErrors),
        track_outbound: fromBool(siteDefaults.trackOutbound),
        track_url_params: fromBool(siteDefaults.trackUrlParams),
        track_initial_pageview: fromBool(siteDefaults.trackInitialPageView),
        track_spa_navigation: fromBool(siteDefaults.trackSpaNavigation),
        track_button_clicks: fromBool(siteDefaults.trackButtonClicks),
        track_copy: fromBool(siteDefaults.trackCopy),
        track_form_interactions: fromBool(siteDefaults.trackFormInteractions),
        heatmaps: fromBool(siteDefaults.heatmaps),
        excluded_ips: '[]',
        excluded_countries: '[]',
        monthly_pageview_limit: null,
        private_link_key: null,
        replay_sample_rate: replayDefaults.replaySampleRate,
        replay_retention_days: replayDefaults.replayRetentionDays,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    const siteId = Number(inserted.site_id)
    await recordAudit(trx, {
      organizationId,
      siteId,
      actorUserId: userId,
      action: 'site.created',
      details: { name: inserted.name, domain: inserted.domain },
    })
    return { ...inserted, site_id: siteId }
  })
}

/** A site by its numeric id, or undefined. */
export async function findSite(db: MetadataDb, siteId: number): Promise<SiteRow | undefined> {
  const row = await db.selectFrom('site').selectAll().where('site_id', '=', siteId).executeTakeFirst()
  return row && { ...row, site_id: Number(row.site_id) }
}

/** Every site of every organization the user belongs to, with the user's role there. */
export async function listSitesForUser(db: MetadataDb, userId: string) {
  const rows = await db
    .selectFrom('site')
    .innerJoin('member', 'member.organization_id', 'site.organization_id')
    .selectAll('site')
    .select('member.role')
    .where('member.user_id', '=', userId)
    .orderBy('site.site_id')
    .execute()
  return rows.map((row) => ({ ...row, site_id: Number(row.site_id) }))
}

/**
 * Parse a site id from a path or body: a positive 32-bit integer (PostgreSQL's `serial`, which refuses
 * a larger value in a query), as number or decimal string.
 * @returns the id, or null when it is not one (callers answer 404 or 400)
 */
export function parseSiteId(value: unknown): number | null {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,10}$/.test(value)
        ? Number(value)
        : NaN
  return Number.isSafeInteger(n) && n > 0 && n <= 0x7fffffff ? n : null
}
