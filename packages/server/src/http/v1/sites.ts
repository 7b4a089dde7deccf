/** v1: `GET /api/v1/sites`: the caller's sites across all their organizations, as Site objects. */
import { listMeta, site } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { toSite } from '../../sites/site.js'
import { listSitesForUser } from '../../sites/sites.js'
import type { MetadataDb } from '../../storage/metadata/db.js'
import { callerOf } from '../caller-of.js'
import { json } from '../openapi/route-doc.js'

export async function v1SiteRoutes(app: FastifyInstance, { db }: { db: MetadataDb }) {
  app.get(
    '/api/v1/sites',
    {
      config: {
        doc: {
          summary: 'My sites across all my organizations',
          tag: 'v1',
          access: 'apiKey',
          responses: {
            200: json('By site id', z.object({ data: z.array(site), meta: listMeta })),
          },
        },
      },
    },
    async (request) => {
      const rows = await listSitesForUser(db, callerOf(request).userId)
      return { data: rows.map((row) => toSite(row, row.role)), meta: { total: rows.length } }
    },
  )
}
