/**
 * Routes: invitations to an organization (`organizations/invitations.ts`). The organization's routes
 * need an admin or owner (404 for non-members, never revealing the organization); the link's routes
 * (`/api/invitations/:token`) take whoever holds the token, and accepting needs a signed-in account
 * with the invited address. Registered in a scope with an optional caller.
 */
import {
  acceptInvitationEndpoint,
  createInvitationEndpoint,
  declineInvitationEndpoint,
  getInvitationEndpoint,
  listInvitationsEndpoint,
  revokeInvitationEndpoint,
} from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import type { MailSettings } from '../mail/mail-settings.js'
import {
  acceptInvitation,
  createInvitation,
  declineInvitation,
  findInvitation,
  listInvitations,
  revokeInvitation,
} from '../organizations/invitations.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { adminOf } from './organization-access.js'
import { route } from './route.js'
import { wholeList } from './whole-list.js'

export interface InvitationRouteDeps {
  db: MetadataDb
  changes: ChangeFeed
  mail: MailSettings | undefined
  baseUrl: string
  clock?: Clock
}

/** Register the invitation routes (contracts/invitations.ts but the leave route, in `members.ts`). */
export async function invitationRoutes(app: FastifyInstance, deps: InvitationRouteDeps) {
  const { db } = deps
  const clock = deps.clock ?? systemClock
  const adminIn = adminOf(db)

  route(app, createInvitationEndpoint, {
    resolve: adminIn,
    handle: async ({ params, body, resolved }) => ({
      success: true as const,
      data: await createInvitation({ ...deps, clock }, params.organizationId, resolved, body),
    }),
  })

  route(app, listInvitationsEndpoint, {
    resolve: adminIn,
    handle: async ({ params }) => wholeList(await listInvitations(db, params.organizationId, clock)),
  })

  route(app, revokeInvitationEndpoint, {
    resolve: adminIn,
    handle: async ({ params, resolved }) => {
      await revokeInvitation(db, params.organizationId, resolved, params.invitationId, clock)
      return { success: true as const }
    },
  })

  route(app, getInvitationEndpoint, async ({ params }) => ({
    success: true as const,
    data: await findInvitation(db, params.token, clock),
  }))

  route(app, acceptInvitationEndpoint, async ({ params, caller }) => ({
    success: true as const,
    data: await acceptInvitation({ db, changes: deps.changes, clock }, params.token, caller),
  }))

  route(app, declineInvitationEndpoint, async ({ params, caller }) => {
    await declineInvitation(db, params.token, caller, clock)
    return { success: true as const }
  })
}
