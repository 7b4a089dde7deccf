/** Routes: organization members and the organization's audit trail. Authenticated scope. */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { listAudit } from '../audit/audit-log.js'
import { addMember, changeRole, listMembers, removeMember } from '../organizations/members.js'
import { isAdminRole, roleIn } from '../organizations/organizations.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { forbidden, organizationNotFound } from '../shared/errors.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { callerOf } from './caller-of.js'

type OrgParams = { Params: { organizationId: string } }
type MemberParams = { Params: { organizationId: string; userId: string } }

export async function memberRoutes(
  app: FastifyInstance,
  { db, changes }: { db: MetadataDb; changes: ChangeFeed },
) {
  const commands = { db, changes }
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

  app.get<OrgParams>('/api/organizations/:organizationId/members', async (request) => {
    await actorIn(request, request.params.organizationId)
    return { success: true, data: await listMembers(db, request.params.organizationId) }
  })

  app.post<OrgParams>('/api/organizations/:organizationId/members', async (request, reply) => {
    const actor = await adminIn(request, request.params.organizationId)
    const member = await addMember(commands, request.params.organizationId, actor, request.body)
    return reply.code(201).send({ success: true, data: member })
  })

  app.patch<MemberParams>('/api/organizations/:organizationId/members/:userId', async (request) => {
    const actor = await adminIn(request, request.params.organizationId)
    const member = await changeRole(
      commands,
      request.params.organizationId,
      actor,
      request.params.userId,
      request.body,
    )
    return { success: true, data: member }
  })

  app.delete<MemberParams>('/api/organizations/:organizationId/members/:userId', async (request) => {
    const actor = await actorIn(request, request.params.organizationId)
    await removeMember(commands, request.params.organizationId, actor, request.params.userId)
    return { success: true }
  })

  app.get<OrgParams>('/api/organizations/:organizationId/audit-log', async (request) => {
    await adminIn(request, request.params.organizationId)
    return { success: true, data: await listAudit(db, request.params.organizationId) }
  })
}
