/**
 * Routes: one site (read, rename, delete), its configuration, private link and audit trail.
 * Authenticated scope: a private link key never reaches these (it is read-only for analytics).
 */
import { auditEntry, doc, privateLink, site, siteConfig, successData, successList } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { listAudit } from '../audit/audit-log.js'
import { siteForAdmin, siteForMember } from '../auth/site-access.js'
import type { WriteBuffer } from '../ingest/write-buffer.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { deleteSite } from '../sites/delete-site.js'
import { changePrivateLink, privateLinkActions } from '../sites/private-link.js'
import { toSite } from '../sites/site.js'
import { siteConfigUpdate, toSiteConfig, updateSiteConfig } from '../sites/site-config.js'
import { updateSite, updateSiteBody } from '../sites/update-site.js'
import type { EventsStore } from '../storage/events/events-store.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { callerOf } from './caller-of.js'
import { deleted } from './openapi/doc-parts.js'
import { json } from './openapi/route-doc.js'
import { wholeList } from './whole-list.js'

/** `POST /api/sites/{siteId}/private-link-config`. */
export const privateLinkBody = z.object({ action: z.enum(privateLinkActions) })

export interface SiteRouteOptions {
  db: MetadataDb
  events: EventsStore
  buffer: WriteBuffer
  /** Where the site commands announce their changes. */
  changes: ChangeFeed
}

type SiteParams = { Params: { siteId: string } }

export async function siteRoutes(app: FastifyInstance, { db, events, buffer, changes }: SiteRouteOptions) {
  app.get<SiteParams>(
    '/api/sites/:siteId',
    {
      config: {
        doc: {
          summary: 'A site',
          tag: 'Sites',
          access: 'member',
          responses: { 200: json('The site', site) },
        },
      },
    },
    async (request) => {
      const { site, role } = await siteForMember(db, callerOf(request).userId, request.params.siteId)
      return toSite(site, role)
    },
  )

  app.patch<SiteParams>(
    '/api/sites/:siteId',
    {
      config: {
        doc: {
          summary: 'Rename a site or change its domain',
          description:
            'Either field or both; the domain is normalised as at creation (`https://WWW.Example.com/blog` ' +
            'becomes `www.example.com`). Tracking checks the new domain from the next request.',
          tag: 'Sites',
          access: 'admin',
          body: updateSiteBody,
          responses: { 200: json('The site after the change', site) },
        },
      },
    },
    async (request) => {
      const { userId } = callerOf(request)
      const access = await siteForAdmin(db, userId, request.params.siteId)
      return toSite(await updateSite({ db, changes }, access.site, userId, request.body), access.role)
    },
  )

  app.delete<SiteParams>(
    '/api/sites/:siteId',
    {
      config: {
        doc: {
          summary: 'Delete a site and all its data',
          description: 'Events, goals, webhooks, alert rules and the private link go with it; irreversible.',
          tag: 'Sites',
          access: 'admin',
          responses: { 200: deleted },
        },
      },
    },
    async (request) => {
      const { userId } = callerOf(request)
      const { site } = await siteForAdmin(db, userId, request.params.siteId)
      await deleteSite({ db, events, buffer, changes }, site, userId)
      return { success: true }
    },
  )

  app.put<SiteParams>(
    '/api/sites/:siteId/config',
    {
      config: {
        doc: {
          summary: "Change a site's configuration",
          description: 'Any subset of the fields; takes effect on the next tracking request.',
          tag: 'Sites',
          access: 'admin',
          body: siteConfigUpdate,
          responses: {
            200: json(
              'The configuration after the change',
              z.object({
                success: z.literal(true),
                message: doc(z.string(), '`Updated <fields>` or `No changes`'),
                config: siteConfig,
              }),
            ),
          },
        },
      },
    },
    async (request) => {
      const { userId } = callerOf(request)
      const { site } = await siteForAdmin(db, userId, request.params.siteId)
      const { config, changed } = await updateSiteConfig({ db, changes }, site, userId, request.body)
      return {
        success: true,
        message: changed.length > 0 ? `Updated ${changed.join(', ')}` : 'No changes',
        config,
      }
    },
  )

  app.get<SiteParams>(
    '/api/sites/:siteId/excluded-ips',
    {
      config: {
        doc: {
          summary: 'Excluded IP addresses and ranges',
          tag: 'Sites',
          access: 'member',
          responses: {
            200: json('The list', z.object({ success: z.literal(true), excludedIPs: z.array(z.string()) })),
          },
        },
      },
    },
    async (request) => {
      const { site } = await siteForMember(db, callerOf(request).userId, request.params.siteId)
      return { success: true, excludedIPs: toSiteConfig(site).excludedIPs }
    },
  )

  app.get<SiteParams>(
    '/api/sites/:siteId/excluded-countries',
    {
      config: {
        doc: {
          summary: 'Excluded countries',
          tag: 'Sites',
          access: 'member',
          responses: {
            200: json(
              'The list',
              z.object({ success: z.literal(true), excludedCountries: z.array(z.string()) }),
            ),
          },
        },
      },
    },
    async (request) => {
      const { site } = await siteForMember(db, callerOf(request).userId, request.params.siteId)
      return { success: true, excludedCountries: toSiteConfig(site).excludedCountries }
    },
  )

  app.get<SiteParams>(
    '/api/sites/:siteId/private-link-config',
    {
      config: {
        doc: {
          summary: "The site's private link key",
          tag: 'Sites',
          access: 'member',
          responses: { 200: json('The key (null when none)', successData(privateLink)) },
        },
      },
    },
    async (request) => {
      const { site } = await siteForMember(db, callerOf(request).userId, request.params.siteId)
      return { success: true, data: { privateLinkKey: site.private_link_key } }
    },
  )

  app.post<SiteParams>(
    '/api/sites/:siteId/private-link-config',
    {
      config: {
        doc: {
          summary: 'Generate or revoke the private link key',
          description:
            '`generate_private_link_key`: a new key (256 random bits) replacing any previous one; ' +
            '`revoke_private_link_key`: no key.',
          tag: 'Sites',
          access: 'admin',
          body: privateLinkBody,
          responses: { 200: json('The key after the action (null when revoked)', successData(privateLink)) },
        },
      },
    },
    async (request) => {
      const { userId } = callerOf(request)
      const { site } = await siteForAdmin(db, userId, request.params.siteId)
      const privateLinkKey = await changePrivateLink({ db, changes }, site, userId, request.body)
      return { success: true, data: { privateLinkKey } }
    },
  )

  app.get<SiteParams & { Querystring: { limit?: string } }>(
    '/api/sites/:siteId/audit-log',
    {
      config: {
        doc: {
          summary: "The site's audit trail",
          tag: 'Sites',
          access: 'admin',
          responses: { 200: json('Newest first (at most 100)', successList(auditEntry)) },
        },
      },
    },
    async (request) => {
      const { site } = await siteForAdmin(db, callerOf(request).userId, request.params.siteId)
      return wholeList(await listAudit(db, site.organization_id, { siteId: site.site_id }))
    },
  )
}
