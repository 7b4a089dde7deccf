/** Routes: one site (spec part 4, "Sites"). Authenticated scope. */
import type { FastifyInstance } from 'fastify'
import { siteForMember } from '../auth/site-access.js'
import { toSite } from '../sites/site.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { callerOf } from './caller-of.js'

export async function siteRoutes(app: FastifyInstance, { db }: { db: MetadataDb }) {
  app.get<{ Params: { siteId: string } }>('/api/sites/:siteId', async (request) => {
    const { site, role } = await siteForMember(db, callerOf(request).userId, request.params.siteId)
    return toSite(site, role)
  })
}
