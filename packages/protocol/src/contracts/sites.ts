/**
 * The endpoints of one site for the members of its organization: read, rename, delete, the excluded
 * addresses and countries, the private link key, the audit trail, and whether events arrive yet.
 */
import { z } from 'zod'
import { endpoint } from '../contract.js'
import { doc } from '../openapi-registry.js'
import {
  auditEntry,
  privateLink,
  site,
  siteConfig,
  siteEventStatus,
  successData,
  successList,
  successResponse,
} from '../response-schemas.js'
import { siteConfigUpdate } from '../site-config-input.js'
import { privateLinkBody, updateSiteBody } from '../site-input.js'
import type { Address } from './addresses.js'
import * as at from './addresses.js'

/** `:siteId`, as text: an id that names no site is a 404 of the access check, not a 400. */
const siteParams = z.object({ siteId: z.string() })

/** A read of the site by any member: `address`, answering `schema` on success. */
const memberRead = <const A extends Address, const S extends z.ZodType>(
  address: A,
  summary: string,
  answer: { description: string; schema: S },
) =>
  endpoint({
    ...address,
    summary,
    tag: 'Sites',
    access: 'member',
    params: siteParams,
    responses: { 200: answer },
  })

/** `GET /api/sites/:siteId`: the site, as its caller sees it (`isOwner`). */
export const getSiteEndpoint = memberRead(at.getSite, 'A site', { description: 'The site', schema: site })

/** `PATCH /api/sites/:siteId`: rename a site or change its domain; answers the site after. */
export const updateSiteEndpoint = endpoint({
  ...at.updateSite,
  summary: 'Rename a site or change its domain',
  description:
    'Either field or both; the domain is normalised as at creation (`https://WWW.Example.com/blog` ' +
    'becomes `www.example.com`). Tracking checks the new domain from the next request.',
  tag: 'Sites',
  access: 'admin',
  params: siteParams,
  body: updateSiteBody,
  bodySubject: 'site',
  responses: { 200: { description: 'The site after the change', schema: site } },
})

/** `DELETE /api/sites/:siteId`: delete a site and all its data, irreversibly. */
export const deleteSiteEndpoint = endpoint({
  ...at.deleteSite,
  summary: 'Delete a site and all its data',
  description: 'Events, goals, webhooks, alert rules and the private link go with it; irreversible.',
  tag: 'Sites',
  access: 'admin',
  params: siteParams,
  responses: { 200: { description: 'Deleted', schema: successResponse } },
})

/** `PUT /api/sites/:siteId/config`: change any subset of the configuration; answers it after. */
export const updateSiteConfigEndpoint = endpoint({
  ...at.updateSiteConfig,
  summary: "Change a site's configuration",
  description: 'Any subset of the fields; takes effect on the next tracking request.',
  tag: 'Sites',
  access: 'admin',
  params: siteParams,
  body: siteConfigUpdate,
  bodySubject: 'site configuration',
  bodyFieldsInDetails: true,
  responses: {
    200: {
      description: 'The configuration after the change',
      schema: z.object({
        success: z.literal(true),
        message: doc(z.string(), '`Updated <fields>` or `No changes`'),
        config: siteConfig,
      }),
    },
  },
})

/** `GET /api/sites/:siteId/excluded-ips`: the addresses and ranges whose events are dropped. */
export const excludedIpsEndpoint = memberRead(at.excludedIps, 'Excluded IP addresses and ranges', {
  description: 'The list',
  schema: z.object({ success: z.literal(true), excludedIPs: z.array(z.string()) }),
})

/** `GET /api/sites/:siteId/excluded-countries`: the countries whose events are dropped. */
export const excludedCountriesEndpoint = memberRead(at.excludedCountries, 'Excluded countries', {
  description: 'The list',
  schema: z.object({ success: z.literal(true), excludedCountries: z.array(z.string()) }),
})

/** `GET /api/sites/:siteId/private-link-config`: the site's private link key, null when none. */
export const getPrivateLinkEndpoint = memberRead(at.getPrivateLink, "The site's private link key", {
  description: 'The key (null when none)',
  schema: successData(privateLink),
})

/** `POST /api/sites/:siteId/private-link-config`: generate or revoke the key; answers it after. */
export const changePrivateLinkEndpoint = endpoint({
  ...at.changePrivateLink,
  summary: 'Generate or revoke the private link key',
  description:
    '`generate_private_link_key`: a new key (256 random bits) replacing any previous one; ' +
    '`revoke_private_link_key`: no key.',
  tag: 'Sites',
  access: 'admin',
  params: siteParams,
  body: privateLinkBody,
  bodySubject: 'action',
  bodyFieldsInDetails: true,
  responses: {
    200: { description: 'The key after the action (null when revoked)', schema: successData(privateLink) },
  },
})

/** `GET /api/sites/:siteId/audit-log`: the site's audit trail, newest first. */
export const siteAuditLogEndpoint = endpoint({
  ...at.siteAuditLog,
  summary: "The site's audit trail",
  tag: 'Sites',
  access: 'admin',
  params: siteParams,
  responses: { 200: { description: 'Newest first (at most 100)', schema: successList(auditEntry) } },
})

/** `GET /api/sites/:siteId/has-events`: whether events arrive yet, and why requests were dropped. */
export const siteHasEventsEndpoint = memberRead(
  at.siteHasEvents,
  'Whether the site has received an event yet',
  { description: 'The status', schema: successData(siteEventStatus) },
)

/** Every site endpoint (the route/contract coverage test reads these). */
export const siteEndpoints = [
  getSiteEndpoint,
  updateSiteEndpoint,
  deleteSiteEndpoint,
  updateSiteConfigEndpoint,
  excludedIpsEndpoint,
  excludedCountriesEndpoint,
  getPrivateLinkEndpoint,
  changePrivateLinkEndpoint,
  siteAuditLogEndpoint,
  siteHasEventsEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    getSite: typeof getSiteEndpoint
    updateSite: typeof updateSiteEndpoint
    deleteSite: typeof deleteSiteEndpoint
    updateSiteConfig: typeof updateSiteConfigEndpoint
    excludedIps: typeof excludedIpsEndpoint
    excludedCountries: typeof excludedCountriesEndpoint
    getPrivateLink: typeof getPrivateLinkEndpoint
    changePrivateLink: typeof changePrivateLinkEndpoint
    siteAuditLog: typeof siteAuditLogEndpoint
    siteHasEvents: typeof siteHasEventsEndpoint
  }
}
