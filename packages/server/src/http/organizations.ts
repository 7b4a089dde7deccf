/** Routes: organizations and the sites in them. Authenticated scope. */
import type { FastifyInstance } from 'fastify'
import { createOrganization, isAdminRole, listOrganizations, roleIn } from '../organizations/organizations.js'
import { forbidden, organizationNotFound } from '../shared/errors.js'
import { toSite } from '../sites/site.js'
import { createSite, listSitesForUser } from '../sites/sites.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { callerOf } from './caller-of.js'

export async function organizationRoutes(app: FastifyInstance, { db }: { db: MetadataDb }) {
  app.get('/api/organizations', async (request) => {
    return { success: true, data: await listOrganizations(db, callerOf(request).userId) }
  })

  app.post('/api/organizations', async (request, reply) => {
    const organization = await createOrganization(db, callerOf(request).userId, request.body)
    return reply.code(201).send(organization)
  })

  app.post<{ Params: { organizationId: string } }>(
    '/api/organizations/:organizationId/sites',
    async (request, reply) => {
      const { userId } = callerOf(request)
      const role = await roleIn(db, userId, request.params.organizationId)
      if (role === null) throw organizationNotFound()
      if (!isAdminRole(role)) throw forbidden('Creating a site requires the admin or owner role')
      const row = await createSite(db, request.params.organizationId, userId, request.body)
      return reply.code(201).send(toSite(row, role))
    },
  )

  app.get<{ Params: { organizationId: string } }>(
    '/api/organizations/:organizationId/sites',
    async (request) => {
      const { userId } = callerOf(request)
      if ((await roleIn(db, userId, request.params.organizationId)) === null) throw organizationNotFound()
      const rows = await listSitesForUser(db, userId)
      return {
        success: true,
        data: rows
          .filter((r) => r.organization_id === request.params.organizationId)
          .map((r) => toSite(r, r.role)),
      }
    },
  )
}
