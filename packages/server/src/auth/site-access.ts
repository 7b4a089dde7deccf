/**
 * Site access for authenticated callers (DESIGN §3): a site the caller cannot reach answers 404, never
 * revealing that it exists; operations that need admin or owner answer 403 for plain members.
 */
import { isAdminRole, roleIn } from '../organizations/organizations.js'
import { forbidden, siteNotFound } from '../shared/errors.js'
import type { SiteRow } from '../sites/site.js'
import { findSite, parseSiteId } from '../sites/sites.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { Role } from '../storage/metadata/schema.js'

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
