/**
 * v1: `GET /api/v1/sites`: the caller's sites across all their organizations, as Site objects
 * (registered from its contract, `contracts/v1-reports.ts` of the protocol).
 */
import { v1SitesEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { toSite } from '../../sites/site.js'
import { listSitesForUser } from '../../sites/sites.js'
import type { MetadataDb } from '../../storage/metadata/db.js'
import { route } from '../route.js'

/** Register the v1 sites list (inside the v1 scope, which authenticates the key). */
export async function v1SiteRoutes(app: FastifyInstance, { db }: { db: MetadataDb }) {
  route(app, v1SitesEndpoint, async ({ caller }) => {
    const rows = await listSitesForUser(db, caller.userId)
    return { data: rows.map((row) => toSite(row, row.role)), meta: { total: rows.length } }
  })
}
