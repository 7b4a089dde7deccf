/**
 * Invitations to an organization, and leaving one. Admins and owners invite an e-mail address with a
 * role (only an owner invites owners); the address gets a link with a one-time token, valid 7 days.
 * Anyone holding the token reads what it offers and may decline it; an account signed in with the
 * invited address accepts it and becomes a member. Any member may leave, unless they are its last owner.
 */
import { z } from 'zod'
import { endpoint } from '../contract.js'
import { roles } from '../enums.js'
import { component, doc } from '../openapi-registry.js'
import { successData, successList, successResponse } from '../response-schemas.js'
import { timestamp } from '../schema-fields.js'
import * as at from './addresses.js'

/** `:organizationId`, as text (an unknown one is the access check's 404). */
export const organizationParams = z.object({ organizationId: z.string() })
/** `:organizationId` and `:invitationId`. */
export const invitationParams = z.object({
  organizationId: z.string(),
  invitationId: doc(z.string(), 'The invitation id'),
})
/** `:token`, the token of the invitation's link. */
export const invitationTokenParams = z.object({
  token: doc(z.string(), "The token of the invitation's link"),
})

const role = doc(z.enum(roles), 'A role in an organization')

/** `POST /api/organizations/{organizationId}/invitations`. */
export const invitationInput = z.strictObject({
  email: doc(z.string().trim().toLowerCase().email('must be an email address').max(320), 'Who is invited'),
  role: z.enum(roles, { error: `must be one of ${roles.join(', ')}` }),
})

/** A pending invitation as its organization's admins see it. */
export const invitation = component(
  'Invitation',
  z.object({
    id: z.string(),
    organizationId: z.string(),
    email: z.string(),
    role,
    invitedBy: doc(z.string(), 'User id of who invited'),
    createdAt: timestamp(),
    expiresAt: doc(timestamp(), 'After this the link no longer works (7 days after it was sent)'),
  }),
  'A pending invitation to an organization.',
)

/** What an invitation's link offers, as its holder sees it. */
export const invitationOffer = component(
  'InvitationOffer',
  z.object({
    organization: z.object({ id: z.string(), name: z.string() }),
    email: doc(z.string(), 'The invited address: only an account with it can accept'),
    role,
    invitedBy: doc(z.string(), 'The name of who invited'),
    expiresAt: timestamp(),
  }),
  'What an invitation offers: which organization, with which role.',
)

const noMail = 'E-mail is not configured on this instance (SMTP_URL): nothing is stored or sent'
const gone = 'The invitation has expired, or was accepted, declined or revoked'

/** `POST /api/organizations/:organizationId/invitations`: invite an address; mails it the link. */
export const createInvitationEndpoint = endpoint({
  ...at.createInvitation,
  summary: 'Invite someone by e-mail',
  description:
    'Stores a pending invitation and mails its link (valid 7 days). Inviting an address again replaces ' +
    'its pending invitation (the old link stops working).',
  tag: 'Members',
  access: 'admin',
  who: 'only an owner invites owners',
  params: organizationParams,
  body: invitationInput,
  bodySubject: 'invitation',
  responses: {
    201: { description: 'Invited; the e-mail is on its way', schema: successData(invitation) },
    409: 'Already a member of this organization',
    503: noMail,
  },
})

/** `GET /api/organizations/:organizationId/invitations`: the pending invitations. */
export const listInvitationsEndpoint = endpoint({
  ...at.listInvitations,
  summary: 'Pending invitations',
  tag: 'Members',
  access: 'admin',
  params: organizationParams,
  responses: {
    200: { description: 'Newest first; expired ones are left out', schema: successList(invitation) },
  },
})

/** `DELETE /api/organizations/:organizationId/invitations/:invitationId`: revoke a pending invitation. */
export const revokeInvitationEndpoint = endpoint({
  ...at.revokeInvitation,
  summary: 'Revoke an invitation',
  tag: 'Members',
  access: 'admin',
  params: invitationParams,
  responses: { 200: { description: 'Revoked: its link no longer works', schema: successResponse } },
})

/** `GET /api/invitations/:token`: what the link offers. */
export const getInvitationEndpoint = endpoint({
  ...at.getInvitation,
  summary: 'What an invitation offers',
  tag: 'Members',
  access: 'public',
  who: 'whoever holds the link',
  params: invitationTokenParams,
  responses: {
    200: { description: 'The organization and the role', schema: successData(invitationOffer) },
    404: 'No invitation has this token',
    410: gone,
  },
})

/** `POST /api/invitations/:token/accept`: join the organization. */
export const acceptInvitationEndpoint = endpoint({
  ...at.acceptInvitation,
  summary: 'Accept an invitation',
  description: 'The signed-in account must have the invited address (sign up from the link first if needed).',
  tag: 'Members',
  access: 'signedIn',
  params: invitationTokenParams,
  responses: {
    200: {
      description: 'A member now',
      schema: successData(z.object({ organizationId: z.string(), role })),
    },
    403: 'Signed in with another address than the invited one',
    404: 'No invitation has this token',
    410: gone,
  },
})

/** `POST /api/invitations/:token/decline`: turn the invitation down. */
export const declineInvitationEndpoint = endpoint({
  ...at.declineInvitation,
  summary: 'Decline an invitation',
  tag: 'Members',
  access: 'public',
  who: 'whoever holds the link',
  params: invitationTokenParams,
  responses: {
    200: { description: 'Declined: the link no longer works', schema: successResponse },
    404: 'No invitation has this token',
    410: gone,
  },
})

/** `DELETE /api/organizations/:organizationId/members/me`: leave the organization. */
export const leaveOrganizationEndpoint = endpoint({
  ...at.leaveOrganization,
  summary: 'Leave an organization',
  tag: 'Members',
  access: 'member',
  params: organizationParams,
  responses: {
    200: { description: 'No longer a member', schema: successResponse },
    409: 'The last owner cannot leave; make someone else owner first',
  },
})

/** Every invitation endpoint (the route/contract coverage test reads these). */
export const invitationEndpoints = [
  createInvitationEndpoint,
  listInvitationsEndpoint,
  revokeInvitationEndpoint,
  getInvitationEndpoint,
  acceptInvitationEndpoint,
  declineInvitationEndpoint,
  leaveOrganizationEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    createInvitation: typeof createInvitationEndpoint
    listInvitations: typeof listInvitationsEndpoint
    revokeInvitation: typeof revokeInvitationEndpoint
    getInvitation: typeof getInvitationEndpoint
    acceptInvitation: typeof acceptInvitationEndpoint
    declineInvitation: typeof declineInvitationEndpoint
    leaveOrganization: typeof leaveOrganizationEndpoint
  }
}
