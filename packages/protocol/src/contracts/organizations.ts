/**
 * Organizations, their sites and their members. Any signed-in account lists the organizations it
 * belongs to and creates new ones (becoming their owner); admins and owners rename one, create its
 * sites, add existing accounts, change roles and read the audit trail; any member lists the members
 * and the sites. A caller who is not a member gets 404, never learning the organization exists.
 */
import { z } from 'zod'
import { endpoint } from '../contract.js'
import { roles } from '../enums.js'
import { nameField } from '../name-field.js'
import { doc } from '../openapi-registry.js'
import {
  auditEntry,
  member,
  organization,
  site,
  successData,
  successList,
  successResponse,
} from '../response-schemas.js'
import { createSiteBody } from '../site-input.js'
import * as at from './addresses.js'
import { organizationParams } from './invitations.js'

/** `{name}` of a new organization: 1 to 100 characters after trimming, no NUL. */
export const organizationInput = z.object({ name: nameField() })
/** `{name}` of a renamed organization, as at creation; no other keys. */
export const renameOrganizationInput = organizationInput.strict()

/** `:organizationId` and `:userId`, the member concerned. */
export const memberParams = z.object({
  organizationId: z.string(),
  userId: doc(z.string(), "The member's user id"),
})

const roleField = z.enum(roles, { error: `must be one of ${roles.join(', ')}` })

/** `POST .../members`: an existing account, by its e-mail address, and its role. */
export const addMemberInput = z.object({
  email: z.string().trim().toLowerCase().email('must be an email address'),
  role: roleField,
})
/** `PATCH .../members/:userId`: the member's new role. */
export const changeRoleInput = z.object({ role: roleField })

/** A parsed new (or renamed) organization. */
export type OrganizationInput = z.output<typeof organizationInput>
/** A parsed new member. */
export type AddMemberInput = z.output<typeof addMemberInput>
/** A parsed change of role. */
export type ChangeRoleInput = z.output<typeof changeRoleInput>

/** `GET /api/organizations`. */
export const listOrganizationsEndpoint = endpoint({
  ...at.listOrganizations,
  summary: 'My organizations, with my role in each',
  tag: 'Organizations',
  access: 'signedIn',
  responses: { 200: { description: 'Oldest first', schema: successList(organization) } },
})

/** `POST /api/organizations`. */
export const createOrganizationEndpoint = endpoint({
  ...at.createOrganization,
  summary: 'Create an organization (I become its owner)',
  tag: 'Organizations',
  access: 'signedIn',
  body: organizationInput,
  bodySubject: 'organization',
  bodyFieldsInDetails: true,
  responses: { 201: { description: 'Created', schema: organization } },
})

/** `PATCH /api/organizations/:organizationId`. */
export const renameOrganizationEndpoint = endpoint({
  ...at.renameOrganization,
  summary: 'Rename an organization',
  description: 'The slug stays as it was.',
  tag: 'Organizations',
  access: 'admin',
  params: organizationParams,
  body: renameOrganizationInput,
  bodySubject: 'organization',
  responses: {
    200: { description: 'The organization after the change, with my role', schema: organization },
  },
})

/** `POST /api/organizations/:organizationId/sites`. */
export const createOrganizationSiteEndpoint = endpoint({
  ...at.createOrganizationSite,
  summary: 'Create a site',
  description: 'The domain is normalised (`https://WWW.Example.com/blog` becomes `www.example.com`).',
  tag: 'Organizations',
  access: 'admin',
  params: organizationParams,
  body: createSiteBody,
  bodySubject: 'site',
  bodyFieldsInDetails: true,
  responses: { 201: { description: 'Created', schema: site } },
})

/** `GET /api/organizations/:organizationId/sites`. */
export const listOrganizationSitesEndpoint = endpoint({
  ...at.listOrganizationSites,
  summary: "The organization's sites",
  tag: 'Organizations',
  access: 'member',
  params: organizationParams,
  responses: { 200: { description: 'By site id', schema: successList(site) } },
})

/** `GET /api/organizations/:organizationId/members`. */
export const listMembersEndpoint = endpoint({
  ...at.listMembers,
  summary: 'Members and their roles',
  tag: 'Members',
  access: 'member',
  params: organizationParams,
  responses: { 200: { description: 'Oldest first', schema: successList(member) } },
})

/** `POST /api/organizations/:organizationId/members`. */
export const addMemberEndpoint = endpoint({
  ...at.addMember,
  summary: 'Add an existing account as a member',
  tag: 'Members',
  access: 'admin',
  who: 'only an owner adds owners',
  params: organizationParams,
  body: addMemberInput,
  bodySubject: 'member',
  bodyFieldsInDetails: true,
  responses: {
    201: { description: 'Added', schema: successData(member) },
    403: 'Not admin or owner, or an admin adding an owner',
    404: 'Not found, or no account with that email',
    409: 'Already a member',
  },
})

/** `PATCH /api/organizations/:organizationId/members/:userId`. */
export const changeMemberRoleEndpoint = endpoint({
  ...at.changeMemberRole,
  summary: "Change a member's role",
  tag: 'Members',
  access: 'admin',
  who: 'only an owner grants, changes or removes the owner role',
  params: memberParams,
  body: changeRoleInput,
  bodySubject: 'role',
  bodyFieldsInDetails: true,
  responses: {
    200: { description: 'The member after the change', schema: successData(member) },
    409: 'The last owner cannot be demoted',
  },
})

/** `DELETE /api/organizations/:organizationId/members/:userId`. */
export const removeMemberEndpoint = endpoint({
  ...at.removeMember,
  summary: 'Remove a member (or leave)',
  tag: 'Members',
  access: 'admin',
  who: 'any member may remove themselves; only an owner removes an owner',
  params: memberParams,
  responses: {
    200: { description: 'Removed', schema: successResponse },
    409: 'The last owner cannot be removed',
  },
})

/** `GET /api/organizations/:organizationId/audit-log`. */
export const organizationAuditLogEndpoint = endpoint({
  ...at.organizationAuditLog,
  summary: "The organization's audit trail",
  tag: 'Members',
  access: 'admin',
  params: organizationParams,
  responses: { 200: { description: 'Newest first (at most 100)', schema: successList(auditEntry) } },
})

/** Every organization endpoint (the route/contract coverage test reads these). */
export const organizationEndpoints = [
  listOrganizationsEndpoint,
  createOrganizationEndpoint,
  renameOrganizationEndpoint,
  createOrganizationSiteEndpoint,
  listOrganizationSitesEndpoint,
  listMembersEndpoint,
  addMemberEndpoint,
  changeMemberRoleEndpoint,
  removeMemberEndpoint,
  organizationAuditLogEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    listOrganizations: typeof listOrganizationsEndpoint
    createOrganization: typeof createOrganizationEndpoint
    renameOrganization: typeof renameOrganizationEndpoint
    createOrganizationSite: typeof createOrganizationSiteEndpoint
    listOrganizationSites: typeof listOrganizationSitesEndpoint
    listMembers: typeof listMembersEndpoint
    addMember: typeof addMemberEndpoint
    changeMemberRole: typeof changeMemberRoleEndpoint
    removeMember: typeof removeMemberEndpoint
    organizationAuditLog: typeof organizationAuditLogEndpoint
  }
}
