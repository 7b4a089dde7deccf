/**
 * Delete a site and all its data: the metadata row (goals, webhooks and other per-site rows go with it
 * through ON DELETE CASCADE), then its events and session recordings. Pending journaled rows are
 * committed first so none land after the delete; a second pass after `straggleMs` removes rows other API nodes accepted in the
 * seconds their site cache still held the site. The deletion is audited (`site.deleted`) in its
 * transaction and announced as a site change, so this process's caches drop the site at once.
 */
import { recordAudit } from '../audit/audit-log.js'
import type { WriteBuffer } from '../ingest/write-buffer.js'
import { deleteSiteReplays } from '../query/replay.js'
import { deleteSiteEvents } from '../query/site-events.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { SiteRow } from './site.js'

export async function deleteSite(
  deps: {
    db: MetadataDb
    events: EventsStore
    buffer: WriteBuffer
    changes: ChangeFeed
    straggleMs?: number
  },
  site: SiteRow,
  actorUserId: string,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('site').where('site_id', '=', site.site_id).execute()
    await recordAudit(trx, {
      organizationId: site.organization_id,
      siteId: site.site_id,
      actorUserId,
      action: 'site.deleted',
      details: { name: site.name, domain: site.domain },
    })
  })
  await deps.changes.announce({ kind: 'site', siteId: site.site_id })
  await deps.buffer.flush()
  await deleteSiteEvents(deps.events, site.site_id)
  await deleteSiteReplays(deps.events, site.site_id)
  const straggle = setTimeout(
    () =>
      void Promise.all([
        deleteSiteEvents(deps.events, site.site_id),
        deleteSiteReplays(deps.events, site.site_id),
      ]).catch(() => undefined),
    deps.straggleMs ?? 10_000,
  )
  straggle.unref()
}
