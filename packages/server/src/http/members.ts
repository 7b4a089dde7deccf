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
import { type MailSettings, mailBudgetOf } from '../mail/mail-settings.js'
import { addMember, changeRole, listMembers, removeMember } from '../organizations/members.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import type { Clock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { adminOf, memberOf } from './organization-access.js'
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
  const commands = {
    db,
    changes,
    ...(mail && baseUrl !== undefined && { notify: { baseUrl, budget: mailBudgetOf(mail) } }),
  }
  const actorIn = memberOf(db)
  const adminIn = adminOf(db)

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
