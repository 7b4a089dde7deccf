/**
 * The operator's monthly pageview limit of a site (`PUT /api/admin/sites/{siteId}/limits`): a positive
 * integer, or null for unlimited (the default). Effective on the next tracking request on this process
 * (announced as a site change); a change is audited as `site.config_changed` with
 * `details.changed.monthlyPageviewLimit`, like the site's other settings.
 */
import type { LimitsBody } from '@pathlight/protocol'
import { recordAudit } from '../audit/audit-log.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { SiteRow } from './site.js'

/**
 * Set the limit of `site` on behalf of `actorUserId`, from a parsed body (`limitsBody`).
 * @returns the site id and the limit now in force (pageviews per calendar month, UTC; null: unlimited)
 */
export async function setMonthlyPageviewLimit(
  deps: { db: MetadataDb; changes: ChangeFeed },
  site: SiteRow,
  actorUserId: string,
  body: LimitsBody,
): Promise<{ siteId: number; monthlyPageviewLimit: number | null }> {
  const limit = body.monthlyPageviewLimit
  const before = site.monthly_pageview_limit === null ? null : Number(site.monthly_pageview_limit)
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('site')
      .set({ monthly_pageview_limit: limit })
      .where('site_id', '=', site.site_id)
      .execute()
    if (limit === before) return
    await recordAudit(trx, {
      organizationId: site.organization_id,
      siteId: site.site_id,
      actorUserId,
      action: 'site.config_changed',
      details: { changed: { monthlyPageviewLimit: limit } },
    })
  })
  await deps.changes.announce({ kind: 'site', siteId: site.site_id })
  return { siteId: site.site_id, monthlyPageviewLimit: limit }
}
