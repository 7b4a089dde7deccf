/** Routes: organizations and the sites in them (`contracts/organizations.ts`). Authenticated scope. */
import {
  createOrganizationEndpoint,
  createOrganizationSiteEndpoint,
  listOrganizationSitesEndpoint,
  listOrganizationsEndpoint,
  renameOrganizationEndpoint,
} from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { createOrganization, isAdminRole, listOrganizations, roleIn } from '../organizations/organizations.js'
import { renameOrganization } from '../organizations/rename-organization.js'
import { forbidden, organizationNotFound } from '../shared/errors.js'
import { toSite } from '../sites/site.js'
import { createSite, listSitesForUser } from '../sites/sites.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { Caller } from './caller.js'
import { route } from './route.js'
import { wholeList } from './whole-list.js'

/** Register the organization routes; the member routes are `members.ts`'. */
export async function organizationRoutes(app: FastifyInstance, { db }: { db: MetadataDb }) {
  /** The caller as an admin or owner: 404 for a non-member, 403 naming `what` for a plain member. */
  const adminIn =
    (what: string) =>
    async ({ params, caller }: { params: { organizationId: string }; caller: Caller }) => {
      const role = await roleIn(db, caller.userId, params.organizationId)
      if (role === null) throw organizationNotFound()
      if (!isAdminRole(role)) throw forbidden(`${what} requires the admin or owner role`)
      return { userId: caller.userId, role }
    }

  route(app, listOrganizationsEndpoint, async ({ caller }) =>
    wholeList(await listOrganizations(db, caller.userId)),
  )

  route(app, createOrganizationEndpoint, async ({ caller, body }) =>
    createOrganization(db, caller.userId, body),
  )

  route(app, renameOrganizationEndpoint, {
    resolve: adminIn('Renaming an organization'),
    handle: async ({ params, body, resolved }) =>
      renameOrganization({ db }, params.organizationId, resolved, body),
  })

  route(app, createOrganizationSiteEndpoint, {
    resolve: adminIn('Creating a site'),
    handle: async ({ params, body, resolved }) =>
      toSite(await createSite(db, params.organizationId, resolved.userId, body), resolved.role),
  })

  route(app, listOrganizationSitesEndpoint, async ({ params, caller }) => {
    if ((await roleIn(db, caller.userId, params.organizationId)) === null) throw organizationNotFound()
    const rows = await listSitesForUser(db, caller.userId)
    return wholeList(
      rows.filter((r) => r.organization_id === params.organizationId).map((r) => toSite(r, r.role)),
    )
  })
}
