/**
 * Site access for authenticated callers, checked by every route with a site in its path: a site the
 * caller cannot reach answers 404, never revealing that it exists; operations that need admin or
 * owner answer 403 for plain members.
 */
import { isAdminRole, roleIn } from '../organizations/organizations.js'
import { forbidden, siteNotFound, unauthorized } from '../shared/errors.js'
import { matchesPrivateLinkKey } from '../sites/private-link.js'
import type { SiteRow } from '../sites/site.js'
import { findSite, parseSiteId } from '../sites/sites.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { Role } from '../storage/metadata/schema.js'
import { toBool } from '../storage/metadata/schema.js'

/**
 * @param rawSiteId the `{siteId}` path segment
 * @throws AppError 404 when the id is malformed, unknown, or the user is not a member of its organization
 */
export async function siteForMember(
  db: MetadataDb,
  userId: string,
  rawSiteId: unknown,
): Promise<{ site: SiteRow; role: Role }> {
  const siteId = parseSiteId(rawSiteId)
  const site = siteId === null ? undefined : await findSite(db, siteId)
  if (!site) throw siteNotFound()
  const role = await roleIn(db, userId, site.organization_id)
  if (role === null) throw siteNotFound()
  return { site, role }
}

/** As `siteForMember`, and also @throws AppError 403 unless the role is admin or owner. */
export async function siteForAdmin(db: MetadataDb, userId: string, rawSiteId: unknown) {
  const access = await siteForMember(db, userId, rawSiteId)
  if (!isAdminRole(access.role)) throw forbidden('This operation requires the admin or owner role')
  return access
}

/** How a reader reached a site's analytics. */
export type ReadAccess = 'member' | 'private_link' | 'public'

/**
 * Read access to one site's analytics: a member of its organization, a holder of its
 * private link key (header `X-Private-Key`), or anyone when the site is public. Read-only: write
 * routes use `siteForMember` / `siteForAdmin`, which a private key never passes.
 * @throws 401 when nothing identifies the reader and the site is not public (also for unknown ids, so
 *   anonymous callers learn nothing); 404 when credentials were presented but reach no such site
 */
export async function siteForReader(
  db: MetadataDb,
  reader: { userId?: string; privateKey?: string },
  rawSiteId: unknown,
): Promise<{ site: SiteRow; role: Role | null; via: ReadAccess }> {
  const anonymous = !reader.userId && !reader.privateKey
  const siteId = parseSiteId(rawSiteId)
  const site = siteId === null ? undefined : await findSite(db, siteId)
  if (!site) throw anonymous ? unauthorized() : siteNotFound()
  if (reader.userId) {
    const role = await roleIn(db, reader.userId, site.organization_id)
    if (role !== null) return { site, role, via: 'member' }
  }
  if (matchesPrivateLinkKey(site.private_link_key, reader.privateKey))
    return { site, role: null, via: 'private_link' }
  if (toBool(site.public)) return { site, role: null, via: 'public' }
  throw anonymous ? unauthorized() : siteNotFound()
}
