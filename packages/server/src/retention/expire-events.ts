/**
 * The retention pass: for every site with a retention period (its own, else the operator's default
 * `RETENTION_DAYS`), delete its events older than the period in whole UTC days (`retentionCutoff`).
 * Each site's expired events are counted just before they are deleted, and a deletion is audited as
 * `events.expired` with the period, the cutoff and the count, by the actor {@link RETENTION_ACTOR}.
 * Sites with nothing to delete are not audited. Idempotent: a second pass on the same day deletes
 * nothing. One failing site does not stop the others.
 */
import { recordAudit } from '../audit/audit-log.js'
import { countExpiredEvents, deleteExpiredEvents } from '../query/expired-events.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { effectiveRetentionDays, retentionCutoff } from './retention-period.js'

/** The `actorUserId` of the audit entries the retention pass writes (no user acted). */
export const RETENTION_ACTOR = 'system:retention'

/** What the pass did to one site. */
export interface SiteExpiry {
  siteId: number
  retentionDays: number
  /** ISO 8601 UTC; events before it were deleted. */
  cutoff: string
  /** Events deleted (counted before the delete). */
  deleted: number
}

/**
 * Run one retention pass now (`clock`).
 * @param deps.defaultDays the operator's default for sites without their own period; null: keep forever
 * @returns one entry per site that has a period, in site id order
 * @throws AggregateError of the sites' failures, after every other site was handled
 */
export async function expireEvents(deps: {
  db: MetadataDb
  events: EventsStore
  defaultDays: number | null
  clock?: Clock
}): Promise<SiteExpiry[]> {
  const clock = deps.clock ?? systemClock
  const now = clock()
  let query = deps.db.selectFrom('site').select(['site_id', 'organization_id', 'retention_days'])
  if (deps.defaultDays === null) query = query.where('retention_days', 'is not', null)
  const sites = await query.orderBy('site_id').execute()
  const done: SiteExpiry[] = []
  const failures: unknown[] = []
  for (const site of sites) {
    const siteId = Number(site.site_id)
    const days = effectiveRetentionDays(
      site.retention_days === null ? null : Number(site.retention_days),
      deps.defaultDays,
    )
    if (days === null) continue
    const cutoff = retentionCutoff(now, days)
    try {
      const deleted = await countExpiredEvents(deps.events, siteId, cutoff)
      const expiry = { siteId, retentionDays: days, cutoff: new Date(cutoff).toISOString(), deleted }
      if (deleted > 0) {
        await deleteExpiredEvents(deps.events, siteId, cutoff)
        await recordAudit(
          deps.db,
          {
            organizationId: site.organization_id,
            siteId,
            actorUserId: RETENTION_ACTOR,
            action: 'events.expired',
            details: { retentionDays: days, cutoff: expiry.cutoff, deleted },
          },
          clock,
        )
      }
      done.push(expiry)
    } catch (error) {
      failures.push(error)
    }
  }
  if (failures.length > 0)
    throw new AggregateError(failures, `retention failed for ${failures.length} site(s)`)
  return done
}
