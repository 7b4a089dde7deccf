/**
 * Renaming an organization (`PATCH /api/organizations/{organizationId}`). The name is validated as at
 * creation (trimmed, 1-100 characters, no NUL); the slug is kept, so links made with it stay valid.
 * A change is audited (`organization.renamed`, before and after) in its transaction. Nothing caches
 * organization names, so there is nothing to announce on the change feed.
 */
import type { OrganizationInput } from '@pathlight/protocol'
import { recordAudit } from '../audit/audit-log.js'
import { organizationNotFound } from '../shared/errors.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { Role } from '../storage/metadata/schema.js'
import type { Organization } from './organizations.js'

/**
 * Rename `organizationId` on behalf of `actorUserId`, whose `role` there the caller checked (admin or
 * owner); `input` as its contract parsed it. The same name again is not a change: nothing is written
 * or audited.
 * @returns the organization after the change, with `role`
 * @throws AppError 404 when the organization is gone
 */
export async function renameOrganization(
  deps: { db: MetadataDb; clock?: Clock },
  organizationId: string,
  actor: { userId: string; role: Role },
  input: OrganizationInput,
): Promise<Organization> {
  const after = input.name
  return deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('organization')
      .selectAll()
      .where('id', '=', organizationId)
      .executeTakeFirst()
    if (!row) throw organizationNotFound()
    if (row.name !== after) {
      await trx.updateTable('organization').set({ name: after }).where('id', '=', organizationId).execute()
      await recordAudit(
        trx,
        {
          organizationId,
          actorUserId: actor.userId,
          action: 'organization.renamed',
          details: { before: row.name, after },
        },
        deps.clock ?? systemClock,
      )
    }
    return {
      id: row.id,
      name: after,
      slug: row.slug,
      createdAt: row.created_at,
      createdBy: row.created_by,
      role: actor.role,
    }
  })
}
