/** v1: `GET /api/v1/sites`: the caller's sites across all their organizations, as Site objects. */
import type { FastifyInstance } from 'fastify'
import { toSite } from '../../sites/site.js'
import { listSitesForUser } from '../../sites/sites.js'
import type { MetadataDb } from '../../storage/metadata/db.js'
import { callerOf } from '../caller-of.js'

export async function v1SiteRoutes(app: FastifyInstance, { db }: { db: MetadataDb }) {
  app.get('/api/v1/sites', async (request) => {
    const rows = await listSitesForUser(db, callerOf(request).userId)
    return { data: rows.map((row) => toSite(row, row.role)), meta: { total: rows.length } }
  })
}
