/**
 * Routes: one site (read, delete), its configuration, private link and audit trail.
 * Authenticated scope: a private link key never reaches these (it is read-only for analytics).
 */
import type { FastifyInstance } from 'fastify'
import { listAudit } from '../audit/audit-log.js'
import { siteForAdmin, siteForMember } from '../auth/site-access.js'
import type { WriteBuffer } from '../ingest/write-buffer.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { deleteSite } from '../sites/delete-site.js'
import { changePrivateLink } from '../sites/private-link.js'
import { toSite } from '../sites/site.js'
import { toSiteConfig, updateSiteConfig } from '../sites/site-config.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { callerOf } from './caller-of.js'

export interface SiteRouteOptions {
  db: MetadataDb
  events: EventsStore
  buffer: WriteBuffer
  /** Where the site commands announce their changes. */
  changes: ChangeFeed
}

type SiteParams = { Params: { siteId: string } }

export async function siteRoutes(app: FastifyInstance, { db, events, buffer, changes }: SiteRouteOptions) {
  app.get<SiteParams>('/api/sites/:siteId', async (request) => {
    const { site, role } = await siteForMember(db, callerOf(request).userId, request.params.siteId)
    return toSite(site, role)
  })

  app.delete<SiteParams>('/api/sites/:siteId', async (request) => {
    const { userId } = callerOf(request)
    const { site } = await siteForAdmin(db, userId, request.params.siteId)
    await deleteSite({ db, events, buffer, changes }, site, userId)
    return { success: true }
  })

  app.put<SiteParams>('/api/sites/:siteId/config', async (request) => {
    const { userId } = callerOf(request)
    const { site } = await siteForAdmin(db, userId, request.params.siteId)
    const { config, changed } = await updateSiteConfig({ db, changes }, site, userId, request.body)
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
    const privateLinkKey = await changePrivateLink({ db, changes }, site, userId, request.body)
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
