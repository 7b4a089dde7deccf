/**
 * The operator's monthly pageview limit of a site (`PUT /api/admin/sites/{siteId}/limits`): a positive
 * integer, or null for unlimited (the default). Effective on the next tracking request on this process
 * (announced as a site change); a change is audited as `site.config_changed` with
 * `details.changed.monthlyPageviewLimit`, like the site's other settings.
 */
import { z } from 'zod'
import { recordAudit } from '../audit/audit-log.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { badRequest, siteNotFound } from '../shared/errors.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { findSite, parseSiteId } from './sites.js'

/** The largest limit the metadata store's integer column holds. */
export const MAX_MONTHLY_PAGEVIEW_LIMIT = 2_147_483_647

const limitsBody = z.object({
  monthlyPageviewLimit: z
    .number()
    .int('must be an integer')
    .positive('must be positive')
    .max(MAX_MONTHLY_PAGEVIEW_LIMIT, `must be at most ${MAX_MONTHLY_PAGEVIEW_LIMIT}`)
    .nullable(),
})

/**
 * Set the limit of the site `rawSiteId` names (a path segment), on behalf of `actorUserId`.
 * @returns the site id and the limit now in force (pageviews per calendar month, UTC; null: unlimited)
 * @throws AppError 404 for an unknown or malformed site id; 400 'Invalid limits' naming the field
 */
export async function setMonthlyPageviewLimit(
  deps: { db: MetadataDb; changes: ChangeFeed },
  rawSiteId: unknown,
  actorUserId: string,
  input: unknown,
): Promise<{ siteId: number; monthlyPageviewLimit: number | null }> {
  const siteId = parseSiteId(rawSiteId)
  const site = siteId === null ? undefined : await findSite(deps.db, siteId)
  if (!site) throw siteNotFound()
  const parsed = limitsBody.safeParse(input)
  if (!parsed.success) throw badRequest('Invalid limits', z.flattenError(parsed.error))
  const limit = parsed.data.monthlyPageviewLimit
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
