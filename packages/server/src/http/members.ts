/** Routes: organization members and the organization's audit trail (`contracts/organizations.ts`). */
import {
  addMemberEndpoint,
  changeMemberRoleEndpoint,
  leaveOrganizationEndpoint,
  listMembersEndpoint,
  organizationAuditLogEndpoint,
  removeMemberEndpoint,
} from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { listAudit } from '../audit/audit-log.js'
import type { MailSettings } from '../mail/mail-settings.js'
import { addMember, changeRole, listMembers, removeMember } from '../organizations/members.js'
import { isAdminRole, roleIn } from '../organizations/organizations.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { forbidden, organizationNotFound } from '../shared/errors.js'
import type { Clock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { Caller } from './caller.js'
import { route } from './route.js'
import { wholeList } from './whole-list.js'

/** Register the member routes, the leave route of `contracts/invitations.ts` among them. */
export async function memberRoutes(
  app: FastifyInstance,
  {
    db,
    changes,
    mail,
    baseUrl,
    clock,
  }: { db: MetadataDb; changes: ChangeFeed; mail?: MailSettings; baseUrl?: string; clock?: Clock },
) {
  // With mail configured, a directly added account is mailed a notice.
  const commands = { db, changes, ...(mail && baseUrl !== undefined && { notify: { baseUrl } }) }
  type Access = { params: { organizationId: string }; caller: Caller }
  /** The caller and their role; 404 when they are not a member (never reveal the organization). */
  const actorIn = async ({ params, caller }: Access) => {
    const role = await roleIn(db, caller.userId, params.organizationId)
    if (role === null) throw organizationNotFound()
    return { userId: caller.userId, role }
  }
  /** The caller as an admin or owner: 403 for a plain member. */
  const adminIn = async (access: Access) => {
    const actor = await actorIn(access)
    if (!isAdminRole(actor.role)) throw forbidden('This operation requires the admin or owner role')
    return actor
  }

  route(app, listMembersEndpoint, {
    resolve: actorIn,
    handle: async ({ params }) => wholeList(await listMembers(db, params.organizationId)),
  })

  route(app, addMemberEndpoint, {
    resolve: adminIn,
    handle: async ({ params, body, resolved }) => ({
      success: true as const,
      data: await addMember(commands, params.organizationId, resolved, body, clock),
    }),
  })

  // A static segment: Fastify routes `members/me` here, before the `:userId` route below.
  route(app, leaveOrganizationEndpoint, {
    resolve: actorIn,
    handle: async ({ params, caller, resolved }) => {
      await removeMember(commands, params.organizationId, resolved, caller.userId, clock)
      return { success: true as const }
    },
  })

  route(app, changeMemberRoleEndpoint, {
    resolve: adminIn,
    handle: async ({ params, body, resolved }) => ({
      success: true as const,
      data: await changeRole(commands, params.organizationId, resolved, params.userId, body),
    }),
  })

  route(app, removeMemberEndpoint, {
    resolve: actorIn,
    handle: async ({ params, resolved }) => {
      await removeMember(commands, params.organizationId, resolved, params.userId, clock)
      return { success: true as const }
    },
  })

  route(app, organizationAuditLogEndpoint, {
    resolve: adminIn,
    handle: async ({ params }) => wholeList(await listAudit(db, params.organizationId)),
  })
}
