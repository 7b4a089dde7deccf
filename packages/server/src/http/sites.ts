/**
 * Routes: one site (read, delete), its configuration, private link and audit trail.
 * Authenticated scope: a private link key never reaches these (it is read-only for analytics).
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { listAudit, recordAudit } from '../audit/audit-log.js'
import { siteForAdmin, siteForMember } from '../auth/site-access.js'
import type { SiteLookup } from '../ingest/ingest-site.js'
import type { WriteBuffer } from '../ingest/write-buffer.js'
import { badRequest } from '../shared/errors.js'
import { deleteSite } from '../sites/delete-site.js'
import { generatePrivateLinkKey, privateLinkActions, revokePrivateLinkKey } from '../sites/private-link.js'
import { toSite } from '../sites/site.js'
import { toSiteConfig, updateSiteConfig } from '../sites/site-config.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { callerOf } from './caller-of.js'

export interface SiteRouteOptions {
  db: MetadataDb
  events: EventsStore
  buffer: WriteBuffer
  siteLookup: SiteLookup
}

type SiteParams = { Params: { siteId: string } }

const privateLinkBody = z.object({
  action: z.enum(privateLinkActions, { error: `must be one of ${privateLinkActions.join(', ')}` }),
})

export async function siteRoutes(app: FastifyInstance, { db, events, buffer, siteLookup }: SiteRouteOptions) {
  app.get<SiteParams>('/api/sites/:siteId', async (request) => {
    const { site, role } = await siteForMember(db, callerOf(request).userId, request.params.siteId)
    return toSite(site, role)
  })

  app.delete<SiteParams>('/api/sites/:siteId', async (request) => {
    const { userId } = callerOf(request)
    const { site } = await siteForAdmin(db, userId, request.params.siteId)
    await deleteSite({ db, events, buffer }, site, userId)
    siteLookup.invalidate(site.site_id)
    return { success: true }
  })

  app.put<SiteParams>('/api/sites/:siteId/config', async (request) => {
    const { userId } = callerOf(request)
    const { site } = await siteForAdmin(db, userId, request.params.siteId)
    const { config, changed } = await updateSiteConfig(db, site, request.body)
    siteLookup.invalidate(site.site_id)
    if (changed.length > 0) {
      await recordAudit(db, {
        organizationId: site.organization_id,
        siteId: site.site_id,
        actorUserId: userId,
        action: 'site.config_changed',
        details: { changed: Object.fromEntries(changed.map((key) => [key, config[key]])) },
      })
    }
    return {
      success: true,
      message: changed.length > 0 ? `Updated ${changed.join(', ')}` : 'No changes',
      config,
    }
  })

  app.get<SiteParams>('/api/sites/:siteId/excluded-ips', async (request) => {
    const { site } = await siteForMember(db, callerOf(request).userId, request.params.siteId)
    return { success: true, excludedIPs: toSiteConfig(site).excludedIPs }
  })

  app.get<SiteParams>('/api/sites/:siteId/excluded-countries', async (request) => {
    const { site } = await siteForMember(db, callerOf(request).userId, request.params.siteId)
    return { success: true, excludedCountries: toSiteConfig(site).excludedCountries }
  })

  app.get<SiteParams>('/api/sites/:siteId/private-link-config', async (request) => {
    const { site } = await siteForMember(db, callerOf(request).userId, request.params.siteId)
    return { success: true, data: { privateLinkKey: site.private_link_key } }
  })

  app.post<SiteParams>('/api/sites/:siteId/private-link-config', async (request) => {
    const { userId } = callerOf(request)
    const { site } = await siteForAdmin(db, userId, request.params.siteId)
    const parsed = privateLinkBody.safeParse(request.body)
    if (!parsed.success) throw badRequest('Invalid action', z.flattenError(parsed.error))
    const generate = parsed.data.action === 'generate_private_link_key'
    const privateLinkKey = generate ? await generatePrivateLinkKey(db, site.site_id) : null
    if (!generate) await revokePrivateLinkKey(db, site.site_id)
    await recordAudit(db, {
      organizationId: site.organization_id,
      siteId: site.site_id,
      actorUserId: userId,
      action: generate ? 'private_link.generated' : 'private_link.revoked',
    })
    return { success: true, data: { privateLinkKey } }
  })

  app.get<SiteParams & { Querystring: { limit?: string } }>(
    '/api/sites/:siteId/audit-log',
    async (request) => {
      const { site } = await siteForAdmin(db, callerOf(request).userId, request.params.siteId)
      return { success: true, data: await listAudit(db, site.organization_id, { siteId: site.site_id }) }
    },
  )
}
