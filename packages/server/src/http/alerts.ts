/** Routes: a site's alert rules (admin or owner). Authenticated scope. */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { AlertRules } from '../alerts/alert-rules.js'
import { siteForAdmin } from '../auth/site-access.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { callerOf } from './caller-of.js'

type SiteParams = { Params: { siteId: string } }
type Params = { Params: { siteId: string; id: string } }

export async function alertRoutes(
  app: FastifyInstance,
  { db, alerts }: { db: MetadataDb; alerts: AlertRules },
) {
  const adminSite = async (request: FastifyRequest<SiteParams>) =>
    (await siteForAdmin(db, callerOf(request).userId, request.params.siteId)).site

  app.post<SiteParams>('/api/sites/:siteId/alerts', async (request, reply) => {
    const site = await adminSite(request)
    return reply.code(201).send({
      success: true,
      data: await alerts.create(site.site_id, callerOf(request).userId, request.body),
    })
  })
  app.get<SiteParams>('/api/sites/:siteId/alerts', async (request) => {
    const site = await adminSite(request)
    return { success: true, data: await alerts.list(site.site_id) }
  })
  app.get<Params>('/api/sites/:siteId/alerts/:id', async (request) => {
    const site = await adminSite(request)
    return { success: true, data: await alerts.get(site.site_id, request.params.id) }
  })
  app.patch<Params>('/api/sites/:siteId/alerts/:id', async (request) => {
    const site = await adminSite(request)
    return { success: true, data: await alerts.update(site.site_id, request.params.id, request.body) }
  })
  app.delete<Params>('/api/sites/:siteId/alerts/:id', async (request) => {
    const site = await adminSite(request)
    await alerts.remove(site.site_id, request.params.id)
    return { success: true }
  })
}
