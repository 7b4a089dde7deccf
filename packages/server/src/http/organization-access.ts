/**
 * The access step of the organization routes (`route()`'s `resolve`): the caller's role in the
 * organization of the path. A caller who is not a member gets 404, never learning it exists.
 */
import type { organizationParams } from '@pathlight/protocol'
import type { z } from 'zod'
import { isAdminRole, roleIn } from '../organizations/organizations.js'
import { forbidden, organizationNotFound } from '../shared/errors.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { Role } from '../storage/metadata/schema.js'
import type { Caller } from './caller.js'

/** What `resolve` gets: the organization in the path and the caller. */
type OrganizationAccess = { params: z.output<typeof organizationParams>; caller: Caller }

/** The acting member: user id and role. */
export type OrganizationActor = { userId: string; role: Role }

/** Any member. @throws AppError 404 for a non-member */
export const memberOf =
  (db: MetadataDb) =>
  async ({ params, caller }: OrganizationAccess): Promise<OrganizationActor> => {
    const role = await roleIn(db, caller.userId, params.organizationId)
    if (role === null) throw organizationNotFound()
    return { userId: caller.userId, role }
  }

/**
 * An admin or owner. @throws AppError 404 for a non-member; 403 for a plain member, `<what> requires
 * the admin or owner role`
 */
export const adminOf =
  (db: MetadataDb, what = 'This operation') =>
  async (access: OrganizationAccess): Promise<OrganizationActor> => {
    const actor = await memberOf(db)(access)
    if (!isAdminRole(actor.role)) throw forbidden(`${what} requires the admin or owner role`)
    return actor
  }
