/** Routes: organization members and the organization's audit trail. Authenticated scope. */
import {
  auditEntry,
  leaveOrganizationEndpoint,
  member,
  successData,
  successList,
  successResponse,
} from '@pathlight/protocol'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { listAudit } from '../audit/audit-log.js'
import type { MailSettings } from '../mail/mail-settings.js'
import {
  addMember,
  addMemberBody,
  changeRole,
  changeRoleBody,
  listMembers,
  removeMember,
} from '../organizations/members.js'
import { isAdminRole, roleIn } from '../organizations/organizations.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { forbidden, organizationNotFound } from '../shared/errors.js'
import type { Clock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { callerOf } from './caller-of.js'
import { json } from './openapi/route-doc.js'
import { route } from './route.js'
import { wholeList } from './whole-list.js'

type OrgParams = { Params: { organizationId: string } }
type MemberParams = { Params: { organizationId: string; userId: string } }

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
  /** The caller and their role; 404 when they are not a member (never reveal the organization). */
  const actorIn = async (request: FastifyRequest, organizationId: string) => {
    const { userId } = callerOf(request)
    const role = await roleIn(db, userId, organizationId)
    if (role === null) throw organizationNotFound()
    return { userId, role }
  }
  const adminIn = async (request: FastifyRequest, organizationId: string) => {
    const actor = await actorIn(request, organizationId)
    if (!isAdminRole(actor.role)) throw forbidden('This operation requires the admin or owner role')
    return actor
  }

  app.get<OrgParams>(
    '/api/organizations/:organizationId/members',
    {
      config: {
        doc: {
          summary: 'Members and their roles',
          tag: 'Members',
          access: 'member',
          responses: { 200: json('Oldest first', successList(member)) },
        },
      },
    },
    async (request) => {
      await actorIn(request, request.params.organizationId)
      return wholeList(await listMembers(db, request.params.organizationId))
    },
  )

  app.post<OrgParams>(
    '/api/organizations/:organizationId/members',
    {
      config: {
        doc: {
          summary: 'Add an existing account as a member',
          tag: 'Members',
          access: 'admin',
          who: 'only an owner adds owners',
          body: addMemberBody,
          responses: {
            201: json('Added', successData(member)),
            403: 'Not admin or owner, or an admin adding an owner',
            404: 'Not found, or no account with that email',
            409: 'Already a member',
          },
        },
      },
    },
    async (request, reply) => {
      const actor = await adminIn(request, request.params.organizationId)
      const member = await addMember(commands, request.params.organizationId, actor, request.body, clock)
      return reply.code(201).send({ success: true, data: member })
    },
  )

  // A static segment: Fastify routes `members/me` here, before the `:userId` route below.
  route(app, leaveOrganizationEndpoint, async ({ params, caller, request }) => {
    const actor = await actorIn(request, params.organizationId)
    await removeMember(commands, params.organizationId, actor, caller.userId)
    return { success: true as const }
  })

  app.patch<MemberParams>(
    '/api/organizations/:organizationId/members/:userId',
    {
      config: {
        doc: {
          summary: "Change a member's role",
          tag: 'Members',
          access: 'admin',
          who: 'only an owner grants, changes or removes the owner role',
          body: changeRoleBody,
          responses: {
            200: json('The member after the change', successData(member)),
            409: 'The last owner cannot be demoted',
          },
        },
      },
    },
    async (request) => {
      const actor = await adminIn(request, request.params.organizationId)
      const member = await changeRole(
        commands,
        request.params.organizationId,
        actor,
        request.params.userId,
        request.body,
      )
      return { success: true, data: member }
    },
  )

  app.delete<MemberParams>(
    '/api/organizations/:organizationId/members/:userId',
    {
      config: {
        doc: {
          summary: 'Remove a member (or leave)',
          tag: 'Members',
          access: 'admin',
          who: 'any member may remove themselves; only an owner removes an owner',
          responses: { 200: json('Removed', successResponse), 409: 'The last owner cannot be removed' },
        },
      },
    },
    async (request) => {
      const actor = await actorIn(request, request.params.organizationId)
      await removeMember(commands, request.params.organizationId, actor, request.params.userId)
      return { success: true }
    },
  )

  app.get<OrgParams>(
    '/api/organizations/:organizationId/audit-log',
    {
      config: {
        doc: {
          summary: "The organization's audit trail",
          tag: 'Members',
          access: 'admin',
          responses: { 200: json('Newest first (at most 100)', successList(auditEntry)) },
        },
      },
    },
    async (request) => {
      await adminIn(request, request.params.organizationId)
      return wholeList(await listAudit(db, request.params.organizationId))
    },
  )
}
