/**
 * Renaming a site and changing its domain (`PATCH /api/sites/{siteId}`). The fields are validated as at
 * creation (`createSiteBody`: the domain normalised, `https://WWW.Example.com/blog` -> `www.example.com`);
 * only the fields sent change. A change is audited (`site.updated`, each changed field's before and
 * after) in its transaction and announced as a site change, so this process's site lookup and
 * tracker-config caches drop the site at once (tracking checks the new domain on the next request).
 */
import type { UpdateSiteBody } from '@pathlight/protocol'
import { recordAudit } from '../audit/audit-log.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { SiteRow } from './site.js'

type SiteFields = 'name' | 'domain'

/**
 * Apply a parsed `{name?, domain?}` (`updateSiteBody`) to `row` on behalf of `actorUserId` (whose
 * admin role the caller checked). A field sent with its current value is not a change; with no change
 * nothing is written or audited.
 * @returns the site row after the update (`row` itself when nothing changed)
 */
export async function updateSite(
  deps: { db: MetadataDb; changes: ChangeFeed; clock?: Clock },
  row: SiteRow,
  actorUserId: string,
  body: UpdateSiteBody,
): Promise<SiteRow> {
  const clock = deps.clock ?? systemClock
  const changed: Partial<Record<SiteFields, { before: string; after: string }>> = {}
  for (const field of ['name', 'domain'] as const) {
    const after = body[field]
    if (after !== undefined && after !== row[field]) changed[field] = { before: row[field], after }
  }
  if (Object.keys(changed).length === 0) return row
  const updated = await deps.db.transaction().execute(async (trx) => {
    const written = await trx
      .updateTable('site')
      .set({
        ...(changed.name ? { name: changed.name.after } : {}),
        ...(changed.domain ? { domain: changed.domain.after } : {}),
        updated_at: isoNow(clock),
      })
      .where('site_id', '=', row.site_id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await recordAudit(
      trx,
      {
        organizationId: row.organization_id,
        siteId: row.site_id,
        actorUserId,
        action: 'site.updated',
        details: { changed },
      },
      clock,
    )
    return { ...written, site_id: Number(written.site_id) }
  })
  await deps.changes.announce({ kind: 'site', siteId: row.site_id })
  return updated
}
