/**
 * Routes: one site (read, rename, delete), its configuration, excluded lists, private link and audit
 * trail, registered from their contracts (`@pathlight/protocol` `contracts/sites.ts`). Authenticated
 * scope: a private link key never reaches these (it is read-only for analytics). Each route resolves the site before its body is parsed, so access answers (401, 403,
 * 404) come before invalid input.
 */
import {
  changePrivateLinkEndpoint,
  deleteSiteEndpoint,
  excludedCountriesEndpoint,
  excludedIpsEndpoint,
  getPrivateLinkEndpoint,
  getSiteEndpoint,
  siteAuditLogEndpoint,
  updateSiteConfigEndpoint,
  updateSiteEndpoint,
} from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { listAudit } from '../audit/audit-log.js'
import { siteForAdmin, siteForMember } from '../auth/site-access.js'
import type { WriteBuffer } from '../ingest/write-buffer.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { deleteSite } from '../sites/delete-site.js'
import { changePrivateLink } from '../sites/private-link.js'
import { toSite } from '../sites/site.js'
import { toSiteConfig, updateSiteConfig } from '../sites/site-config.js'
import { updateSite } from '../sites/update-site.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { route } from './route.js'
import { wholeList } from './whole-list.js'

export interface SiteRouteOptions {
  db: MetadataDb
  events: EventsStore
  buffer: WriteBuffer
  /** Where the site commands announce their changes. */
  changes: ChangeFeed
}

/** GET/PATCH/DELETE `/api/sites/{siteId}`, its config, excluded lists, private link and audit trail. */
export async function siteRoutes(app: FastifyInstance, { db, events, buffer, changes }: SiteRouteOptions) {
  route(app, getSiteEndpoint, async ({ params, caller }) => {
    const { site, role } = await siteForMember(db, caller.userId, params.siteId)
    return toSite(site, role)
  })

  route(app, updateSiteEndpoint, {
    resolve: ({ params, caller }) => siteForAdmin(db, caller.userId, params.siteId),
    handle: async ({ body, caller, resolved: access }) =>
      toSite(await updateSite({ db, changes }, access.site, caller.userId, body), access.role),
  })

  route(app, deleteSiteEndpoint, async ({ params, caller }) => {
    const { site } = await siteForAdmin(db, caller.userId, params.siteId)
    await deleteSite({ db, events, buffer, changes }, site, caller.userId)
    return { success: true as const }
  })

  route(app, updateSiteConfigEndpoint, {
    resolve: async ({ params, caller }) => (await siteForAdmin(db, caller.userId, params.siteId)).site,
    handle: async ({ body, caller, resolved: site }) => {
      const { config, changed } = await updateSiteConfig({ db, changes }, site, caller.userId, body)
      return {
        success: true as const,
        message: changed.length > 0 ? `Updated ${changed.join(', ')}` : 'No changes',
        config,
      }
    },
  })

  route(app, excludedIpsEndpoint, async ({ params, caller }) => {
    const { site } = await siteForMember(db, caller.userId, params.siteId)
    return { success: true as const, excludedIPs: toSiteConfig(site).excludedIPs }
  })

  route(app, excludedCountriesEndpoint, async ({ params, caller }) => {
    const { site } = await siteForMember(db, caller.userId, params.siteId)
    return { success: true as const, excludedCountries: toSiteConfig(site).excludedCountries }
  })

  route(app, getPrivateLinkEndpoint, async ({ params, caller }) => {
    const { site } = await siteForMember(db, caller.userId, params.siteId)
    return { success: true as const, data: { privateLinkKey: site.private_link_key } }
  })

  route(app, changePrivateLinkEndpoint, {
    resolve: async ({ params, caller }) => (await siteForAdmin(db, caller.userId, params.siteId)).site,
    handle: async ({ body, caller, resolved: site }) => ({
      success: true as const,
      data: { privateLinkKey: await changePrivateLink({ db, changes }, site, caller.userId, body) },
    }),
  })

  route(app, siteAuditLogEndpoint, async ({ params, caller }) => {
    const { site } = await siteForAdmin(db, caller.userId, params.siteId)
    return wholeList(await listAudit(db, site.organization_id, { siteId: site.site_id }))
  })
}
