/** Routes: organizations and the sites in them (`contracts/organizations.ts`). Authenticated scope. */
import {
  createOrganizationEndpoint,
  createOrganizationSiteEndpoint,
  listOrganizationSitesEndpoint,
  listOrganizationsEndpoint,
  renameOrganizationEndpoint,
} from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { createOrganization, listOrganizations } from '../organizations/organizations.js'
import { renameOrganization } from '../organizations/rename-organization.js'
import { toSite } from '../sites/site.js'
import { createSite, listSitesForUser } from '../sites/sites.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { adminOf, memberOf } from './organization-access.js'
import { route } from './route.js'
import { wholeList } from './whole-list.js'

/** Register the organization routes; the member routes are `members.ts`'. */
export async function organizationRoutes(app: FastifyInstance, { db }: { db: MetadataDb }) {
  route(app, listOrganizationsEndpoint, async ({ caller }) =>
    wholeList(await listOrganizations(db, caller.userId)),
  )

  route(app, createOrganizationEndpoint, async ({ caller, body }) =>
    createOrganization(db, caller.userId, body),
  )

  route(app, renameOrganizationEndpoint, {
    resolve: adminOf(db, 'Renaming an organization'),
    handle: async ({ params, body, resolved }) =>
      renameOrganization({ db }, params.organizationId, resolved, body),
  })

  route(app, createOrganizationSiteEndpoint, {
    resolve: adminOf(db, 'Creating a site'),
    handle: async ({ params, body, resolved }) =>
      toSite(await createSite(db, params.organizationId, resolved.userId, body), resolved.role),
  })

  route(app, listOrganizationSitesEndpoint, {
    resolve: memberOf(db),
    handle: async ({ params, caller }) => {
      const rows = await listSitesForUser(db, caller.userId)
      return wholeList(
        rows.filter((r) => r.organization_id === params.organizationId).map((r) => toSite(r, r.role)),
      )
    },
  })
}
